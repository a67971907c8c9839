// The corrected MoE model (Quirks::corrected()) against the reference's quirks (calculon-MoE
// e3eb609, Quirks::calculonMoe(); calculon-moe-model.md §11), and the paper's qualitative
// findings on its own systems (Tithi et al., ICS '26).
#include "../common/calculon_cases.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/model/evaluate.h"

#include <QTest>

using namespace gapstudio;

namespace {

io::CalculonInputs load(const char *name)
{
    const std::string dir = TEST_DATA_DIR "/calculon-moe/cases/" + std::string(name) + "/";
    return io::loadCalculonInputs(dir + "model.json", dir + "execution.json", dir + "system.json");
}

model::Evaluation run(const io::CalculonInputs &in, const model::Execution &exe, const model::Quirks &quirks,
                      bool layers = false)
{
    model::EvaluateOptions options;
    options.quirks = quirks;
    options.withLayers = layers;
    return model::evaluate(in.application, exe, in.system, options);
}

const model::Quirks kReference = model::Quirks::calculonMoe();
const model::Quirks kCorrected = model::Quirks::corrected();

double layerSum(const model::Evaluation &e, const char *prefix, double model::LayerStats::*field)
{
    double sum = 0;
    for (const model::LayerStats &l : e.layers)
        if (l.name.rfind(prefix, 0) == 0)
            sum += l.*field;
    return sum;
}

double expertFlops(const model::Evaluation &e)
{
    return layerSum(e, "MlpBlock_Mlp1_MoE", &model::LayerStats::fw_flops) +
           layerSum(e, "MlpBlock_Mlp2_MoE", &model::LayerStats::fw_flops);
}

} // namespace

class tst_MoeCorrected : public QObject {
    Q_OBJECT

private slots:
    void agreesWithReferenceWhenNothingTriggers();
    void expertComputeConservedAcrossEs_data();
    void expertComputeConservedAcrossEs();
    void expertOptimizerShardedOverExpertDp();
    void denseBlocksHoldTheirOwnOptimizerState();
    void expertDpTrafficKeptWhenDpIsOne();
    void activationMemoryHasInFlightMicrobatches();
    void noNegativeActivationContributions();
    void fullFlatBeatsTwoTier_data();
    void fullFlatBeatsTwoTier();
    void largerScaleUpDomainWins_data();
    void largerScaleUpDomainWins();
};

void tst_MoeCorrected::agreesWithReferenceWhenNothingTriggers()
{
    // ES = TP (Q1), full recompute (no stored activations: Q3, Q4), no optimizer sharding (Q5),
    // DP > 1 (Q6), one microbatch (the optimizer-per-microbatch quirk), PP > 1 (the edge p2p).
    const io::CalculonInputs in = load("moe18_4096_fullflat_base");
    model::Execution exe = in.execution;
    QCOMPARE(exe.expertSlice, exe.tensorPar);
    exe.activationRecompute = model::Recompute::Full;
    exe.optimizerSharding = false;
    exe.batchSize = exe.dataPar * exe.microbatchSize;
    const model::Evaluation reference = run(in, exe, kReference);
    const model::Evaluation corrected = run(in, exe, kCorrected);
    QVERIFY(reference.ok && corrected.ok);
    std::string differs;
    const auto c = test::statsByName(corrected.stats);
    reference.stats.forEach([&](std::string_view key, double value) {
        if (!test::withinTolerance(c.at(std::string(key)), value, 1e-12, 1e-15))
            differs += std::string(key) + " ";
    });
    QVERIFY2(differs.empty(), differs.c_str());
    QCOMPARE(corrected.stats.ep_comm_exposed_time, reference.stats.ep_comm_exposed_time);
}

void tst_MoeCorrected::expertComputeConservedAcrossEs_data()
{
    QTest::addColumn<qint64>("es");
    for (qint64 es : {1, 2, 4, 8})
        QTest::newRow(qPrintable(QStringLiteral("ES=%1").arg(es))) << es;
}

