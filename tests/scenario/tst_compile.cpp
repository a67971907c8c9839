// Scenario compile: presets reproduce the reference systems exactly, and scenarios
// built from presets evaluate to the reference cases' statistics.
#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/input_error.h"
#include "gapstudio/io/measurement_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/evaluate.h"
#include "gapstudio/scenario/scenario.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <utility>

using namespace gapstudio;

namespace {

std::string casePath(const char *suite, const QString &name, const char *file)
{
    return std::string(TEST_DATA_DIR "/") + suite + "/cases/" + name.toStdString() + "/" + file;
}

/// Field-by-field comparison of two systems; returns the first difference or "".
std::string systemDifference(const model::System &a, const model::System &b)
{
    const auto tables
        = [](const model::EfficiencyTable &x, const model::EfficiencyTable &y) { return x.rows == y.rows; };
    for (std::size_t i = 0; i < model::kDatatypeCount; ++i) {
        const char *type = model::datatypeName(static_cast<model::Datatype>(i));
        for (const auto &[x, y, engine] : { std::tuple { &a.matrix[i], &b.matrix[i], "matrix" },
                                            std::tuple { &a.vector[i], &b.vector[i], "vector" } }) {
            // The presets may add a datatype the reference file lacks (BF16 at the FP16 tensor
            // rate on A100 and H100); every datatype of the reference must match exactly.
            if (!y->has_value())
                continue;
            if (!x->has_value())
                return std::string(engine) + " " + type + ": missing from the presets";
            if (*x && ((*x)->peak_flops != (*y)->peak_flops || !tables((*x)->efficiency, (*y)->efficiency)))
                return std::string(engine) + " " + type + " differs";
        }
    }
    for (const auto &[x, y, name] :
         { std::tuple { &a.mem1, &b.mem1, "mem1" }, std::tuple { &a.mem2, &b.mem2, "mem2" } }) {
        if (x->capacity_B != y->capacity_B || x->bandwidth_Bps != y->bandwidth_Bps
            || !tables(x->efficiency, y->efficiency))
            return std::string(name) + " differs";
    }
    if (a.processingMode != b.processingMode)
        return "processing_mode differs";
    if (a.networks.size() != b.networks.size())
        return "network count differs";
    const auto sameOp = [](const model::NetworkOp &x, const model::NetworkOp &y) {
        return x.scalar == y.scalar && x.offset == y.offset && x.efficiency == y.efficiency;
    };
    for (std::size_t n = 0; n < a.networks.size(); ++n) {
        const model::NetworkTier &x = a.networks[n];
        const model::NetworkTier &y = b.networks[n];
        const std::string tier = "network " + std::to_string(n) + " ";
        if (x.bandwidth_Bps != y.bandwidth_Bps)
            return tier + "bandwidth";
        if (x.efficiency != y.efficiency)
            return tier + "efficiency";
        if (x.size != y.size)
            return tier + "size";
        if (x.latency_s != y.latency_s)
            return tier + "latency";
        if (!sameOp(x.p2p, y.p2p))
            return tier + "p2p";
        if (!sameOp(x.reduceScatter, y.reduceScatter))
            return tier + "reduce_scatter";
        if (!sameOp(x.allGather, y.allGather))
            return tier + "all_gather";
        if (!sameOp(x.allReduce, y.allReduce))
            return tier + "all_reduce";
        if (!sameOp(x.allToAll, y.allToAll))
            return tier + "all_to_all";
        if (x.mustBeFilled != y.mustBeFilled)
            return tier + "must_be_filled";
        if (x.processorUsage != y.processorUsage)
            return tier + "processor_usage";
    }
    return {};
}

scenario::Scenario fromPresets(const char *gpu, const char *up, const char *out, const char *topology,
                               const char *llm, const char *layout, std::int64_t gpus)
{
    scenario::Scenario s;
    s.info = { "test", "test", "test" };
    s.gpu.presetId = gpu;
    s.scaleUp.presetId = up;
    s.scaleOut.presetId = out;
    s.topology.presetId = topology;
    s.llm.presetId = llm;
    s.layout.presetId = layout;
    s.gpuCount = gpus;
    return s;
}

bool relativeEqual(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    return std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b));
}

} // namespace

class tst_Compile : public QObject {
    Q_OBJECT

private:
    scenario::PresetLibrary mLibrary;

private slots:
    void initTestCase() { mLibrary = io::loadPresetLibrary(PRESETS_DIR); }

