// The model's input ranges (model/limits.h) as one rule for designs built in code (sweeps, the
// studio), the counts that would overflow, the final guard on results, the override ranges, and
// Scenario diagnostics told in the scenario's own keys (scenario/locate.h).
#include "calculon_cases.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/limits.h"
#include "gapstudio/model/sweep.h"
#include "gapstudio/scenario/locate.h"

#include "engine/checks.h" // the final guard (result_guard.cpp)

#include <QTest>

#include <cmath>
#include <optional>

using namespace gapstudio;

namespace {

model::Design caseDesign(const char *name)
{
    const std::string dir = TEST_DATA_DIR "/calculon/cases/" + std::string(name) + "/";
    const io::CalculonInputs in
        = io::loadCalculonInputs(dir + "model.json", dir + "execution.json", dir + "system.json");
    return { in.application, in.execution, in.system };
}

model::Design case18()
{
    return caseDesign("18_gpt3-175B_4096_h100_fp8");
}

/// The first diagnostic of checkConfiguration (field "(accepted)" if there is none).
model::Diagnostic firstProblem(const model::Design &d)
{
    const model::Diagnostics out = model::checkConfiguration(d.application, d.execution, d.system);
    return out.empty() ? model::Diagnostic { model::DiagnosticCode::MalformedExecution, "(accepted)", "" }
                       : out.front();
}

model::Diagnostic at(const char *field,
                     model::DiagnosticCode code = model::DiagnosticCode::MalformedExecution)
{
    return { code, field, "message" };
}

} // namespace