void tst_MoeCorrected::expertComputeConservedAcrossEs()
{
    // Per GPU the experts see the T*k routed tokens of the TP group's attention shard: the GEMM
    // work is 2 GEMMs * 2*h*f per token-expert pair / TP, whatever ES (Q1: the reference divides by ES).
    QFETCH(qint64, es);
    const io::CalculonInputs in = load("moe18_4096_fullflat_base");
    model::Execution exe = in.execution;
    exe.expertSlice = es;
    exe.dataParExp = exe.numProcs / (exe.expertPar * es * exe.pipelinePar);
    const double tokens = static_cast<double>(exe.microbatchSize * in.application.seqSize);
    const double pairsPerGpu = tokens * static_cast<double>(exe.topKExperts) / static_cast<double>(exe.tensorPar);
    const double h = static_cast<double>(in.application.hidden);
    const double f = static_cast<double>(in.application.feedforward);
    const model::Evaluation corrected = run(in, exe, kCorrected, true);
    const model::Evaluation reference = run(in, exe, kReference, true);
    QVERIFY(corrected.ok || !corrected.layers.empty());
    QVERIFY(test::withinTolerance(expertFlops(corrected), 2 * 2 * pairsPerGpu * h * f, 1e-12));
    const double referenceExpected = 2 * 2 * tokens * static_cast<double>(exe.topKExperts) * h * f / static_cast<double>(es);
    QVERIFY(test::withinTolerance(expertFlops(reference), referenceExpected, 1e-12));
}

void tst_MoeCorrected::expertOptimizerShardedOverExpertDp()
{
    // ZeRO-1 shards expert optimizer state over the expert-DP group that holds the same shard
    // (Q5: the reference divides by DP).
    const io::CalculonInputs in = load("moe18_4096_fullflat_base");
    const model::Execution &exe = in.execution;
    QVERIFY(exe.optimizerSharding && exe.dataPar != exe.dataParExp);
    const model::Evaluation corrected = run(in, exe, kCorrected, true);
    const model::Evaluation reference = run(in, exe, kReference, true);
    const double weights = layerSum(corrected, "MlpBlock_Mlp1_MoE", &model::LayerStats::weight);
    const double params = weights / model::bytesPerElement(exe.datatype);
    // fp32 master copy + Adam m and v = 12 bytes per parameter, over the shard group.
    QVERIFY(test::withinTolerance(layerSum(corrected, "MlpBlock_Mlp1_MoE", &model::LayerStats::optimizer),
                                  12 * params / static_cast<double>(exe.dataParExp), 1e-12));
    QVERIFY(test::withinTolerance(layerSum(reference, "MlpBlock_Mlp1_MoE", &model::LayerStats::optimizer),
                                  12 * params / static_cast<double>(exe.dataPar), 1e-12));
}

void tst_MoeCorrected::denseBlocksHoldTheirOwnOptimizerState()
{
    // Four leading dense blocks (all on the first, fullest stage) instead of MoE blocks, in the
    // corrected model with its stage memory. Per GPU both kinds of FFN hold 2 h F / 8 weights: the
    // dense FFN split by TP 8, the one expert of each GPU (16 experts over EP 16) split by ES 8.
    // Their optimizer state, 12 bytes per weight (FP32 master copy, Adam m and v), shards over DP
    // 128 for the dense FFN and over expert DP 8 for the expert (Megatron-Core's distributed
    // optimizer, docs/references.md); attention is the same in both kinds of block.
    const io::CalculonInputs in = load("moe18_4096_fullflat_base");
    QCOMPARE(in.application.hidden, std::int64_t { 10752 });
    QCOMPARE(in.application.feedforward, std::int64_t { 43008 });
    const model::Execution &exe = in.execution;
    QVERIFY(exe.tensorPar == 8 && exe.expertSlice == 8 && exe.numExperts == exe.expertPar);
    QVERIFY(exe.dataPar == 128 && exe.dataParExp == 8 && exe.optimizerSharding);
    model::EvaluateOptions options;
    options.quirks = kCorrected;
    options.features = model::Features::corrected();
    const auto firstStageOptimizer = [&](std::int64_t denseBlocks) {
        model::Application app = in.application;
        app.denseBlocks = denseBlocks;
        return model::evaluate(app, exe, in.system, options).stats.stage_optimizer_space;
    };
    const double perGpuFfn = 2.0 * 10752 * 43008 / 8;
    const double expected = 4 * 12 * perGpuFfn * (1.0 / 128 - 1.0 / 8);
    const double actual = firstStageOptimizer(4) - firstStageOptimizer(0);
    QVERIFY2(test::withinTolerance(actual, expected, 1e-3),
             qPrintable(QStringLiteral("%1 against %2 by hand").arg(actual).arg(expected)));
}