    void referenceSystems_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("up");
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("topology");
        QTest::addColumn<QString>("systemFile");
        QTest::newRow("a100_80g") << "nvidia-a100-80gb"
                                  << "nvlink3"
                                  << "infiniband-hdr"
                                  << "two-tier-8"
                                  << "calculon/cases/01_val_megatron-22B_full/system.json";
        QTest::newRow("h100_80g_nvl8") << "nvidia-h100-sxm-80gb"
                                       << "nvlink4-nvls"
                                       << "infiniband-ndr"
                                       << "two-tier-8"
                                       << "calculon/cases/18_gpt3-175B_4096_h100_fp8/system.json";
        QTest::newRow("Fullflat") << "future-gpu-tithi2026"
                                  << "future-scale-up-1600"
                                  << "fullflat-cpo"
                                  << "full-flat"
                                  << "calculon-moe/cases/moe18_4096_fullflat_base/system.json";
    }
    void referenceSystems()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, up);
        QFETCH(QString, out);
        QFETCH(QString, topology);
        QFETCH(QString, systemFile);
        const std::string path = std::string(TEST_DATA_DIR "/") + systemFile.toStdString();
        const model::System expected = io::parseSystem(io::readJsonFile(path), path);
        const scenario::Scenario s
            = fromPresets(gpu.toUtf8().constData(), up.toUtf8().constData(), out.toUtf8().constData(),
                          topology.toUtf8().constData(), "gpt3-175b", "case18-gpt3-175b-4096-fp8", 4096);
        // Reference mode: the presets' own figures, no calibration.
        const scenario::CompileResult result = scenario::compile(s, mLibrary, scenario::CompileOptions { true });
        QVERIFY2(result.compiled,
                 result.diagnostics.empty() ? "" : result.diagnostics.front().message.c_str());
        const std::string difference = systemDifference(result.compiled->system, expected);
        QVERIFY2(difference.empty(), difference.c_str());
    }

    void referenceCases_data()
    {
        QTest::addColumn<QString>("suite");
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<QString>("scenarioFile");
        QTest::newRow("01") << "calculon"
                            << "01_val_megatron-22B_full"
                            << "val01-megatron-22b-a100.gapstudio.json";
        QTest::newRow("18") << "calculon"
                            << "18_gpt3-175B_4096_h100_fp8"
                            << "gpt3-175b-4096-h100-fp8.gapstudio.json";
        QTest::newRow("19") << "calculon"
                            << "19_gpt3-175B_4096_a100_plain"
                            << "gpt3-175b-4096-a100.gapstudio.json";
        QTest::newRow("moe18 fullflat") << "calculon-moe"
                                        << "moe18_4096_fullflat_base"
                                        << "default.gapstudio.json";
        QTest::newRow("moe18 hbd8") << "calculon-moe"
                                    << "moe18_4096_hbd8_base"
                                    << "gpt4-moe-4096-h100-hbd8.gapstudio.json";
    }
    void referenceCases()
    {
        QFETCH(QString, suite);
        QFETCH(QString, caseName);
        QFETCH(QString, scenarioFile);
        const std::string suiteName = suite.toStdString();
        const io::CalculonInputs in
            = io::loadCalculonInputs(casePath(suiteName.c_str(), caseName, "model.json"),
                                     casePath(suiteName.c_str(), caseName, "execution.json"),
                                     casePath(suiteName.c_str(), caseName, "system.json"));
        const std::string path = PRESETS_DIR "/scenarios/" + scenarioFile.toStdString();
        const scenario::CompiledScenario compiled
            = io::compileScenarioFile(io::loadScenario(path), mLibrary, path, scenario::CompileOptions { true });
        const bool moe = compiled.resolved.llm.isMoe();
        QCOMPARE(moe, in.format == io::ExecutionFormat::CalculonMoe);

        model::EvaluateOptions options;
        options.quirks = scenario::scenarioQuirks(true, moe);
        const model::Evaluation expected = model::evaluate(in.application, in.execution, in.system, options);
        const model::Evaluation actual
            = model::evaluate(compiled.application, compiled.execution, compiled.system, options);
        QVERIFY(expected.ok);
        QVERIFY2(actual.ok, actual.diagnostics.empty() ? "" : actual.diagnostics.front().message.c_str());
        int compared = 0;
        std::string mismatch;
        const auto check = [&](auto forEach) {
            std::vector<std::pair<std::string, double>> a, e;
            forEach(actual.stats, [&](std::string_view name, double v) { a.emplace_back(name, v); });
            forEach(expected.stats, [&](std::string_view, double v) { e.emplace_back("", v); });
            for (std::size_t i = 0; i < a.size(); ++i) {
                ++compared;
                if (mismatch.empty() && !relativeEqual(a[i].second, e[i].second))
                    mismatch = a[i].first + ": " + std::to_string(a[i].second) + " vs "
                               + std::to_string(e[i].second);
            }
        };
        if (moe)
            check([](const model::Stats &s, auto f) { s.forEachMoe(f); });
        else
            check([](const model::Stats &s, auto f) { s.forEach(f); });
        QVERIFY2(mismatch.empty(), mismatch.c_str());
        QCOMPARE(compared, moe ? 122 : 96);
    }

    void unknownOverrideAndMissingPreset()
    {
        scenario::Scenario s = fromPresets("nvidia-a100-80gb", "nvlink3", "infiniband-hdr", "two-tier-8",
                                           "megatron-22b", "val01-megatron-22b-8gpu-full", 8);
        s.overrides["gpu.hbm_bandwidth_GBs"] = 4000;
        s.llm.presetId = "no-such-llm";
        const scenario::CompileResult result = scenario::compile(s, mLibrary);
        QVERIFY(!result.compiled);
        QCOMPARE(result.diagnostics.size(), std::size_t { 1 }); // resolve stops before overrides
        QCOMPARE(result.diagnostics[0].code, model::DiagnosticCode::InvalidScenario);
        QCOMPARE(result.diagnostics[0].field, std::string("llm"));

        s.llm.presetId = "megatron-22b";
        const scenario::CompileResult second = scenario::compile(s, mLibrary);
        QVERIFY(!second.compiled);
        QCOMPARE(second.diagnostics.size(), std::size_t { 1 });
        QCOMPARE(second.diagnostics[0].field, std::string("overrides/gpu.hbm_bandwidth_GBs"));
    }

    void llmDropoutReachesTheModel()
    {
        // Llama 3's config.json trains without dropout (its preset says 0 for both); Megatron
        // 22B's preset states none, and the model then counts the dropout kernels. Both keys
        // survive writing and reading.
        const auto dropouts = [&](const char *llm) {
            const scenario::Scenario s = fromPresets("nvidia-a100-80gb", "nvlink3", "infiniband-hdr",
                                                     "two-tier-8", llm, "val01-megatron-22b-8gpu-full", 8);
            const scenario::CompileResult r = scenario::compile(s, mLibrary);
            if (!r.compiled)
                qFatal("%s", r.diagnostics.empty() ? "?" : r.diagnostics.front().message.c_str());
            return std::pair { r.compiled->application.attentionDropout,
                               r.compiled->application.hiddenDropout };
        };
        QCOMPARE(dropouts("llama3-8b"), std::pair(0.0, 0.0));
        const auto unstated = dropouts("megatron-22b");
        QVERIFY(unstated.first < 0 && unstated.second < 0);
        scenario::Llm llm = mLibrary.llms.at("megatron-22b");
        llm.attentionDropout = 0.1;
        llm.hiddenDropout = 0;
        const scenario::Llm again = io::parseLlm(nlohmann::json::parse(io::toJson(llm).dump()), "inline");
        QCOMPARE(again.attentionDropout, 0.1);
        QCOMPARE(again.hiddenDropout, 0.0);
        QVERIFY(!io::toJson(mLibrary.llms.at("megatron-22b")).contains("hidden_dropout"));
    }

    void routerGroupsReachTheModel()
    {
        // A shipped DeepSeek-V3 run states its group-limited router (8 expert groups,
        // Megatron-Bridge's DeepSeekV3ModelProvider): the key survives writing and reading and
        // reaches the model, where it sets the router's host operators (host_ops.cpp).
        const io::Measurement m
            = io::loadMeasurements(
                  { PRESETS_DIR
                    "/measurements/megatron-bridge-moe/mb2511-gb200-deepseekv3-256gpu-mxfp8.json" })
                  .front();
        const scenario::Llm &llm = *m.scenario.llm.inlineBlock;
        QCOMPARE(llm.routerGroups, 8);
        const nlohmann::json json = io::toJson(llm);
        QCOMPARE(json.at("router_groups").get<int>(), 8);
        QCOMPARE(io::parseLlm(nlohmann::json::parse(json.dump()), "inline").routerGroups, 8);
        const scenario::CompileResult r = scenario::compile(m.scenario, mLibrary);
        QVERIFY(r.compiled);
        QCOMPARE(r.compiled->application.routerGroups, 8);
        // A plain top-k router writes no key; more groups than experts is refused at its key.
        QVERIFY(!io::toJson(mLibrary.llms.at("deepseek-v3-like")).contains("router_groups"));
        nlohmann::json bad = json;
        bad["router_groups"] = 300;
        try {
            (void)io::parseLlm(bad, "bad.json");
            QFAIL("300 groups of 256 experts accepted");
        } catch (const io::InputError &error) {
            const std::string what = error.what();
            QVERIFY2(what.find("router_groups") != std::string::npos && what.find("300") != std::string::npos,
                     error.what());
        }
    }

    void overridesApply()
    {
        scenario::Scenario s = fromPresets("nvidia-a100-80gb", "nvlink3", "infiniband-hdr", "two-tier-8",
                                           "megatron-22b", "val01-megatron-22b-8gpu-full", 8);
        s.overrides = { { "gpu.hbm_bandwidth_GBps", 4000 }, { "gpu.compute_scale", 2 },
                        { "scale_out.latency_us", 5 },      { "topology.scale_up_domain_size", 4 },
                        { "layout.batch_size", 8 },         { "llm.seq_size", 4096 } };
        const scenario::CompileResult result = scenario::compile(s, mLibrary);
        QVERIFY2(result.compiled,
                 result.diagnostics.empty() ? "" : result.diagnostics.front().message.c_str());
        const scenario::CompiledScenario &c = *result.compiled;
        QCOMPARE(c.system.mem1.bandwidth_Bps, 4000e9);
        QCOMPARE(c.system.matrix[std::size_t(model::Datatype::Float16)]->peak_flops, 624e12);
        QCOMPARE(c.system.vector[std::size_t(model::Datatype::Float16)]->peak_flops, 156e12);
        QCOMPARE(c.system.networks[1].latency_s, 5e-6);
        QCOMPARE(c.system.networks[0].size, std::int64_t { 4 });
        QCOMPARE(c.execution.batchSize, std::int64_t { 8 });
        QCOMPARE(c.application.seqSize, std::int64_t { 4096 });

        s.overrides = { { "gpu_count", 0 } };
        const scenario::CompileResult bad = scenario::compile(s, mLibrary);
        QVERIFY(!bad.compiled);
        QCOMPARE(bad.diagnostics[0].field, std::string("overrides/gpu_count"));
    }

    void threeTier()
    {
        scenario::Scenario s
            = fromPresets("nvidia-h100-sxm-80gb", "nvlink4-nvls", "infiniband-ndr",
                          "three-tier-8-leaf256-2to1", "gpt3-175b", "case18-gpt3-175b-4096-fp8", 4096);
        const scenario::CompileResult result = scenario::compile(s, mLibrary);
        QVERIFY(result.compiled);
        const auto &nets = result.compiled->system.networks;
        QCOMPARE(nets.size(), std::size_t { 3 });
        QCOMPARE(nets[1].size, std::int64_t { 256 });
        QCOMPARE(nets[2].bandwidth_Bps, 25e9);
        QCOMPARE(nets[2].size, std::int64_t { 65536 });
    }

    /// Grouped-query attention reduces exactly to multi-head (g = a) and multi-query (g = 1).
    void groupedQueryLimits_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("overlap");
        QTest::newRow("tp1") << 1 << false;
        QTest::newRow("tp8") << 8 << false;
        QTest::newRow("tp8 ring") << 8 << true;
    }
    void groupedQueryLimits()
    {
        QFETCH(int, tp);
        QFETCH(bool, overlap);
        model::Application app { 8192, 28672, 2048, 64, 128, 80 };
        model::Execution exe;
        exe.numProcs = exe.tensorPar = tp;
        exe.batchSize = exe.microbatchSize = 1;
        exe.datatype = model::Datatype::Float16;
        exe.tensorParCommType = model::TpCommType::RsAg;
        exe.tensorParOverlap = overlap ? model::TpOverlap::Ring : model::TpOverlap::None;
        exe.tensorParNet = exe.pipelineParNet = exe.dataParNet = 0;
        const std::string path = casePath("calculon", "18_gpt3-175B_4096_h100_fp8", "system.json");
        model::System sys = io::parseSystem(io::readJsonFile(path), path);
        sys.mem1.capacity_B = 1e15; // memory does not matter here
        const auto run = [&](std::int64_t kv, model::AttentionType type) {
            model::Application a = app;
            a.kvHeads = kv;
            model::Execution e = exe;
            e.attentionType = type;
            model::EvaluateOptions options;
            options.quirks = model::Quirks::corrected();
            return model::evaluate(a, e, sys, options);
        };
        const auto same = [](const model::Evaluation &x, const model::Evaluation &y) {
            bool equal = x.ok && y.ok;
            std::vector<double> a, b;
            x.stats.forEach([&](std::string_view, double v) { a.push_back(v); });
            y.stats.forEach([&](std::string_view, double v) { b.push_back(v); });
            for (std::size_t i = 0; i < a.size(); ++i)
                equal = equal && (a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])));
            return equal;
        };
        QVERIFY(same(run(64, model::AttentionType::MultiHead), run(0, model::AttentionType::MultiHead)));
        QVERIFY(same(run(1, model::AttentionType::MultiHead), run(0, model::AttentionType::MultiQuery)));
        // In between: more K/V work than MQA, less than MHA.
        const double gqa = run(16, model::AttentionType::MultiHead).stats.block_fw_flops;
        QVERIFY(gqa < run(0, model::AttentionType::MultiHead).stats.block_fw_flops);
        QVERIFY(gqa > run(0, model::AttentionType::MultiQuery).stats.block_fw_flops);
    }
};

QTEST_GUILESS_MAIN(tst_Compile)
#include "tst_compile.moc"
