// Goodput under failures through the scenario (model/goodput.h by hand: tst_goodput.cpp): the
// pipeline (a design that cannot run has none), the scenario's `reliability.*` overrides, the
// storage block and its files, interruption rates from the presets, and `gapstudio-cli eval
// --goodput` with asynchronous checkpoints and hot spares.
#include "relative_near.h"

#include "gapstudio/io/input_error.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/cost.h"
#include "gapstudio/model/goodput.h"
#include "gapstudio/scenario/pipeline.h"
#include "gapstudio/scenario/self_contained.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <string>
#include <utility>

using namespace gapstudio;

namespace {

/// The shipped default scenario file as JSON (discarded when it cannot be read), for a test to
/// change and write as a user would.
nlohmann::json defaultScenarioJson()
{
    QFile in(QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json"));
    if (!in.open(QIODevice::ReadOnly))
        return nlohmann::json::value_t::discarded;
    const QByteArray bytes = in.readAll();
    return nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
}

} // namespace

class tst_GoodputScenario : public QObject {
    Q_OBJECT

private slots:
    void pipelineHasItExactlyForRunnableDesigns()
    {
        const scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
        scenario::Scenario s
            = io::loadScenario(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json");
        const scenario::PipelineResult ok = scenario::runScenario(s, library, {});
        QVERIFY(ok.ok() && ok.goodput && ok.goodput->valid);
        // Throughput and cost of wall time: the failure-free ones scaled by the goodput.
        test::relativeNear(ok.goodput->effectiveTokensPerSecond, ok.analysis->tokensPerSecond * ok.goodput->goodput);
        test::relativeNear(ok.goodput->effectiveUsdPerMillionTokens, ok.cost->usdPerMillionTokens / ok.goodput->goodput);
        // The MFU over the wall time, and the efficiency gap's loss after the MFU: what failures,
        // checkpoints and restarts take from it.
        const double mfu = ok.evaluation.stats.total_efficiency;
        test::relativeNear(ok.goodput->effectiveMfu, mfu * ok.goodput->goodput);
        test::relativeNear(ok.analysis->gap.failures, mfu * (1 - ok.goodput->goodput));
        // The parts that fail are the bill of materials': GPUs, servers, scale-out adapters, links.
        const model::BillOfMaterials &bom = ok.cost->bom;
        QVERIFY(bom.scaleOut.links > 0 && !ok.goodput->networkEstimated);
        const std::map<std::string, double> parts = { { "gpu", double(bom.gpus) },
                                                      { "hbm", double(bom.gpus) },
                                                      { "server", double(bom.servers) },
                                                      { "nic", double(bom.scaleOut.ports) },
                                                      { "link", double(bom.scaleOut.links) },
                                                      { "software", double(bom.gpus) } };
        for (const model::InterruptionSource &source : ok.goodput->sources)
            QCOMPARE(source.parts, parts.at(source.key));
        // A scale-out network without cost figures has Llama 3's parts per GPU: one adapter and
        // 1 + 1 + 1/7 links (goodput.cpp), and says so.
        model::BillOfMaterials uncounted;
        uncounted.gpus = 16;
        uncounted.servers = 2;
        uncounted.domains = 2;
        const model::ReliabilityParts estimated = model::reliabilityParts(uncounted);
        QVERIFY(estimated.networkEstimated);
        QCOMPARE(estimated.nics, 16.0);
        test::relativeNear(estimated.links, 16 * 15.0 / 7);
        s.overrides["gpu_count"] = 3000; // TP x PP x DP cannot fill it
        const scenario::PipelineResult bad = scenario::runScenario(s, library, {});
        QVERIFY(!bad.ok());
        QVERIFY(!bad.goodput);
    }

    void overridesSetTheAssumptions()
    {
        // Every figure of the goodput model is a scenario override (presets/README.md).
        const scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
        scenario::Scenario s
            = io::loadScenario(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json");
        s.overrides["reliability.storage_GBps"] = 500;
        s.overrides["reliability.job_restart_s"] = 120;
        s.overrides["reliability.checkpoint_interval_s"] = 1800;
        const scenario::PipelineResult r = scenario::runScenario(s, library, {});
        QVERIFY(r.ok() && r.goodput && r.goodput->valid);
        test::relativeNear(r.goodput->checkpointWrite_s, r.goodput->checkpoint_B / 500e9);
        test::relativeNear(r.goodput->restart_s, 120 + r.goodput->checkpoint_B / 500e9);
        test::relativeNear(r.goodput->interval_s, 1800);
        // Without failures only the checkpoints cost time: tau / (tau + delta).
        s.overrides["reliability.interruptions_per_gpu_hour"] = 0;
        const scenario::PipelineResult none = scenario::runScenario(s, library, {});
        test::relativeNear(none.goodput->goodput, 1800 / (1800 + none.goodput->checkpointWrite_s));
        // Asynchronous checkpoints: each GPU snapshots its share at PCIe 5.0 x16's 32 GT/s x 16
        // lanes x 128/130 / 8 bits = 63.015 GB/s, unless overridden.
        s.overrides.erase("reliability.interruptions_per_gpu_hour");
        s.overrides["reliability.async_checkpoint"] = 1;
        const scenario::PipelineResult async = scenario::runScenario(s, library, {});
        QVERIFY(async.ok() && async.goodput && async.goodput->asynchronous);
        test::relativeNear(async.goodput->checkpointStall_s, async.goodput->checkpoint_B / 4096 / 63.015384615384615e9);
        QVERIFY(async.goodput->goodput > r.goodput->goodput);
        s.overrides["reliability.snapshot_GBps"] = 10;
        test::relativeNear(scenario::runScenario(s, library, {}).goodput->checkpointStall_s,
             async.goodput->checkpoint_B / 4096 / 10e9);
        s.overrides["reliability.async_checkpoint"] = 0.5; // a switch: 0 or 1
        QVERIFY(!scenario::runScenario(s, library, {}).ok());
        s.overrides.erase("reliability.async_checkpoint");
        s.overrides.erase("reliability.snapshot_GBps");
        // A value out of range is a diagnostic naming the key.
        s.overrides["reliability.interruptions_per_gpu_hour"] = -1;
        const scenario::PipelineResult bad = scenario::runScenario(s, library, {});
        QVERIFY(!bad.ok() && !bad.goodput);
        QCOMPARE(QString::fromStdString(bad.diagnostics.front().field),
                 QStringLiteral("overrides/reliability.interruptions_per_gpu_hour"));
    }

    void cliPrintsItLast()
    {
        QProcess cli;
        cli.start(QStringLiteral(GAPSTUDIO_CLI),
                  { QStringLiteral("eval"), QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json"),
                    QStringLiteral("--cost"), QStringLiteral("--goodput") });
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        const QByteArray text = cli.readAllStandardOutput();
        const nlohmann::ordered_json out = nlohmann::ordered_json::parse(text.begin(), text.end());
        QCOMPARE(QString::fromStdString(out.items().begin().key()), QStringLiteral("block_fw_flops"));
        QCOMPARE(QString::fromStdString(std::prev(out.end()).key()), QStringLiteral("goodput"));
        const auto &g = out["goodput"];
        const double goodput = g["goodput"].get<double>();
        QVERIFY(goodput > 0 && goodput < 1);
        const double losses = g["losses"]["checkpoints"].get<double>()
                              + g["losses"]["lost_work"].get<double>()
                              + g["losses"]["restarts"].get<double>();
        test::relativeNear(losses, 1 - goodput, 1e-12);
        // The interruptions by cause add up to the job's rate, the inverse of its MTTI.
        double perHour = 0;
        for (const auto &cause : g["interruptions"])
            perHour += cause["per_hour"].get<double>();
        QCOMPARE(g["interruptions"].size(), std::size_t(6));
        test::relativeNear(perHour * g["mtti_hours"].get<double>(), 1, 1e-12);
        test::relativeNear(g["effective_usd_per_million_tokens"].get<double>(),
             out["cost"]["usd_per_million_tokens"].get<double>() / goodput, 1e-12);
        test::relativeNear(g["effective_mfu"].get<double>(), out["total_efficiency"].get<double>() * goodput, 1e-12);
    }

    void cliAsynchronousCheckpoints()
    {
        // A scenario file that turns asynchronous checkpoints on, as a user writes it.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        nlohmann::json scenario = defaultScenarioJson();
        QVERIFY(scenario.is_object());
        const auto evalGoodput = [&](const QString &path) {
            QProcess cli;
            cli.start(QStringLiteral(GAPSTUDIO_CLI),
                      { QStringLiteral("eval"), path, QStringLiteral("--goodput") });
            cli.waitForFinished(120000);
            const QByteArray text = cli.readAllStandardOutput();
            return std::make_pair(cli.exitCode(),
                                  nlohmann::json::parse(text.begin(), text.end(), nullptr, false));
        };
        const auto [syncCode, sync]
            = evalGoodput(QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json"));
        QCOMPARE(syncCode, 0);
        QCOMPARE(sync["goodput"]["assumptions"]["async_checkpoint"].get<bool>(), false);
        test::relativeNear(sync["goodput"]["checkpoint_stall_s"].get<double>(),
             sync["goodput"]["checkpoint_write_s"].get<double>());
        scenario["overrides"] = { { "reliability.async_checkpoint", 1 } };
        const QString path = dir.filePath(QStringLiteral("async.gapstudio.json"));
        {
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(QByteArray::fromStdString(scenario.dump(4)));
        }
        const auto [asyncCode, async] = evalGoodput(path);
        QCOMPARE(asyncCode, 0);
        const auto &g = async["goodput"];
        QCOMPARE(g["assumptions"]["async_checkpoint"].get<bool>(), true);
        // 4,096 GPUs each snapshot their share at PCIe 5.0 x16's 63.015 GB/s.
        test::relativeNear(g["checkpoint_stall_s"].get<double>(),
             g["checkpoint_bytes"].get<double>() / 4096 / 63.015384615384615e9, 1e-12);
        QVERIFY(g["checkpoint_interval_s"].get<double>() >= g["checkpoint_write_s"].get<double>());
        QVERIFY(g["goodput"].get<double>() > sync["goodput"]["goodput"].get<double>());
    }

    void storageBlock()
    {
        // A storage block sets the write and read bandwidths and, priced, joins the bill of
        // materials as one line: 2 M$ and 30 kW on top of the design without one.
        const scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
        scenario::Scenario s = io::loadScenario(PRESETS_DIR "/scenarios/default.gapstudio.json");
        const scenario::PipelineResult none = scenario::runScenario(s, library, {});
        QVERIFY(none.ok() && none.cost && none.goodput && none.cost->bom.complete());
        QVERIFY(!none.cost->bom.line("storage"));
        scenario::Storage fast;
        fast.info = { "test-fast", "Fast storage", "test" };
        fast.write_Bps = 500e9;
        fast.read_Bps = 1000e9;
        fast.price_USD = 2e6;
        fast.power_W = 30000;
        s.storage = { {}, fast };
        const scenario::PipelineResult with = scenario::runScenario(s, library, {});
        QVERIFY(with.ok() && with.cost && with.goodput && with.cost->bom.complete());
        const double B = with.goodput->checkpoint_B;
        test::relativeNear(B, none.goodput->checkpoint_B);
        test::relativeNear(with.goodput->checkpointWrite_s, B / 500e9);
        test::relativeNear(with.goodput->restart_s, 600 + B / 1000e9); // the restart estimate, then the read
        test::relativeNear(with.cost->capex_USD - none.cost->capex_USD, 2e6);
        test::relativeNear(with.cost->itPower_W - none.cost->itPower_W, 30000);
        QVERIFY(with.goodput->goodput < none.goodput->goodput); // slower than 2 TB/s
        // An override of the storage bandwidth wins over the block, both ways.
        s.overrides["reliability.storage_GBps"] = 100;
        const scenario::PipelineResult overridden = scenario::runScenario(s, library, {});
        test::relativeNear(overridden.goodput->checkpointWrite_s, B / 100e9);
        test::relativeNear(overridden.goodput->restart_s, 600 + B / 100e9);
        s.overrides.clear();
        // The shipped Tectonic has no public price: the $ figures say they leave it out.
        s.storage = { "llama3-tectonic", std::nullopt };
        const scenario::PipelineResult tectonic = scenario::runScenario(s, library, {});
        QVERIFY(tectonic.ok() && !tectonic.cost->bom.complete());
        QCOMPARE(tectonic.cost->bom.unpriced, std::vector<std::string> { "storage" });
        QVERIFY(QString::fromStdString(model::unpricedWarning(tectonic.cost->bom))
                    .contains(QStringLiteral("the checkpoint storage")));
        test::relativeNear(tectonic.goodput->goodput, none.goodput->goodput); // Llama 3's 2 TB/s, the default
        // A storage id the library lacks is a diagnostic naming the field.
        s.storage = { "no-such-storage", std::nullopt };
        const scenario::PipelineResult missing = scenario::runScenario(s, library, {});
        QVERIFY(!missing.ok());
        QCOMPARE(QString::fromStdString(missing.diagnostics.front().field), QStringLiteral("storage"));
    }

    void storageFiles()
    {
        // The preset format: written and read back unchanged, inline in a scenario too; a bandwidth
        // of 0 is an error naming file and key.
        scenario::Storage storage;
        storage.info = { "test-storage", "Test storage", "test" };
        storage.write_Bps = 123.4e9;
        storage.read_Bps = 500e9;
        storage.price_USD = 1.5e6;
        storage.power_W = 12000;
        QCOMPARE(io::parseStorage(io::toJson(storage), "storage.json"), storage);
        scenario::Storage unpriced = storage;
        unpriced.price_USD.reset();
        unpriced.power_W = 0;
        QCOMPARE(io::parseStorage(io::toJson(unpriced), "storage.json"), unpriced);
        scenario::Scenario s = io::loadScenario(PRESETS_DIR "/scenarios/default.gapstudio.json");
        s.storage = { {}, storage };
        QCOMPARE(io::parseScenario(io::toJson(s), "s.gapstudio.json"), s);
        nlohmann::json bad = io::toJson(storage);
        bad["write_GBps"] = 0;
        try {
            (void)io::parsePresetFile(bad, "bad.json");
            QFAIL("a storage block without write bandwidth was accepted");
        } catch (const io::InputError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("/write_GBps")), e.what());
        }
        // A user's storage block goes inline when the scenario is saved for another machine.
        scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
        const scenario::PresetLibrary shipped = library;
        library.storage["test-storage"] = storage;
        s.storage = { "test-storage", std::nullopt };
        const scenario::Scenario saved = scenario::withUnshippedBlocksInline(s, library, shipped);
        QVERIFY(saved.storage.inlineBlock && *saved.storage.inlineBlock == storage);
    }

    void interruptionRatesFromPresets()
    {
        // A GPU preset's HBM rate and the scale-out link preset's link rate replace the defaults;
        // an override wins over both.
        const scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
        scenario::Scenario s
            = io::loadScenario(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json");
        const scenario::PipelineResult before = scenario::runScenario(s, library, {});
        QVERIFY(before.ok() && before.goodput && !s.scaleOut.presetId.empty());
        scenario::Gpu gpu = library.gpus.at(s.gpu.presetId);
        gpu.reliability = scenario::PartFits { { { "hbm_fit", 5000 } }, "test: a vendor's HBM figure" };
        scenario::Interconnect link = library.interconnects.at(s.scaleOut.presetId);
        link.reliability = scenario::PartFits { { { "link_fit", 20 } }, "test" };
        s.gpu = { {}, gpu };
        s.scaleOut = { {}, link };
        const auto rate = [](const scenario::PipelineResult &r, const std::string &key) {
            for (const model::InterruptionSource &source : r.goodput->sources)
                if (source.key == key)
                    return std::make_pair(source.parts, source.perHour);
            return std::make_pair(0.0, 0.0);
        };
        const scenario::PipelineResult after = scenario::runScenario(s, library, {});
        QVERIFY(after.ok() && after.goodput);
        const auto [gpus, hbmPerHour] = rate(after, "hbm");
        test::relativeNear(hbmPerHour, gpus * 5000 / 1e9);
        const auto [links, linkPerHour] = rate(after, "link");
        QVERIFY(links > 0);
        test::relativeNear(linkPerHour, links * 20 / 1e9);
        test::relativeNear(rate(after, "gpu").second, rate(before, "gpu").second); // not given: the default
        s.overrides["reliability.hbm_fit"] = 100;
        test::relativeNear(rate(scenario::runScenario(s, library, {}), "hbm").second, gpus * 100 / 1e9);
        // The preset format keeps them, and refuses a rate of a part the block does not have.
        QCOMPARE(io::parseGpu(io::toJson(gpu), "gpu.json"), gpu);
        QCOMPARE(io::parseInterconnect(io::toJson(link), "link.json"), link);
        nlohmann::json bad = io::toJson(gpu);
        bad["reliability"]["link_fit"] = 3;
        try {
            (void)io::parsePresetFile(bad, "gpu.json");
            QFAIL("a GPU with a link rate was accepted");
        } catch (const io::InputError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("link_fit")), e.what());
        }
        bad = io::toJson(gpu);
        bad["reliability"] = { { "source", "nothing" } };
        QVERIFY_THROWS_EXCEPTION(io::InputError, (void)io::parsePresetFile(bad, "gpu.json"));
    }