void tst_MoeCorrected::expertDpTrafficKeptWhenDpIsOne()
{
    const io::CalculonInputs in = load("nemo_8gpu_dp1_dpexp2_h100");
    QCOMPARE(in.execution.dataPar, 1);
    QVERIFY(in.execution.dataParExp > 1);
    // Q6 alone: the reference's semantics with only this quirk fixed.
    model::Quirks fixed = kReference;
    fixed.expertDpDroppedWhenDp1 = false;
    const model::Evaluation reference = run(in, in.execution, kReference);
    const model::Evaluation corrected = run(in, in.execution, fixed);
    QVERIFY(reference.stats.dp_exp_comm_link_time > 0);
    QCOMPARE(reference.stats.dp_comm_exposed_time, 0.0); // Q6: dropped
    // Without DP overlap (it needs DP > 1) the whole expert-DP traffic is exposed.
    QVERIFY(test::withinTolerance(corrected.stats.dp_comm_exposed_time, corrected.stats.dp_exp_comm_link_time, 1e-12));
    QVERIFY(test::withinTolerance(corrected.stats.total_time - reference.stats.total_time,
                                  corrected.stats.dp_exp_comm_link_time, 1e-9));
    // The fully corrected model keeps it too.
    QVERIFY(run(in, in.execution, kCorrected).stats.dp_comm_exposed_time > 0);
}

void tst_MoeCorrected::activationMemoryHasInFlightMicrobatches()
{
    // 1F1B keeps min(M, PP) microbatches of stored activations for every block of the first
    // stage (calculon-model.md §7); Q4 keeps one microbatch and, with PP = 1, one block.
    const io::CalculonInputs in = load("moe18_4096_fullflat_base");
    const model::Execution &exe = in.execution;
    const model::Evaluation corrected = run(in, exe, kCorrected);
    const model::Evaluation reference = run(in, exe, kReference);
    const model::Stats &c = corrected.stats;
    const model::Stats &r = reference.stats;
    const double blocks = static_cast<double>((in.application.numBlocks + exe.pipelinePar - 1) / exe.pipelinePar);
    const double microbatches = static_cast<double>(exe.batchSize / exe.dataPar / exe.microbatchSize);
    const double inFlight = std::min(microbatches, static_cast<double>(exe.pipelinePar));
    QCOMPARE(exe.pipelineInterleaving, 1);
    QVERIFY(test::withinTolerance(c.act_space, c.block_act_working_space + c.block_act_storage_space * (blocks * inFlight - 1), 1e-12));
    QVERIFY(test::withinTolerance(r.act_space, r.block_act_working_space + r.block_act_storage_space * (blocks - 1), 1e-12));
    QVERIFY(c.act_space > r.act_space);
}

