// gapstudio-cli eval SCENARIO --cost, rank and cost-sweep (model/cost.h, scenario/costsearch.h),
// run as a separate process. Expected figures are hand counts from the shipped presets' cost
// blocks (presets/gpus/nvidia-h100-sxm-80gb.json, interconnects/nvlink4-nvls.json and
// interconnects/infiniband-ndr.json) and the cited defaults of model/src/cost/cost.cpp.
#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/costsearch.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

using namespace gapstudio;

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out, err;
};

Result run(const QStringList &arguments)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("GAPSTUDIO_PRESETS"));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(GAPSTUDIO_CLI), arguments);
    process.waitForFinished(300000);
    return { process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError() };
}

bool near(double a, double b, double relative = 1e-9)
{
    return std::fabs(a - b) <= relative * std::max(std::fabs(a), std::fabs(b));
}

#define QCOMPARE_NEAR(actual, expected)                                                                      \
    QVERIFY2(near((actual), (expected)),                                                                     \
             qPrintable(QStringLiteral("%1 vs %2").arg(actual, 0, 'g', 17).arg(expected, 0, 'g', 17)))

const QString kPresets = QStringLiteral(PRESETS_DIR);
const QString kMoe = kPresets + QStringLiteral("/scenarios/gpt4-moe-4096-h100-hbd8.gapstudio.json");
const QString kSmall = kPresets + QStringLiteral("/scenarios/val01-megatron-22b-a100.gapstudio.json");

/// 4096 H100 in 512 servers and 512 NVLink domains of 8, InfiniBand NDR over all GPUs:
/// - GPUs 4096 x $25,000 = $102.4M; servers 512 x $50,000 = $25.6M.
/// - NVLink: 8 GPUs x 18 ports on 64-port NVSwitches = ceil(144 / 64) = 3 per domain, 1536 x $10,000.
/// - NDR: 4096 endpoints exceed two levels of radix 64 (2 x 32^2 = 2048): three levels of
///   4096 / 32 = 128 leaves, 128 spines and 4096 / 64 = 64 core = 320 x $25,000 = $8M;
///   4096 adapters x $2,000; 3 x 4096 = 12288 links: 24576 optics x $700, 12288 fibres x $100.
constexpr double kMoeGpusUsd = 4096 * 25000.0;
constexpr double kMoeCapexUsd = kMoeGpusUsd + 512 * 50000.0 + 1536 * 10000.0 + 320 * 25000.0 + 4096 * 2000.0
                                + 24576 * 700.0 + 12288 * 100.0;
/// Hours in the default 5-year depreciation (365.25-day years).
constexpr double kFiveYearsHours = 5 * 365.25 * 24;

nlohmann::json evalJson(const QStringList &arguments)
{
    const Result r = run(arguments);
    if (r.exitCode != 0)
        qWarning("%s", r.err.constData());
    return r.exitCode == 0 ? nlohmann::json::parse(r.out.toStdString()) : nlohmann::json();
}

} // namespace

