// Each documented QUIRK of upstream Calculon (calculon-model.md) has one switch in model::Quirks;
// these tests flip one switch at a time on a reference case and check the documented effect, so
// that the corrected mode is known to change exactly what it claims.
#include "calculon_cases.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/model/evaluate.h"

#include <QTest>

using namespace gapstudio;

namespace {

io::CalculonInputs load(const char *caseName)
{
    const QString name = QString::fromLatin1(caseName);
    return io::loadCalculonInputs(test::caseFile(name, "model.json"), test::caseFile(name, "execution.json"),
                                  test::caseFile(name, "system.json"));
}

model::Stats run(const io::CalculonInputs &in, const model::Execution &exe, model::Quirks quirks)
{
    model::EvaluateOptions options;
    options.quirks = quirks;
    const model::Evaluation e = model::evaluate(in.application, exe, in.system, options);
    if (!e.ok)
        qFatal("evaluation failed: %s", e.diagnostics.empty() ? "?" : e.diagnostics[0].message.c_str());
    return e.stats;
}

} // namespace

class tst_Quirks : public QObject {
    Q_OBJECT

private slots:
    void recomputeStatsRunningTotal();
    void usefulFlopsOptimizerPerMicrobatch();
    void edgeBlockP2pWithoutPipeline();
    void overlapEdgeEqualsBase();
    void correctedDiffersOnlyWhereDocumented();
    void denseSwiGlu();
};

void tst_Quirks::recomputeStatsRunningTotal()
{
    // §3.3: with full recompute the reference reports block_re_flops ~ 7.6x block_fw_flops
    // (megatron-1T); the corrected sum recomputes each layer once (all but the TP collectives).
    const io::CalculonInputs in = load("07_val_megatron-1T_full");
    model::Quirks fixed = model::Quirks::calculon();
    fixed.recomputeStatsRunningTotal = false;
    const model::Stats ref = run(in, in.execution, model::Quirks::calculon());
    const model::Stats cor = run(in, in.execution, fixed);
    QVERIFY(ref.block_re_flops > 7 * ref.block_fw_flops);
    QVERIFY(cor.block_re_flops <= cor.block_fw_flops);
    QVERIFY(cor.block_re_flops > 0.99 * cor.block_fw_flops);
    QCOMPARE(cor.block_re_time, ref.block_re_time); // the time was always right
}

void tst_Quirks::usefulFlopsOptimizerPerMicrobatch()
{
    // §8.1: the ideal time counts the optimizer flops once per microbatch, inflating MFU when
    // M > 1; the step time is unaffected.
    const io::CalculonInputs in = load("19_gpt3-175B_4096_a100_plain");
    QVERIFY(in.execution.batchSize / in.execution.dataPar / in.execution.microbatchSize > 1);
    model::Quirks fixed = model::Quirks::calculon();
    fixed.usefulFlopsOptimizerPerMicrobatch = false;
    const model::Stats ref = run(in, in.execution, model::Quirks::calculon());
    const model::Stats cor = run(in, in.execution, fixed);
    QCOMPARE(cor.total_time, ref.total_time);
    QVERIFY(cor.total_efficiency < ref.total_efficiency);
}

void tst_Quirks::edgeBlockP2pWithoutPipeline()
{
    // §4.3: in inference the edge block still pays a backward 0-byte p2p (one latency), which
    // lengthens each of the pp - 1 chunk times of the pipeline bubble.
    const io::CalculonInputs in = load("25_gpt3-175B_16_a100_inference");
    QVERIFY(!in.execution.training && in.execution.pipelinePar > 1 && in.execution.pipelineInterleaving == 1);
    model::Quirks fixed = model::Quirks::calculon();
    fixed.edgeBlockP2pWithoutPipeline = false;
    const model::Stats ref = run(in, in.execution, model::Quirks::calculon());
    const model::Stats cor = run(in, in.execution, fixed);
    const double latency = in.system.networks[static_cast<std::size_t>(in.execution.pipelineParNet)].latency_s;
    const double pp = static_cast<double>(in.execution.pipelinePar);
    QVERIFY(test::withinTolerance(ref.bubble_time - cor.bubble_time, (pp - 1) * latency, 1e-6));
    QCOMPARE(cor.fw_time, ref.fw_time);
}

void tst_Quirks::overlapEdgeEqualsBase()
{
    // §4.4 (1): with p2p_rs_ag the edge block's TP overlap is computed against the base block's
    // communication; corrected, the edge block's own (split) collective is used.
    const io::CalculonInputs in = load("12_gpt3-13B_tp4pp2dp4_a100_pipe");
    model::Execution exe = in.execution;
    exe.tensorParCommType = model::TpCommType::P2pRsAg;
    model::Quirks fixed = model::Quirks::calculon();
    fixed.overlapEdgeEqualsBase = false;
    const model::Stats ref = run(in, exe, model::Quirks::calculon());
    const model::Stats cor = run(in, exe, fixed);
    QCOMPARE(ref.edgeblock_fw_tp_time_exposed, ref.baseblock_fw_tp_time_exposed);
    QVERIFY(cor.edgeblock_fw_tp_time_exposed != cor.baseblock_fw_tp_time_exposed);
    QCOMPARE(cor.baseblock_fw_tp_time_exposed, ref.baseblock_fw_tp_time_exposed);
}

void tst_Quirks::correctedDiffersOnlyWhereDocumented()
{
    // A case where none of these quirks triggers (training with PP > 1, no recompute, rs_ag):
    // corrected and reference agree on every statistic.
    const io::CalculonInputs in = load("18_gpt3-175B_4096_h100_fp8");
    model::Execution exe = in.execution;
    exe.activationRecompute = model::Recompute::None;
    exe.seqParAgRedo = false;
    model::Quirks corrected = model::Quirks::calculon();
    corrected.recomputeStatsRunningTotal = false;
    corrected.edgeBlockP2pWithoutPipeline = false;
    corrected.overlapEdgeEqualsBase = false;
    const model::Stats ref = run(in, exe, model::Quirks::calculon());
    const model::Stats cor = run(in, exe, corrected);
    const auto c = test::statsByName(cor);
    std::string differs;
    ref.forEach([&](std::string_view k, double v) {
        if (!test::withinTolerance(c.at(std::string(k)), v, 1e-12, 1e-15))
            differs += std::string(k) + " ";
    });
    QVERIFY2(differs.empty(), differs.c_str());
}

void tst_Quirks::denseSwiGlu()
{
    // Both references give dense blocks a GeLU MLP whatever activation_function says; the
    // corrected model gives a SiLU LLM a SwiGLU MLP: one more h x f projection (split by TP).
    const io::CalculonInputs in = load("18_gpt3-175B_4096_h100_fp8");
    model::Execution silu = in.execution;
    silu.activationFunction = model::ActivationFunction::Silu;
    const model::Stats reference = run(in, silu, model::Quirks::calculon());
    const model::Stats gelu = run(in, in.execution, model::Quirks::calculon());
    QCOMPARE(reference.total_time, gelu.total_time);
    model::Quirks fixed = model::Quirks::calculon();
    fixed.denseMlpAlwaysGelu = false;
    const model::Stats swiglu = run(in, silu, fixed);
    const double extra = static_cast<double>(in.application.hidden * in.application.feedforward / in.execution.tensorPar) *
                         model::bytesPerElement(in.execution.datatype);
    QVERIFY(test::withinTolerance(swiglu.block_weight_space - gelu.block_weight_space, extra, 1e-12));
    QVERIFY(swiglu.total_time > gelu.total_time);
}

QTEST_GUILESS_MAIN(tst_Quirks)
#include "tst_quirks.moc"