class tst_Limits : public QObject {
    Q_OBJECT

private slots:
    void systemRangesNameTheField_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("range");
        QTest::newRow("HBM bandwidth 0") << 0 << "mem1/bandwidth"
                                         << "(0, 1e+18]";
        QTest::newRow("latency 2 s") << 1 << "networks/1/latency"
                                     << "[0, 1]";
        QTest::newRow("all-reduce offset -2") << 2 << "networks/0/ops/all_reduce"
                                              << "[-1, 1000]";
        QTest::newRow("1e10 TFLOPS") << 3 << "matrix/float8/peak_flops"
                                     << "[0, 1e+21]";
        QTest::newRow("efficiency 1e-9") << 4 << "mem1/efficiency"
                                         << "[1e-06, 1]";
    }
    void systemRangesNameTheField()
    {
        QFETCH(int, which);
        QFETCH(QString, field);
        QFETCH(QString, range);
        model::Design d = case18();
        switch (which) {
        case 0:
            d.system.mem1.bandwidth_Bps = 0;
            break;
        case 1:
            d.system.networks[1].latency_s = 2;
            break;
        case 2:
            d.system.networks[0].allReduce.offset = -2;
            break;
        case 3:
            d.system.matrix[static_cast<std::size_t>(model::Datatype::Float8)]->peak_flops = 1e22;
            break;
        default:
            d.system.mem1.efficiency.rows.back().second = 1e-9;
        }
        const model::Diagnostic problem = firstProblem(d);
        QCOMPARE(problem.code, model::DiagnosticCode::OutOfRange);
        QVERIFY(problem.isMalformedInput());
        QCOMPARE(QString::fromStdString(problem.field), field);
        QVERIFY2(QString::fromStdString(problem.message).contains(range), problem.message.c_str());
        // evaluate() refuses it as well, before any formula runs.
        QVERIFY(!model::evaluate(d.application, d.execution, d.system).ok);
    }

    void offloadNeedsATier2Bandwidth()
    {
        model::Design d = case18();
        d.execution.weightOffload = true;
        d.system.mem2.bandwidth_Bps = 0;
        QCOMPARE(firstProblem(d).field, std::string("mem2/bandwidth"));
    }

    void countsThatWouldOverflowNameTheLargestInput()
    {
        model::Design d = case18();
        d.application.seqSize = 1000000000; // s^2 * heads * ... > 2^62: it once wrapped to a negative time
        model::Diagnostic problem = firstProblem(d);
        QCOMPARE(problem.code, model::DiagnosticCode::OutOfRange);
        QCOMPARE(problem.field, std::string("seq_size"));
        d = case18();
        d.application.numBlocks = std::int64_t { 1 } << 52; // blocks * 2048 microbatches = 2^63
        d.execution.microbatchSize = 1;
        QCOMPARE(firstProblem(d).field, std::string("num_blocks"));
        // The corrected model's LM head: 6 * tokens * h * V with V = 2^50 (the fuzzer's find: it
        // overflowed int64 in the embedding's parameter count).
        d = case18();
        d.application.vocabSize = std::int64_t { 1 } << 50;
        QCOMPARE(firstProblem(d).field, std::string("vocab_size"));
        // A long context is fine: 128k tokens of GPT-3 175B, 4 * 131072 * 12288 * 49152 = 3.2e17 MLP
        // flops per microbatch, are far inside 2^62.
        d = case18();
        d.application.seqSize = 131072;
        d.execution.microbatchSize = 1;
        for (const model::Diagnostic &x : model::checkConfiguration(d.application, d.execution, d.system))
            QVERIFY2(x.code != model::DiagnosticCode::OutOfRange, x.message.c_str());
    }

    void guardCatchesWhatTheRangesMiss()
    {
        // With the range checks skipped (as a search does once it has checked its system), an HBM
        // bandwidth of 0 makes memory times infinite: the guard must refuse, naming the input.
        model::Design d = case18();
        d.system.mem1.bandwidth_Bps = 0;
        model::EvaluateOptions options;
        options.checkSystemRanges = false;
        const model::Evaluation e = model::evaluate(d.application, d.execution, d.system, options);
        QVERIFY(!e.ok);
        QCOMPARE(e.diagnostics.front().code, model::DiagnosticCode::NonFiniteResult);
        QCOMPARE(e.diagnostics.front().field, std::string("mem1/bandwidth"));
        QVERIFY(e.diagnostics.front().isMalformedInput());
        // The reference's own NaN (no checkpoint buffer with offloading, in inference) is not garbage.
        const model::Design inference = caseDesign("25_gpt3-175B_16_a100_inference");
        QVERIFY(model::evaluate(inference.application, inference.execution, inference.system).ok);
    }

    void guardChecksEveryStatistic()
    {
        // The guard's fast path folds the statistics into several sums and minima: a negative or
        // a NaN in any one statistic, whichever sum it falls into, still makes the result an
        // error.
        const model::Design d = case18();
        const model::Evaluation fine = model::evaluate(d.application, d.execution, d.system);
        QVERIFY(fine.ok);
        QVERIFY(!model::checkResults(d.application, d.execution, d.system, fine.stats, false));
        int fields = 0;
        const auto refused = [&](double model::Stats::*field, double value) {
            model::Stats broken = fine.stats;
            broken.*field = value;
            const std::optional<model::Diagnostic> guard
                = model::checkResults(d.application, d.execution, d.system, broken, false);
            return guard && guard->code == model::DiagnosticCode::NonFiniteResult;
        };
        // The corrected model's statistics: the same, but for stage_imbalance_time, which is signed
        // (uneven stages can shorten the pipeline's fill and drain) and need only be finite.
        const auto signedOne = [](std::string_view name) { return name == "stage_imbalance_time"; };
#define GUARDED_CORRECTED(name)                                                                              \
    ++fields;                                                                                                \
    QVERIFY2(refused(&model::Stats::name, -1.0) != signedOne(#name), #name ": -1 and the guard disagree");   \
    QVERIFY2(refused(&model::Stats::name, std::nan("")), #name " = NaN passes the guard");                   \
    QVERIFY2(refused(&model::Stats::name, INFINITY), #name " = infinity passes the guard");
#define GUARDED(name)                                                                                        \
    ++fields;                                                                                                \
    QVERIFY2(refused(&model::Stats::name, -1.0), #name " = -1 passes the guard");                            \
    QVERIFY2(refused(&model::Stats::name, std::nan("")), #name " = NaN passes the guard");
        GAPSTUDIO_CALCULON_STATS(GUARDED)
        GAPSTUDIO_CALCULON_MOE_EXTRA_STATS(GUARDED)
        GAPSTUDIO_CORRECTED_EXTRA_STATS(GUARDED_CORRECTED)
#undef GUARDED
#undef GUARDED_CORRECTED
        QVERIFY(fields > 100);
    }

    void sweptDesignsLeaveTheRangeAsDiagnostics()
    {
        const model::Design d = case18();
        const model::Design scaled = model::scaled(d, model::HardwareParameter::HbmBandwidth, 1e7);
        const model::Evaluation e = model::evaluate(scaled.application, scaled.execution, scaled.system);
        QVERIFY(!e.ok);
        QCOMPARE(e.diagnostics.front().code, model::DiagnosticCode::OutOfRange);
    }

    void overrideRanges_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("problem"); // empty: accepted
        QTest::newRow("efficiency 5") << "scale_up.efficiency" << 5.0 << "[1e-06, 1]";
        QTest::newRow("efficiency 0.9") << "scale_out.efficiency" << 0.9 << "";
        QTest::newRow("compute scale 1e308") << "gpu.compute_scale" << 1e308 << "(0, 1e+06]";
        QTest::newRow("HBM 0 GB/s") << "gpu.hbm_bandwidth_GBps" << 0.0 << "(0, 1e+09]";
        QTest::newRow("HBM 3000 GB/s") << "gpu.hbm_bandwidth_GBps" << 3000.0 << "";
        QTest::newRow("latency 1e308 us") << "scale_out.latency_us" << 1e308 << "[0, 1e+06]";
        QTest::newRow("half a token") << "llm.seq_size" << 0.5 << "[1, 9.0072e+15]";
        QTest::newRow("fraction of a GPU") << "gpu_count" << 4.5 << "whole number";
        QTest::newRow("NaN") << "gpu_count" << std::nan("") << "expected a number";
        QTest::newRow("unknown") << "gpu.speed" << 1.0 << "unknown override";
    }
    void overrideRanges()
    {
        QFETCH(QString, key);
        QFETCH(double, value);
        QFETCH(QString, problem);
        const std::optional<std::string> actual = scenario::overrideProblem(key.toStdString(), value);
        QCOMPARE(actual.has_value(), !problem.isEmpty());
        if (actual) // (the accepted rows have nothing more to check)
            QVERIFY2(QString::fromStdString(*actual).contains(problem), actual->c_str());
    }

    void compileNamesTheOverrideThatLeavesTheRange()
    {
        const auto library = io::loadPresetLibrary(PRESETS_DIR);
        scenario::Scenario s = io::loadScenario(PRESETS_DIR "/scenarios/default.gapstudio.json");
        s.overrides["gpu.compute_scale"] = 1e6; // within its own range, but 18,400 TFLOPS x 1e6 is not
        const scenario::CompileResult result = scenario::compile(s, library);
        QVERIFY(!result.compiled);
        QCOMPARE(result.diagnostics.front().field, std::string("overrides/gpu.compute_scale"));
        QVERIFY(scenario::isMalformedScenario(result.diagnostics));
    }

    void scenarioPointers()
    {
        scenario::Scenario s = io::loadScenario(PRESETS_DIR "/scenarios/default.gapstudio.json");
        const auto pointer = [&s](const model::Diagnostic &d) {
            return QString::fromStdString(scenario::scenarioPointer(s, d));
        };
        // Presets by id: the block itself is what the file has.
        QCOMPARE(pointer(at("tensor_par")), QStringLiteral("/layout"));
        QCOMPARE(pointer(at("num_procs")), QStringLiteral("/gpu_count"));
        QCOMPARE(pointer(at("seq_size", model::DiagnosticCode::OutOfRange)), QStringLiteral("/llm"));
        QCOMPARE(pointer(at("mem1/bandwidth", model::DiagnosticCode::OutOfRange)), QStringLiteral("/gpu"));
        QCOMPARE(pointer(at("networks/0/latency", model::DiagnosticCode::OutOfRange)),
                 QStringLiteral("/scale_up"));
        QCOMPARE(pointer(at("networks/1/latency", model::DiagnosticCode::OutOfRange)),
                 QStringLiteral("/scale_out"));
        QCOMPARE(pointer(at("networks/0/size", model::DiagnosticCode::NetworkTooSmall)),
                 QStringLiteral("/topology"));
        QCOMPARE(pointer(at("overrides/llm.seq_size", model::DiagnosticCode::InvalidScenario)),
                 QStringLiteral("/overrides/llm.seq_size"));
        QCOMPARE(pointer(at("", model::DiagnosticCode::Tier1CapacityExceeded)), QString());
        // Overrides win: they are what the user wrote last.
        s.overrides["layout.tensor_par"] = 4;
        s.overrides["gpu_count"] = 4096;
        s.overrides["llm.seq_size"] = 8192;
        s.overrides["gpu.hbm_bandwidth_GBps"] = 3000;
        s.overrides["scale_out.latency_us"] = 3;
        QCOMPARE(pointer(at("tensor_par")), QStringLiteral("/overrides/layout.tensor_par"));
        QCOMPARE(pointer(at("num_procs")), QStringLiteral("/overrides/gpu_count"));
        QCOMPARE(pointer(at("seq_size", model::DiagnosticCode::OutOfRange)),
                 QStringLiteral("/overrides/llm.seq_size"));
        QCOMPARE(pointer(at("mem1/bandwidth", model::DiagnosticCode::OutOfRange)),
                 QStringLiteral("/overrides/gpu.hbm_bandwidth_GBps"));
        QCOMPARE(pointer(at("networks/1/latency", model::DiagnosticCode::OutOfRange)),
                 QStringLiteral("/overrides/scale_out.latency_us"));
        // Inline blocks: the key inside the block, in the file's own names.
        const auto library = io::loadPresetLibrary(PRESETS_DIR);
        s.llm = { {}, library.llms.at(s.llm.presetId) };
        s.layout = { {}, library.layouts.at(s.layout.presetId) };
        QCOMPARE(pointer(at("attn_size", model::DiagnosticCode::OutOfRange)),
                 QStringLiteral("/llm/head_size"));
        QCOMPARE(pointer(at("pipeline_par")), QStringLiteral("/layout/pipeline_par"));
        QCOMPARE(pointer(at("top_k_experts")), QStringLiteral("/llm/top_k"));
    }

    void malformedOrInfeasible()
    {
        using C = model::DiagnosticCode;
        QVERIFY(!scenario::isMalformedScenario(
            { at("tensor_par", C::MalformedExecution) })); // a layout that does not fit
        QVERIFY(!scenario::isMalformedScenario({ at("", C::Tier1CapacityExceeded) }));
        QVERIFY(scenario::isMalformedScenario({ at("seq_size", C::OutOfRange) }));
        QVERIFY(scenario::isMalformedScenario({ at("mem1/bandwidth", C::NonFiniteResult) }));
        QVERIFY(scenario::isMalformedScenario(
            { at("", C::Tier1CapacityExceeded), at("gpu", C::InvalidScenario) }));
    }
};

QTEST_GUILESS_MAIN(tst_Limits)
#include "tst_limits.moc"