class tst_CliCost : public QObject {
    Q_OBJECT

private slots:
    void evalCostHandCounts()
    {
        const Result r = run({ "eval", kMoe, "--cost" });
        QCOMPARE(r.exitCode, 0);
        const nlohmann::ordered_json out = nlohmann::ordered_json::parse(r.out.toStdString());
        QCOMPARE(QString::fromStdString(out.items().begin().key()), QStringLiteral("block_fw_flops"));
        QCOMPARE(QString::fromStdString((--out.end()).key()), QStringLiteral("cost")); // appended last
        const auto &cost = out["cost"];
        QCOMPARE_NEAR(cost["capex_usd"].get<double>(), kMoeCapexUsd);
        for (const auto &line : cost["bill_of_materials"])
            if (line["part"] == "scale_out_switches")
                QCOMPARE(line["count"].get<double>(), 320.0);
        QVERIFY(cost["notes"].empty());
        // $/hour = capex / 43830 h + facility power x $0.08/kWh (defaults, cost.cpp).
        const double facility_W = cost["facility_power_watts"].get<double>();
        QCOMPARE_NEAR(facility_W, 1.2 * cost["it_power_watts"].get<double>());
        const double perHour = kMoeCapexUsd / kFiveYearsHours + facility_W / 1000 * 0.08;
        QCOMPARE_NEAR(cost["cluster_usd_per_hour"].get<double>(), perHour);
        // Tokens per second from the same output's sample rate x the LLM's 4096-token sequences.
        const double tokensPerSecond = out["sample_rate"].get<double>() * 4096;
        QCOMPARE_NEAR(cost["usd_per_million_tokens"].get<double>(), perHour / (tokensPerSecond * 3600) * 1e6);
        QCOMPARE_NEAR(cost["joules_per_token"].get<double>(), facility_W / tokensPerSecond);
        QCOMPARE_NEAR(cost["megawatts"].get<double>(), facility_W / 1e6);
        // 1e12 tokens at the step time.
        const double runSeconds = 1e12 / tokensPerSecond;
        QVERIFY2(near(cost["run_seconds"].get<double>(), runSeconds, 1e-6), "run time = budget / token rate");
        QVERIFY2(near(cost["gpu_hours"].get<double>(), runSeconds / 3600 * 4096, 1e-6), "GPU-hours");
        // GPU power between 40 % (waiting) and 100 % (computing) of 700 W by the GPUs' activity.
        // The activity is the share of the step the GPUs compute (the same output's system_efficiency).
        const double activity = out["system_efficiency"].get<double>();
        QVERIFY(activity > 0.1 && activity < 1);
        QCOMPARE_NEAR(cost["gpu_activity"].get<double>(), activity);
        QCOMPARE_NEAR(cost["breakdown"]["power_watts"]["gpus"].get<double>(),
                      4096 * 700 * (0.4 + 0.6 * activity));

        // Without --cost: the same output without the cost object (the contract only grows).
        const Result plain = run({ "eval", kMoe });
        QCOMPARE(plain.exitCode, 0);
        nlohmann::ordered_json withoutCost = out;
        withoutCost.erase("cost");
        QCOMPARE(QString::fromStdString(nlohmann::ordered_json::parse(plain.out.toStdString()).dump()),
                 QString::fromStdString(withoutCost.dump()));
    }