void tst_MoeCorrected::noNegativeActivationContributions()
{
    // Q3: the reference subtracts the top-k and bucketing outputs and each all-to-all buffer from
    // the stored activations; nothing is stored for them, so nothing should be subtracted either.
    const io::CalculonInputs in = load("moe18_4096_fullflat_base");
    const model::Execution &exe = in.execution;
    QCOMPARE(exe.expertSlice, exe.tensorPar); // otherwise Q1 changes the buffers too
    const model::Evaluation corrected = run(in, exe, kCorrected);
    const model::Evaluation reference = run(in, exe, kReference);
    const double b = model::bytesPerElement(exe.datatype);
    const double t = static_cast<double>(exe.microbatchSize * in.application.seqSize / exe.tensorPar);
    const double k = static_cast<double>(exe.topKExperts);
    const double topKOutput = std::floor(t / static_cast<double>(exe.numExperts)) * k;
    const double alltoall = t * k * static_cast<double>(in.application.hidden);
    const double subtracted = b * (topKOutput + t * k + 2 * alltoall);
    QVERIFY(test::withinTolerance(corrected.stats.block_act_storage_space - reference.stats.block_act_storage_space,
                                  subtracted, 1e-12));
}

void tst_MoeCorrected::fullFlatBeatsTwoTier_data()
{
    QTest::addColumn<bool>("referenceQuirks");
    QTest::newRow("reference") << true;
    QTest::newRow("corrected") << false;
}

void tst_MoeCorrected::fullFlatBeatsTwoTier()
{
    // gpt-1.8T on 4096 GPUs, the same layout: FullFlat (1600 GB/s everywhere) against a two-tier
    // system with a 64-GPU scale-up domain and 200 GB/s scale-out (the paper's headline contrast).
    QFETCH(bool, referenceQuirks);
    const io::CalculonInputs fullflat = load("moe18_4096_fullflat_base");
    const io::CalculonInputs twotier = load("moe18_4096_hbd64_base");
    const model::Quirks q = referenceQuirks ? kReference : kCorrected;
    const model::Evaluation ff = run(fullflat, fullflat.execution, q);
    const model::Evaluation tt = run(twotier, twotier.execution, q);
    QVERIFY(ff.ok && tt.ok);
    QVERIFY2(ff.stats.sample_rate > tt.stats.sample_rate,
             qPrintable(QStringLiteral("FullFlat %1 vs HBD64 %2 samples/s").arg(ff.stats.sample_rate).arg(tt.stats.sample_rate)));
}

void tst_MoeCorrected::largerScaleUpDomainWins_data()
{
    fullFlatBeatsTwoTier_data();
}

void tst_MoeCorrected::largerScaleUpDomainWins()
{
    // EP x ES = 128: a 128-GPU scale-up domain holds the expert groups on tier 0; a 64-GPU one
    // cannot, so its best mapping puts EP on the scale-out tier.
    QFETCH(bool, referenceQuirks);
    const model::Quirks q = referenceQuirks ? kReference : kCorrected;
    const io::CalculonInputs hbd128 = load("moe18_4096_hbd128sw_ep_tier0");
    const io::CalculonInputs hbd64 = load("moe18_4096_hbd64sw_base");
    QCOMPARE(hbd128.execution.expertPar * hbd128.execution.expertSlice, 128);
    QCOMPARE(hbd128.execution.expertParNet, 0);
    const model::Evaluation big = run(hbd128, hbd128.execution, q);
    const model::Evaluation small = run(hbd64, hbd64.execution, q);
    QVERIFY(big.ok && small.ok);
    QVERIFY(big.stats.sample_rate > small.stats.sample_rate);
    // The same EP-on-tier-0 mapping does not fit a 64-GPU domain.
    const model::Evaluation misfit = run(hbd64, hbd128.execution, q);
    QVERIFY(!misfit.ok);
    QCOMPARE(misfit.diagnostics.front().code, model::DiagnosticCode::NetworkTooSmall);
}

QTEST_GUILESS_MAIN(tst_MoeCorrected)
#include "tst_moe_corrected.moc"
