// Gapstudio-cli eval SCENARIO and import-hf, run as a separate process.
#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/stats.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>
#include <string>
#include <vector>

using namespace gapstudio;

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out, err;
};

Result run(const QStringList &arguments, const QString &presetsVariable = {})
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("GAPSTUDIO_PRESETS"));
    if (!presetsVariable.isEmpty())
        environment.insert(QStringLiteral("GAPSTUDIO_PRESETS"), presetsVariable);
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(GAPSTUDIO_CLI), arguments);
    process.waitForFinished(120000);
    return { process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError() };
}

/// `json` written to `name` in `dir`; its path, or empty if the file could not be written.
QString writeJson(const QTemporaryDir &dir, const char *name, const nlohmann::json &json)
{
    const QString path = dir.path() + QLatin1Char('/') + QLatin1String(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json.dump().c_str()) < 0)
        return {};
    return path;
}

/// The JSON of a file (an empty object if it cannot be read).
nlohmann::json readJsonFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? nlohmann::json::parse(file.readAll().toStdString())
                                          : nlohmann::json::object();
}

const QString kScenarios = QStringLiteral(PRESETS_DIR "/scenarios/");
const QString kMoeCase = QStringLiteral(TEST_DATA_DIR "/calculon-moe/cases/moe18_4096_fullflat_base/");

} // namespace

class tst_CliScenario : public QObject {
    Q_OBJECT

private slots:
    void referenceQuirksEqualCalculonForm()
    {
        const Result scenario = run({ "eval", kScenarios + "default.gapstudio.json", "--reference-quirks" });
        QCOMPARE(scenario.exitCode, 0);
        const Result reference = run({ "eval", "--calculon", kMoeCase + "model.json",
                                       kMoeCase + "execution.json", kMoeCase + "system.json" });
        QCOMPARE(reference.exitCode, 0);
        QCOMPARE(scenario.out, reference.out);
    }