    void overridesChangeTheEconomics()
    {
        // Free GPUs and energy, one year of depreciation: $/hour = (capex - GPUs) / 8766 h.
        QTemporaryDir dir;
        const std::string path = (dir.path() + QStringLiteral("/cheap.gapstudio.json")).toStdString();
        scenario::Scenario s = io::loadScenario(kMoe.toStdString());
        s.overrides["gpu.price_USD"] = 0;
        s.overrides["cost.usd_per_kWh"] = 0;
        s.overrides["cost.depreciation_years"] = 1;
        io::saveScenario(s, path);
        const nlohmann::json out = evalJson({ "eval", QString::fromStdString(path), "--cost" });
        QVERIFY(out.contains("cost"));
        QCOMPARE_NEAR(out["cost"]["capex_usd"].get<double>(), kMoeCapexUsd - kMoeGpusUsd);
        QCOMPARE_NEAR(out["cost"]["cluster_usd_per_hour"].get<double>(),
                      (kMoeCapexUsd - kMoeGpusUsd) / 8766.0);
        QCOMPARE(out["cost"]["assumptions"]["depreciation_years"].get<double>(), 1.0);

        s.overrides.clear();
        s.overrides["cost.pue"] = 0.5; // below 1: a malformed input naming the override
        io::saveScenario(s, path);
        const Result bad = run({ "eval", QString::fromStdString(path), "--cost" });
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("/overrides/cost.pue"), bad.err.constData());
    }

    void presetsWithoutCostSaySo()
    {
        // Every shipped GPU and link has a price: the A100 example's cost is complete.
        const nlohmann::json shipped = evalJson({ "eval", kSmall, "--cost" });
        QVERIFY(shipped["cost"]["complete"].get<bool>());
        QVERIFY(shipped["cost"]["unpriced"].empty());
        QVERIFY(shipped["cost"]["capex_usd"].get<double>() > 8 * 15000.0); // at least its 8 GPUs' price

        // A user's GPU without a cost block: its GPUs and servers count as free, and the output
        // says so (complete false, the parts named, a note each).
        QTemporaryDir dir;
        const std::string path = (dir.path() + QStringLiteral("/free.gapstudio.json")).toStdString();
        scenario::Scenario s = io::loadScenario(kSmall.toStdString());
        scenario::Gpu gpu = io::loadPresetLibrary(kPresets.toStdString()).gpus.at(s.gpu.presetId);
        gpu.cost.reset();
        gpu.price_USD.reset();
        gpu.info.id = "my-unpriced-gpu";
        s.gpu = { std::string(), gpu };
        io::saveScenario(s, path);
        const nlohmann::json out = evalJson({ "eval", QString::fromStdString(path), "--cost" });
        QVERIFY(!out["cost"]["complete"].get<bool>());
        QVERIFY2(out["cost"]["unpriced"] == nlohmann::json({ "gpus", "servers" }), out["cost"]["unpriced"].dump().c_str());
        QVERIFY(out["cost"]["notes"].size() >= 2);
        QVERIFY(out["cost"]["capex_usd"].get<double>() < shipped["cost"]["capex_usd"].get<double>());
        QVERIFY(out["cost"]["joules_per_token"].get<double>() > 0); // the GPUs' board power still counts
    }

    void costIsNotForTheCalculonForm()
    {
        const QString dir = QStringLiteral(TEST_DATA_DIR "/calculon-moe/cases/moe18_4096_fullflat_base/");
        const Result r = run({ "eval", "--calculon", dir + "model.json", dir + "execution.json",
                               dir + "system.json", "--cost" });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--cost"), r.err.constData());
    }

    void rankIsSorted()
    {
        const Result r = run({ "rank", kSmall, "--by", "joules_per_token", "--top", "4", "--threads", "2" });
        QCOMPARE(r.exitCode, 0);
        const nlohmann::json out = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(out["by"].get<std::string>(), std::string("joules_per_token"));
        QCOMPARE(out["layouts"].size(), std::size_t(4));
        for (std::size_t i = 1; i < out["layouts"].size(); ++i)
            QVERIFY(out["layouts"][i - 1]["joules_per_token"].get<double>()
                    <= out["layouts"][i]["joules_per_token"].get<double>());
        // Every ranked layout is a layout preset that loads back.
        const std::string layout = out["layouts"][0]["layout"].dump();
        QVERIFY(std::holds_alternative<scenario::Layout>(
            io::parsePresetFile(nlohmann::json::parse(layout), "rank output")));
        QCOMPARE(run({ "rank", kSmall, "--by", "speed" }).exitCode, 2);
    }

    void rankCountsEveryValidLayout()
    {
        // rank's "valid" counts every valid layout of the space (rank evaluates them all), not
        // only those a bounded search would evaluate: the same counts as an exhaustive search of
        // the scenario's space run here.
        const Result r = run({ "rank", kSmall, "--threads", "2" });
        QCOMPARE(r.exitCode, 0);
        const nlohmann::json out = nlohmann::json::parse(r.out.toStdString());
        const scenario::CompileResult compiled
            = scenario::compile(io::loadScenario(kSmall.toStdString()), io::loadPresetLibrary(PRESETS_DIR));
        QVERIFY(compiled.compiled.has_value());
        model::SearchOptions options = model::designSearchOptions(compiled.compiled->evaluateOptions());
        options.threads = 2;
        const model::SearchResult all
            = model::searchLayouts(compiled.compiled->application, compiled.compiled->system,
                                   scenario::scenarioSearchSpace(*compiled.compiled), options);
        QVERIFY(all.valid > 0);
        QCOMPARE(out["configurations"].get<std::uint64_t>(), all.configurations);
        QCOMPARE(out["valid"].get<std::uint64_t>(), all.valid);
    }

    void costSweepMarksParetoFront()
    {
        const Result r = run({ "cost-sweep", kSmall, "--gpus", "8,16", "--threads", "2" });
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0], QByteArray("gpus,ok,time_to_train_days,cost_to_train_usd,usd_per_million_tokens,"
                                      "joules_per_token,mfu,pareto,goodput,effective_training_days,"
                                      "effective_usd_per_million_tokens"));
        // With failures: the wall time and the cost per token are the failure-free ones over the
        // goodput (model/goodput.h).
        for (const QByteArray &line : lines.mid(1)) {
            const QList<QByteArray> cells = line.split(',');
            QCOMPARE(cells.size(), 11);
            const double goodput = cells[8].toDouble();
            QVERIFY(goodput > 0 && goodput < 1);
            QVERIFY(qAbs(cells[9].toDouble() / (cells[2].toDouble() / goodput) - 1) < 1e-5);
            QVERIFY(qAbs(cells[10].toDouble() / (cells[4].toDouble() / goodput) - 1) < 1e-5);
        }
        // A point is on the front unless the other is at most as slow and as expensive.
        const QList<QByteArray> a = lines[1].split(','), b = lines[2].split(',');
        const bool aDominated = b[2].toDouble() <= a[2].toDouble() && b[3].toDouble() <= a[3].toDouble();
        const bool bDominated = a[2].toDouble() <= b[2].toDouble() && a[3].toDouble() <= b[3].toDouble();
        QCOMPARE(a[7] == "1", !aDominated);
        QCOMPARE(b[7] == "1", !bDominated);
        QCOMPARE(run({ "cost-sweep", kSmall }).exitCode, 2); // --gpus is required
    }
};

QTEST_GUILESS_MAIN(tst_CliCost)
#include "tst_cli_cost.moc"
