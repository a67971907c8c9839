// The shipped preset library: every file loads, round-trips byte for byte and cites a
// source; bad files give one-line errors naming the file and the JSON pointer.
//
// After a deliberate format change, GAPSTUDIO_REWRITE_PRESETS=1 tst_presets rewrites every
// preset in its canonical form (what save produces) before checking.
#include "gapstudio/io/preset_json.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <string>

using namespace gapstudio;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QStringList presetFiles()
{
    QStringList files;
    QDirIterator it(QStringLiteral(PRESETS_DIR), { QStringLiteral("*.json") }, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        // Measured runs (presets/measurements) are validation data with their own format and tests;
        // roadmaps (presets/roadmaps) have their own format and tests (tst_roadmap).
        if (!path.contains(QLatin1String("/measurements/")) && !path.contains(QLatin1String("/roadmaps/")))
            files << path;
    }
    files.sort();
    return files;
}

std::string sourceOf(const io::PresetFile &preset)
{
    return std::visit([](const auto &block) { return block.info.source; }, preset);
}

} // namespace

class tst_Presets : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mDir;

    /// Writes `text` to a file in the temporary directory and returns its path.
    std::string write(const char *name, const std::string &text)
    {
        const QString path = mDir.filePath(QString::fromUtf8(name));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(text.data(), static_cast<qint64>(text.size()));
        return path.toStdString();
    }