    void correctedByDefault()
    {
        const Result r = run({ "eval", kScenarios + "default.gapstudio.json", "--presets", PRESETS_DIR });
        QCOMPARE(r.exitCode, 0);
        // The reference's statistics first, in its order (scripts keep working), then the
        // corrected model's own ones and the calibration that produced them.
        const auto expectKeys = [](const QByteArray &out, const std::vector<std::string> &reference) {
            const nlohmann::ordered_json stats = nlohmann::ordered_json::parse(out.constData());
            std::vector<std::string> keys;
            for (const auto &item : stats.items())
                keys.push_back(item.key());
            QVERIFY(keys.size() > reference.size());
            QVERIFY(std::equal(reference.begin(), reference.end(), keys.begin()));
            QVERIFY(stats.contains("embedding_head_time"));
            QVERIFY(stats["calibration"].get<std::string>().rfind("calibration shipped: GPU ", 0) == 0);
        };
        std::vector<std::string> moeNames;
        model::Stats().forEachMoe([&](std::string_view name, double) { moeNames.emplace_back(name); });
        std::vector<std::string> denseNames;
        model::Stats().forEach([&](std::string_view name, double) { denseNames.emplace_back(name); });
        QCOMPARE(moeNames.size(), std::size_t { 122 });
        QCOMPARE(denseNames.size(), std::size_t { 96 });
        expectKeys(r.out, moeNames);
        const Result dense = run({ "eval", kScenarios + "gpt3-175b-4096-h100-fp8.gapstudio.json" });
        QCOMPARE(dense.exitCode, 0);
        expectKeys(dense.out, denseNames);

        // After the calibration note, its error on published runs (the shipped file's fit
        // summary) and whether the design's GPU and software have entries of their own: the
        // default design's projected GPU has none, H100 has its architecture's (hopper); neither
        // design names a software stack the calibration was fitted to.
        QFile file(QStringLiteral(PRESETS_DIR "/calibrations/shipped.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const nlohmann::json fit = nlohmann::json::parse(file.readAll().toStdString()).at("fit");
        const auto accuracy = [](const QByteArray &out) {
            return nlohmann::ordered_json::parse(out.constData()).at("calibration_accuracy");
        };
        for (const auto &[out, gpuEntry] : { std::pair { r.out, false }, std::pair { dense.out, true } }) {
            const nlohmann::ordered_json a = accuracy(out);
            QCOMPARE(a.at("runs").get<int>(), fit.at("rows").get<int>());
            QCOMPARE(a.at("fitted_mean_abs_error").get<double>(), fit.at("mean_abs_error").get<double>());
            QCOMPARE(a.at("leave_one_family_out_mean_abs_error").get<double>(),
                     fit.at("leave_one_family_out_mean_abs_error").get<double>());
            QCOMPARE(a.at("gpu_has_entry").get<bool>(), gpuEntry);
            QCOMPARE(a.at("software_has_entry").get<bool>(), false);
        }
    }

    void calibrationFileReplacesTheScenarios()
    {
        // eval --calibration FILE: the design runs with that calibration, as if the scenario named
        // it. The default design under the calibration fitted without the Blackwell runs: its own
        // step time and accuracy, the MoE host time from the host's operators in either.
        const QString calibration = QStringLiteral(PRESETS_DIR "/calibrations/without-blackwell.json");
        const Result given
            = run({ "eval", kScenarios + "default.gapstudio.json", "--calibration", calibration });
        QCOMPARE(given.exitCode, 0);
        nlohmann::json scenario = readJsonFile(kScenarios + "default.gapstudio.json");
        scenario["calibration"] = "without-blackwell";
        QTemporaryDir dir;
        const QString path = writeJson(dir, "named.gapstudio.json", scenario);
        QVERIFY(!path.isEmpty());
        const Result byName = run({ "eval", path, "--presets", PRESETS_DIR });
        QCOMPARE(byName.exitCode, 0);
        const nlohmann::json a = nlohmann::json::parse(given.out.toStdString());
        const nlohmann::json b = nlohmann::json::parse(byName.out.toStdString());
        QCOMPARE(a.at("total_time").get<double>(), b.at("total_time").get<double>());
        const Result shipped = run({ "eval", kScenarios + "default.gapstudio.json" });
        QCOMPARE(shipped.exitCode, 0);
        QVERIFY(nlohmann::json::parse(shipped.out.toStdString()).at("total_time").get<double>()
                != a.at("total_time").get<double>());
        QVERIFY(a.at("moe_host_wait_time").get<double>() > 0);
        QCOMPARE(a.at("moe_sync_time").get<double>(), 0.0);
        QFile fitFile(calibration);
        QVERIFY(fitFile.open(QIODevice::ReadOnly));
        const nlohmann::json fit = nlohmann::json::parse(fitFile.readAll().toStdString()).at("fit");
        QCOMPARE(a.at("calibration_accuracy").at("fitted_mean_abs_error").get<double>(),
                 fit.at("mean_abs_error").get<double>());

        // The reference's two forms have no calibration: usage errors.
        QCOMPARE(run({ "eval", kScenarios + "default.gapstudio.json", "--reference-quirks", "--calibration",
                       calibration })
                     .exitCode,
                 2);
        QCOMPARE(run({ "eval", "--calculon", kMoeCase + "model.json", kMoeCase + "execution.json",
                       kMoeCase + "system.json", "--calibration", calibration })
                     .exitCode,
                 2);
    }

    void measurementFileEvaluatesItsRun()
    {
        // eval on a published run's file (presets/measurements): its design, the measured time
        // beside, and the error as validate reports it for the same run (measured / predicted - 1).
        const QString file = QStringLiteral(
            PRESETS_DIR "/measurements/megatron-bridge-moe/mb2511-b200-qwen3-30b-a3b-8gpu-mxfp8.json");
        const Result r = run({ "eval", file });
        QCOMPARE(r.exitCode, 0);
        const nlohmann::ordered_json out = nlohmann::ordered_json::parse(r.out.toStdString());
        const nlohmann::json run_ = readJsonFile(file);
        QVERIFY(run_.contains("measured_iteration_time_s"));
        const double measured = run_.at("measured_iteration_time_s").get<double>();
        const double predicted = out.at("total_time").get<double>();
        const nlohmann::ordered_json &m = out.at("measured");
        QCOMPARE(m.at("id").get<std::string>(), run_.at("id").get<std::string>());
        QCOMPARE(m.at("iteration_time_s").get<double>(), measured);
        QCOMPARE(m.at("error").get<double>(), measured / predicted - 1);
        QCOMPARE(out.begin().key(), std::string("block_fw_flops")); // the statistics first,
        QCOMPARE((--out.end()).key(), std::string("measured"));     // the run last
        QVERIFY(out.at("moe_host_wait_time").get<double>() > 0);    // the corrected model's, too

        const Result v = run({ "validate", file });
        QCOMPARE(v.exitCode, 0);
        const nlohmann::json row = nlohmann::json::parse(v.out.toStdString()).at(0);
        QCOMPARE(row.at("predicted_s").get<double>(), predicted);
        QCOMPARE(row.at("error").get<double>(), m.at("error").get<double>());

        // A diagnostic names the value where it sits in the measurement file: a layout preset
        // that does not exist, at /scenario/layout.
        nlohmann::json bad = run_;
        bad["scenario"]["layout"] = "no-such-layout";
        QTemporaryDir dir;
        const QString path = writeJson(dir, "bad-run.json", bad);
        QVERIFY(!path.isEmpty());
        const Result e = run({ "eval", path });
        QCOMPARE(e.exitCode, 2);
        QVERIFY2(e.err.startsWith(QByteArray("error: ") + path.toUtf8() + ": /scenario/layout: "),
                 e.err.constData());
        QCOMPARE(e.err.count('\n'), 1);
    }

    void missingPresetIsMalformed()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + QStringLiteral("/bad.gapstudio.json")).toStdString();
        scenario::Scenario s
            = io::loadScenario((kScenarios + "val01-megatron-22b-a100.gapstudio.json").toStdString());
        s.layout.presetId = "no-such-layout";
        io::saveScenario(s, path);
        const Result r = run({ "eval", QString::fromStdString(path) });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith(QByteArray("error: ") + path.c_str() + ": /layout: "), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
    }