    void cliHotSpares()
    {
        // A scenario file with servers repaired in two days, as a user writes it, with and
        // without 16 spare servers.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        nlohmann::json scenario = defaultScenarioJson();
        QVERIFY(scenario.is_object());
        const auto evalWith = [&](const nlohmann::json &overrides) {
            scenario["overrides"] = overrides;
            const QString path = dir.filePath(QStringLiteral("spares.gapstudio.json"));
            QFile out(path);
            out.open(QIODevice::WriteOnly);
            out.write(QByteArray::fromStdString(scenario.dump(4)));
            out.close();
            QProcess cli;
            cli.start(QStringLiteral(GAPSTUDIO_CLI), { QStringLiteral("eval"), path, QStringLiteral("--cost"),
                                                       QStringLiteral("--goodput") });
            cli.waitForFinished(120000);
            const QByteArray text = cli.readAllStandardOutput();
            return std::make_pair(cli.exitCode(),
                                  nlohmann::json::parse(text.begin(), text.end(), nullptr, false));
        };
        const auto [noneCode, none] = evalWith({ { "reliability.repair_hours", 48 } });
        const auto [sparesCode, spares]
            = evalWith({ { "reliability.repair_hours", 48 }, { "reliability.spare_servers", 16 } });
        const auto [atHandCode, atHand] = evalWith(nlohmann::json::object());
        QCOMPARE(noneCode, 0);
        QCOMPARE(sparesCode, 0);
        QCOMPARE(atHandCode, 0);
        const auto goodput
            = [](const nlohmann::json &out) { return out["goodput"]["goodput"].get<double>(); };
        QVERIFY(goodput(none) < goodput(spares) && goodput(spares) < goodput(atHand));
        QCOMPARE(spares["goodput"]["assumptions"]["spare_servers"].get<int>(), 16);
        test::relativeNear(spares["goodput"]["assumptions"]["repair_hours"].get<double>(), 48);
        QVERIFY(spares["goodput"]["spare_wait_s"].get<double>() > 0);
        QCOMPARE(atHand["goodput"]["spare_wait_s"].get<double>(), 0.0);
        // The spares' capital: 16 servers and their GPUs at the bill of materials' unit prices.
        const auto line = [](const nlohmann::json &out, const std::string &key) {
            for (const auto &l : out["cost"]["bill_of_materials"])
                if (l["part"] == key)
                    return l;
            return nlohmann::json();
        };
        const nlohmann::json gpus = line(spares, "gpus"), servers = line(spares, "servers");
        const double perServer = gpus["count"].get<double>() / servers["count"].get<double>();
        QCOMPARE(line(spares, "spares_servers")["count"].get<double>(), 16.0);
        QCOMPARE(line(spares, "spares_gpus")["count"].get<double>(), 16 * perServer);
        test::relativeNear(
            spares["cost"]["capex_usd"].get<double>() - atHand["cost"]["capex_usd"].get<double>(),
            16 * (perServer * gpus["unit_price_usd"].get<double>() + servers["unit_price_usd"].get<double>()),
            1e-12);
        // The shipped Tectonic storage named in the file: its id in the assumptions, and the $
        // figures marked incomplete for its missing price.
        scenario["storage"] = "llama3-tectonic";
        const auto [storageCode, storage] = evalWith(nlohmann::json::object());
        QCOMPARE(storageCode, 0);
        QCOMPARE(storage["goodput"]["assumptions"]["storage"].get<std::string>(),
                 std::string("llama3-tectonic"));
        QVERIFY(atHand["goodput"]["assumptions"]["storage"].is_null());
        QCOMPARE(storage["cost"]["complete"].get<bool>(), false);
        QVERIFY(storage["cost"]["unpriced"] == nlohmann::json::array({ "storage" }));
        QCOMPARE(line(storage, "storage")["count"].get<double>(), 1.0);
        scenario.erase("storage");
        // Out of range: a diagnostic naming the key, exit 2.
        QCOMPARE(evalWith({ { "reliability.spare_servers", 1.5 } }).first, 2);
        QCOMPARE(evalWith({ { "reliability.repair_hours", -1 } }).first, 2);
    }
};

QTEST_MAIN(tst_GoodputScenario)
#include "tst_goodput_scenario.moc"