private slots:
    void everyPreset_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString &path : presetFiles())
            QTest::newRow(qPrintable(QDir(QStringLiteral(PRESETS_DIR)).relativeFilePath(path))) << path;
    }
    void everyPreset()
    {
        QFETCH(QString, path);
        if (qEnvironmentVariableIsSet("GAPSTUDIO_REWRITE_PRESETS"))
            io::savePresetFile(io::loadPresetFile(path.toStdString()), path.toStdString());
        const io::PresetFile preset = io::loadPresetFile(path.toStdString());
        QVERIFY(!sourceOf(preset).empty());
        const std::string saved = io::toText(io::toJson(preset));
        QCOMPARE(QString::fromStdString(saved), QString::fromUtf8(readAll(path)));
        // And the struct survives another trip.
        const std::string again = write("again.json", saved);
        QVERIFY(io::loadPresetFile(again) == preset);
    }

    void libraryLoads()
    {
        const scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
        QCOMPARE(library.gpus.size(), std::size_t { 12 });
        QVERIFY(library.interconnects.size() >= 11);
        QVERIFY(library.topologies.size() >= 6);
        QVERIFY(library.llms.size() >= 12);
        QVERIFY(library.layouts.count("moe18-4096-fullflat-base"));
        // Every shipped scenario compiles against the library.
        for (const QString &path : presetFiles()) {
            if (!path.endsWith(QLatin1String(".gapstudio.json")))
                continue;
            const scenario::Scenario s = io::loadScenario(path.toStdString());
            const scenario::CompileResult result = scenario::compile(s, library);
            QVERIFY2(result.compiled, qPrintable(path));
        }
    }

    void badFiles_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("message");
        const QString link
            = QStringLiteral(R"({"fileType": "gapstudio.interconnect", "version": %1, "id": "x", "name": "x",
            "source": "s", "bandwidth_GBps": %2, "latency_us": 1, "efficiency": 0.9, "all_to_all_efficiency": 0,
            "in_network_reduction": false, "processor_usage": 0.02, "max_domain_size": 0%3})");
        QTest::newRow("unknown key") << link.arg(1).arg(100).arg(QStringLiteral(R"(, "bandwith_GBps": 1)"))
                                     << "/bandwith_GBps"
                                     << "unknown key";
        QTest::newRow("wrong type") << link.arg(1).arg(QStringLiteral("\"fast\"")).arg(QString())
                                    << "/bandwidth_GBps"
                                    << "expected a number";
        QTest::newRow("negative bandwidth") << link.arg(1).arg(-5).arg(QString()) << "/bandwidth_GBps"
                                            << "expected a number in (0, inf), got -5";
        QTest::newRow("version too new") << link.arg(7).arg(100).arg(QString()) << "/version"
                                         << QStringLiteral("File version 7 is newer than the supported version %1")
                                                .arg(io::kPresetVersion);
        const QString layout
            = QStringLiteral(R"({"fileType": "gapstudio.layout", "version": 2, "id": "x", "name": "x",
            "source": "s", "tensor_par": 1, "pipeline_par": 1, "data_par": 8, "expert_par": 1, "expert_slice": 1,
            "data_par_exp": 1, "batch_size": 8, "microbatch_size": 1, "datatype": "bfloat16", "tensor_par_net": 0,
            "pipeline_par_net": 0, "data_par_net": 0, "expert_par_net": 0, "expert_slice_net": 0,
            "data_par_exp_net": 0, "fused_activation": true, "activation_recompute": "none",
            "pipeline_interleaving": 1, "optimizer_sharding": false, "tensor_par_comm_type": "ar",
            "tensor_par_overlap": "none", "seq_par_ag_redo": false, "data_par_overlap": false,
            "weight_offload": false, "activations_offload": false, "optimizer_offload": false, "training": true,
            "cuda_graph_scope": %1})");
        QTest::newRow("graph scope unknown")
            << layout.arg(QStringLiteral(R"(["attn", "mlp"])")) << "/cuda_graph_scope/1"
            << "expected one of";
        QTest::newRow("graph scope twice")
            << layout.arg(QStringLiteral(R"(["moe", "moe"])")) << "/cuda_graph_scope/1"
            << "the scope moe is named twice";
        QTest::newRow("graph scope not a list")
            << layout.arg(QStringLiteral(R"("attn")")) << "/cuda_graph_scope"
            << "expected an array";
        const QString software
            = QStringLiteral(R"({"fileType": "gapstudio.software", "version": 2, "id": "x", "name": "x",
            "source": "s", "framework": "f", "gradient_reduce_datatype": "fp32", "host_op_factor": %1})");
        QTest::newRow("host time per operator zero") << software.arg(0) << "/host_op_factor"
                                                     << "expected a number in (0, 100], got 0";
        QTest::newRow("version too old") << link.arg(0).arg(100).arg(QString()) << "/version"
                                         << "File version 0 is no longer supported";
        // Cost blocks (model/cost.h): strict keys, a radix of at least 2, a source for every figure.
        const QString parts = QStringLiteral(R"(, "cost": {"port_speed_Gbps": 400, "switch_radix": %1,
            "switch_price_USD": 1, "switch_power_W": 1, "nic_price_USD": 1, "nic_power_W": 1, "optics_price_USD": 1,
            "optics_power_W": 1, "cable_price_USD": 1, "source": "%2"})");
        QTest::newRow("cost: radix 1") << link.arg(2).arg(100).arg(parts.arg(1).arg(QStringLiteral("s")))
                                       << "/cost/switch_radix"
                                       << "expected an integer >= 2";
        QTest::newRow("cost: no source") << link.arg(2).arg(100).arg(parts.arg(64).arg(QString())) << "/cost/source"
                                         << "expected where the figures come from";
        QTest::newRow("cost: unknown key")
            << link.arg(2).arg(100).arg(parts.arg(64).arg(QStringLiteral(R"(s", "switch_price": "1)")))
            << "/cost/switch_price"
            << "unknown key";
        const QString scenario = QStringLiteral(R"({"fileType": "gapstudio.scenario", "version": 1, "id": "s",
            "name": "s", "source": "s", "gpu": "nvidia-a100-80gb", "scale_up": "nvlink3", "scale_out": "infiniband-hdr",
            "topology": "two-tier-8", "llm": %1, "layout": "val01-megatron-22b-8gpu-full", "gpu_count": %2})");
        QTest::newRow("zero GPUs") << scenario.arg(QStringLiteral("\"megatron-22b\"")).arg(0) << "/gpu_count"
                                   << "expected an integer >= 1";
        QTest::newRow("missing preset") << scenario.arg(QStringLiteral("\"megatron-23b\"")).arg(8) << "/llm"
                                        << "no LLM preset with id \"megatron-23b\"";
        QTest::newRow("inline block key")
            << scenario
                   .arg(QStringLiteral(R"({"id": "m", "name": "m", "source": "s",
            "hidden": 1024, "feedforward": 4096, "seq_size": 2048, "attn_heads": 16, "head_size": 64, "kv_heads": 3,
            "num_blocks": 8, "vocab_size": 1000, "num_experts": 1, "top_k": 1, "activation": "gelu"})"))
                   .arg(8)
            << "/llm/kv_heads"
            << "do not divide";
        QTest::newRow("more MTP layers than blocks")
            << scenario
                   .arg(QStringLiteral(R"({"id": "m", "name": "m", "source": "s",
            "hidden": 1024, "feedforward": 4096, "seq_size": 2048, "attn_heads": 16, "head_size": 64, "kv_heads": 16,
            "num_blocks": 8, "vocab_size": 1000, "num_experts": 1, "top_k": 1, "activation": "gelu", "mtp_layers": 9})"))
                   .arg(8)
            << "/llm/mtp_layers"
            << "9 exceeds num_blocks = 8";
        QTest::newRow("dropout of 1") << scenario
                                             .arg(QStringLiteral(R"({"id": "m", "name": "m", "source": "s",
            "hidden": 1024, "feedforward": 4096, "seq_size": 2048, "attn_heads": 16, "head_size": 64, "kv_heads": 16,
            "num_blocks": 8, "vocab_size": 1000, "num_experts": 1, "top_k": 1, "activation": "gelu",
            "hidden_dropout": 1})"))
                                             .arg(8)
                                      << "/llm/hidden_dropout"
                                      << "expected a number in [0, 1), got 1";
    }
    void badFiles()
    {
        QFETCH(QString, text);
        QFETCH(QString, pointer);
        QFETCH(QString, message);
        const std::string path = write("bad.json", text.toStdString());
        try {
            const io::PresetFile preset = io::loadPresetFile(path);
            if (const auto *s = std::get_if<scenario::Scenario>(&preset))
                (void)io::compileScenarioFile(*s, io::loadPresetLibrary(PRESETS_DIR), path);
            QFAIL("no error");
        } catch (const io::InputError &error) {
            const QString what = QString::fromUtf8(error.what());
            QCOMPARE(QString::fromStdString(error.file()), QString::fromStdString(path));
            QCOMPARE(QString::fromStdString(error.jsonPointer()), pointer);
            QVERIFY2(what.contains(message), qPrintable(what));
            QVERIFY(what.startsWith(QString::fromStdString(path) + QStringLiteral(": ") + pointer
                                    + QStringLiteral(": ")));
            QVERIFY(!what.contains(QLatin1Char('\n')));
        }
    }

    void duplicateIds()
    {
        QTemporaryDir dir;
        const QByteArray text = readAll(QStringLiteral(PRESETS_DIR "/topologies/two-tier-8.json"));
        for (const char *name : { "/a.json", "/b.json" }) {
            QFile file(dir.path() + QLatin1String(name));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(text);
        }
        try {
            (void)io::loadPresetLibrary(dir.path().toStdString());
            QFAIL("no error");
        } catch (const io::InputError &error) {
            QCOMPARE(QString::fromStdString(error.jsonPointer()), QStringLiteral("/id"));
            QVERIFY(QString::fromUtf8(error.what()).contains(QLatin1String("duplicate")));
        }
    }

    void scenarioRoundTripWithInlineBlocksAndOverrides()
    {
        const scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
        scenario::Scenario s;
        s.info = { "mine", "My design", "GapStudio test" };
        s.gpu.inlineBlock = library.gpus.at("nvidia-b200");
        s.scaleUp.presetId = "nvlink5";
        s.scaleOut.presetId = "roce-800g";
        s.topology.presetId = "two-tier-72";
        s.llm.inlineBlock = library.llms.at("llama3-70b");
        s.layout.presetId = "case18-gpt3-175b-4096-fp8";
        s.gpuCount = 4096;
        s.overrides = { { "gpu.hbm_bandwidth_GBps", 9000.5 }, { "llm.seq_size", 4096 } };
        const std::string text = io::toText(io::toJson(s));
        const std::string path = write("mine.gapstudio.json", text);
        const scenario::Scenario loaded = io::loadScenario(path);
        QVERIFY(loaded == s);
        QCOMPARE(io::toText(io::toJson(loaded)), text);
    }
};

QTEST_GUILESS_MAIN(tst_Presets)
#include "tst_presets.moc"