    void infeasibleIsExit1()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + QStringLiteral("/oom.gapstudio.json")).toStdString();
        scenario::Scenario s
            = io::loadScenario((kScenarios + "val01-megatron-22b-a100.gapstudio.json").toStdString());
        s.overrides["gpu.hbm_capacity_GiB"] = 1;
        io::saveScenario(s, path);
        const Result r = run({ "eval", QString::fromStdString(path) });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("Mem tier1 needs"), r.err.constData());
    }

    // $GAPSTUDIO_PRESETS comes first in the search order and the shipped presets fill in the rest:
    // a folder with one renamed H100 runs case 18 on it, with case 18's numbers.
    void presetsVariableComesFirst()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("gpus")));
        scenario::Gpu gpu
            = std::get<scenario::Gpu>(io::loadPresetFile(PRESETS_DIR "/gpus/nvidia-h100-sxm-80gb.json"));
        gpu.info.id = "test-variable-only-gpu";
        io::savePresetFile(gpu, (dir.path() + QStringLiteral("/gpus/mine.json")).toStdString());
        scenario::Scenario s
            = io::loadScenario((kScenarios + "gpt3-175b-4096-h100-fp8.gapstudio.json").toStdString());
        s.gpu.presetId = gpu.info.id;
        const std::string path = (dir.path() + QStringLiteral("/mine.gapstudio.json")).toStdString();
        io::saveScenario(s, path);

        const Result mine = run({ "eval", QString::fromStdString(path) }, dir.path());
        QCOMPARE(mine.exitCode, 0);
        const Result shipped = run({ "eval", kScenarios + "gpt3-175b-4096-h100-fp8.gapstudio.json" });
        // The same numbers; the calibration note names the GPU preset it was looked up for.
        nlohmann::json mineJson = nlohmann::json::parse(mine.out.constData());
        nlohmann::json shippedJson = nlohmann::json::parse(shipped.out.constData());
        QVERIFY(mineJson["calibration"].get<std::string>().find("test-variable-only-gpu") != std::string::npos);
        mineJson.erase("calibration");
        shippedJson.erase("calibration");
        QCOMPARE(mineJson.dump(), shippedJson.dump());
        QCOMPARE(run({ "eval", QString::fromStdString(path) }).exitCode, 2); // unknown without it
        const Result missing
            = run({ "eval", QString::fromStdString(path) }, dir.path() + QStringLiteral("/none"));
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("not a directory of presets"), missing.err.constData());
    }

    void importHf()
    {
        const Result r = run({ "import-hf", TEST_DATA_DIR "/hf/mixtral-8x7b/config.json" });
        QCOMPARE(r.exitCode, 0);
        const scenario::Llm llm = io::parseLlm(nlohmann::json::parse(r.out.constData()), "stdout");
        QCOMPARE(llm.info.id, std::string("mixtral-8x7b"));
        QCOMPARE(llm.numExperts, std::int64_t { 8 });
        QVERIFY(r.err.contains("approximation: "));
        const Result bad = run({ "import-hf" });
        QCOMPARE(bad.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(tst_CliScenario)
#include "tst_cli_scenario.moc"
