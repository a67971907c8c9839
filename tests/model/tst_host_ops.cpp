// The MoE blocks' wait for the host (engine/host_ops.h): operator counts derived by hand from
// Megatron-Core core_v0.14.0 and Transformer Engine v2.8 (docs/references.md, "MoE host
// operators"), checked through the model's step time.
#include "fidelity_machine.h"
#include "relative_near.h"

#include "gapstudio/model/analysis.h"

#include <QtTest>

#include <algorithm>

using namespace gapstudio::model;
using namespace gapstudio::test::fidelity;

namespace {

/// Four MoE blocks (8 experts, one per GPU), one microbatch per GPU, a calibration that costs
/// the host's operators at `hostOp_s` each.
Application hostedApp()
{
    Application app = gpt();
    app.feedforward = 512;
    return app;
}

System hostedMachine(double hostOp_s)
{
    System sys = machine();
    sys.hostOpTime_s = hostOp_s;
    return sys;
}

Evaluation hosted(const Execution &exe, double hostOp_s, double scale = 1,
                  const Application &app = hostedApp())
{
    EvaluateOptions options = corrected(true);
    options.calibration.hostOpScale = scale;
    return evaluate(app, exe, hostedMachine(hostOp_s), options);
}

/// hostedApp() with DeepSeek-V3's kind of layer: latent attention with a low-rank query, a
/// group-limited router and a shared expert.
Application deepSeekLikeApp()
{
    Application app = hostedApp();
    app.qLoraRank = 256;
    app.kvLoraRank = 128;
    app.ropeHeadSize = 32;
    app.valueHeadSize = 64;
    app.routerGroups = 4;
    app.sharedExperts = 1;
    app.sharedExpertFeedforward = 512;
    return app;
}

/// The step-time difference between two host speeds when every pass is host-bound (1 and 2 ms
/// per operator against a GPU pass of well under 1 ms): 4 blocks x (forward + backward
/// operators) x 1 ms.
double hostSlope(const Execution &exe, double scale = 1, const Application &app = hostedApp())
{
    const Evaluation slow = hosted(exe, 2e-3, scale, app);
    const Evaluation fast = hosted(exe, 1e-3, scale, app);
    if (!slow.ok || !fast.ok)
        qFatal("the host-bound layout does not evaluate");
    return slow.stats.total_time - fast.stats.total_time;
}

/// The seconds of the step-time term `key`, or -1 when the breakdown has no such term.
double term(const StepBreakdown &step, const char *key)
{
    for (const TimeComponent &c : step.exposed)
        if (c.key == key)
            return c.seconds;
    return -1.0;
}

} // namespace

class TestHostOps : public QObject {
    Q_OBJECT

private slots:
    void hostBoundPassesTakeTheOperatorsHostTime()
    {
        // The forward pass of one MoE layer, counted by hand: attention half 8, router 28
        // (GEMM 1, top-k and softmax scores 12, auxiliary loss 15), dispatcher preprocessing 7,
        // fused permutation 4; after the host wait the all-to-alls and their reorders, the
        // SwiGLU, unpermutation and the grouped GEMMs' bookkeeping 12, one GEMM per layer of the
        // one local expert 2, the residual add 1: 62. The backward pass issues twice as many,
        // so a block costs 3 x 62 = 186 operators per microbatch.
        const Execution exe = moeLayout();
        gapstudio::test::relativeNear(hostSlope(exe), 4 * 186 * 1e-3, 1e-9);
        // The step's moe_host_wait_time carries the wait (the GPU's own time does not move), and
        // the efficiency gap names it; the fitted dispatcher overhead (moe_sync_time) stays 0.
        const Evaluation slow = hosted(exe, 2e-3);
        const Evaluation fast = hosted(exe, 1e-3);
        gapstudio::test::relativeNear(slow.stats.moe_host_wait_time - fast.stats.moe_host_wait_time,
                                      4 * 186 * 1e-3, 1e-9);
        QCOMPARE(slow.stats.moe_sync_time, 0.0);
        const Analysis analysis = analyze(hostedApp(), exe, hostedMachine(2e-3), slow);
        const std::vector<TimeComponent> &losses = analysis.gap.losses;
        const auto loss = std::find_if(losses.begin(), losses.end(),
                                       [](const TimeComponent &l) { return l.key == "moe_host_ops"; });
        QVERIFY(loss != losses.end());
        gapstudio::test::relativeNear(loss->seconds, slow.stats.moe_host_wait_time / slow.stats.total_time);
        // The software stack's scale multiplies the host's time per operator.
        gapstudio::test::relativeNear(hostSlope(exe, 2.5), 2.5 * 4 * 186 * 1e-3, 1e-9);
        // No scale (a calibration that does not cost the host): no wait at all.
        QCOMPARE(hosted(exe, 2e-3, 0).stats.moe_host_wait_time, 0.0);
        QCOMPARE(hosted(exe, 2e-3, 0).stats.total_time, hosted(exe, 1e-3, 0).stats.total_time);
    }

    void aMultiTokenPredictionLayerWaitsLikeAnMoeBlock()
    {
        // A multi-token-prediction layer (with the LM head it needs) runs one more MoE block on
        // the last (here the only) stage: 5 blocks x 186 operators per microbatch wait for the
        // host.
        Application app = hostedApp();
        app.vocabSize = 32000;
        app.mtpLayers = 1;
        const Execution exe = moeLayout();
        EvaluateOptions options = corrected(true);
        options.calibration.hostOpScale = 1;
        const Evaluation slow = evaluate(app, exe, hostedMachine(2e-3), options);
        const Evaluation fast = evaluate(app, exe, hostedMachine(1e-3), options);
        QVERIFY(slow.ok && fast.ok);
        gapstudio::test::relativeNear(slow.stats.moe_host_wait_time - fast.stats.moe_host_wait_time,
                                      5 * 186 * 1e-3, 1e-9);
        // The step-time chart takes the layer's wait out of the embedding and LM head term, which
        // holds the layer: that term is then the GPU's own time (no host costed).
        options.calibration.hostOpScale = 0;
        const Evaluation gpu = evaluate(app, exe, hostedMachine(1e-3), options);
        QVERIFY(gpu.ok && gpu.stats.embedding_head_time > 0);
        const StepBreakdown step = analyze(app, exe, hostedMachine(1e-3), fast).step;
        gapstudio::test::relativeNear(term(step, "embedding_head"), gpu.stats.embedding_head_time, 1e-9);
        gapstudio::test::relativeNear(term(step, "moe_host_ops"), fast.stats.moe_host_wait_time, 1e-12);
    }

    void graphsAndFusionsTakeOperatorsOffTheHost()
    {
        // A CUDA graph costs one launch for what it captures: attention 8 -> 1, router 28 -> 1,
        // preprocessing 7 -> 1, so 62 - 7 - 27 - 6 = 22 per forward pass, 66 per block.
        Execution exe = moeLayout();
        exe.cudaGraphScopes = kGraphAttn | kGraphMoeRouter | kGraphMoePreprocess;
        gapstudio::test::relativeNear(hostSlope(exe), 4 * 66 * 1e-3, 1e-9);
        // Router fusion alone: the router's 28 operators become 7 (GEMM, fused top-k, 5 for the
        // fused auxiliary loss): 41 per forward pass.
        exe.cudaGraphScopes = 0;
        exe.moeRouterFusion = true;
        gapstudio::test::relativeNear(hostSlope(exe), 4 * 3 * 41 * 1e-3, 1e-9);
        // A graph of the whole MoE layer (scope "moe") leaves the attention half's 8, one graph
        // launch and the residual add: 10 per forward pass.
        exe.cudaGraphScopes = kGraphMoe;
        gapstudio::test::relativeNear(hostSlope(exe), 4 * 3 * 10 * 1e-3, 1e-9);
    }

    void deepSeekV3sLayerIssuesMoreOperators()
    {
        // Latent attention with a low-rank query: input norm, the query's and the key/value's
        // down projection, norm and up projection, the fused rotary embedding of each,
        // attention, output GEMM, bias-dropout-add and pre-MLP norm, 13 where standard attention
        // issues 8. The group-limited router: 72 kernels, NVIDIA's count for DeepSeek-V3's
        // router (Megatron-LM deepseek-v3-gb200-optimization.md, section 2.1.4), where the
        // softmax top-k router issues 28. The shared expert: fc1, activation, fc2 and the sum
        // with the routed experts' output, 4. So 62 + 5 + 44 + 4 = 115 per forward pass and
        // 345 per block.
        Execution exe = moeLayout();
        gapstudio::test::relativeNear(hostSlope(exe, 1, deepSeekLikeApp()), 4 * 345 * 1e-3, 1e-9);
        // Fused (--moe-router-fusion), NVIDIA counts 31 router kernels: 115 - 41 = 74 per pass.
        exe.moeRouterFusion = true;
        gapstudio::test::relativeNear(hostSlope(exe, 1, deepSeekLikeApp()), 4 * 3 * 74 * 1e-3, 1e-9);
        // A full-rank query (DeepSeek-V2-Lite) has one projection instead of the down
        // projection, norm and up projection: 2 fewer.
        Application fullRankQuery = deepSeekLikeApp();
        fullRankQuery.qLoraRank = 0;
        gapstudio::test::relativeNear(hostSlope(exe, 1, fullRankQuery), 4 * 3 * 72 * 1e-3, 1e-9);
    }

    void lowPrecisionExpertsQuantiseOnTheHost()
    {
        // FP8 (MXFP8) experts: each expert's two GEMM inputs and two weights are quantised apart
        // (6 operators per expert with its 2 GEMMs, instead of 2) and the GEMM calls swizzle
        // their scales (4 fixed): 62 - 2 + 6 + 4 = 70 per forward pass.
        Execution exe = moeLayout();
        exe.datatype = Datatype::Float8;
        gapstudio::test::relativeNear(hostSlope(exe), 4 * 3 * 70 * 1e-3, 1e-9);
    }

    void theDispatchersWaitPutsTheForwardPassAtLaunchPace()
    {
        // Inference (one forward pass). The dropless all-to-all dispatcher makes the host wait
        // for the GPU in every layer, so the host never gets ahead and the pass takes the GPU's
        // time plus its 62 operators' host time: the wait grows by 4 blocks x 62 operators per
        // second of host time, though at 6 to 12 us per operator the GPU's time for the pass
        // (the all-to-alls of 8 MB over 100 GB/s) could hide part of it.
        Execution exe = moeLayout();
        exe.training = false;
        const Evaluation a = hosted(exe, 6e-6);
        const Evaluation b = hosted(exe, 12e-6);
        QVERIFY(a.ok && b.ok);
        gapstudio::test::relativeNear(a.stats.moe_host_wait_time, 4 * 62 * 6e-6, 1e-9);
        gapstudio::test::relativeNear(b.stats.moe_host_wait_time - a.stats.moe_host_wait_time, 4 * 62 * 6e-6,
                                      1e-9);
        // The flex dispatcher does not make the host wait: the host runs ahead and the GPU's time
        // hides part of its operators' time, so the wait is smaller.
        exe.moeDispatcher = MoeDispatcher::Flex;
        QVERIFY(hosted(exe, 6e-6).stats.moe_host_wait_time < a.stats.moe_host_wait_time);
    }

    void theWaitPutsEveryPassAtLaunchPace()
    {
        // Training with the dropless all-to-all dispatcher: the host waits for the GPU in every
        // layer, so neither pass gets ahead and each adds its operators' host time to the GPU's,
        // even where the GPU's time for the pass could hide it (1 to 2 us per operator): the
        // wait is 4 blocks x (62 forward + 124 backward operators) per us of host time.
        const Execution exe = moeLayout();
        const Evaluation gpu = hosted(exe, 2e-6, 0); // no host costed: the GPU's own times
        const Evaluation a = hosted(exe, 1e-6);
        const Evaluation b = hosted(exe, 2e-6);
        QVERIFY(gpu.ok && a.ok && b.ok);
        QVERIFY2(gpu.stats.block_agrad_time + gpu.stats.block_wgrad_time > 2 * 62 * 2e-6,
                 "the layout's backward pass is too short for the test");
        gapstudio::test::relativeNear(a.stats.moe_host_wait_time, 4 * 186 * 1e-6, 1e-9);
        gapstudio::test::relativeNear(b.stats.moe_host_wait_time - a.stats.moe_host_wait_time, 4 * 186 * 1e-6,
                                      1e-9);
    }

    void theStepTimeNamesTheWaitApartFromEachPass()
    {
        // The step-time chart draws the wait as a term of its own, taken out of the passes that
        // hold it: 4 blocks x 62 forward operators out of the forward compute, 4 x 124 backward
        // ones out of the backward compute, so that what the chart calls compute is the GPU's
        // own time (the same layout with no host costed) and the terms still sum to the step.
        Execution exe = moeLayout();
        const Evaluation gpu = hosted(exe, 1e-6, 0);
        const Evaluation a = hosted(exe, 1e-6);
        QVERIFY(gpu.ok && a.ok);
        gapstudio::test::relativeNear(a.stats.moe_host_wait_fw_time, 4 * 62 * 1e-6, 1e-9);
        gapstudio::test::relativeNear(a.stats.moe_host_wait_bw_time, 4 * 124 * 1e-6, 1e-9);
        QCOMPARE(a.stats.moe_host_wait_recompute_time, 0.0);
        const StepBreakdown step = analyze(hostedApp(), exe, hostedMachine(1e-6), a).step;
        gapstudio::test::relativeNear(term(step, "moe_host_ops"), 4 * 186 * 1e-6, 1e-9);
        gapstudio::test::relativeNear(term(step, "fw"), gpu.stats.fw_time, 1e-9);
        gapstudio::test::relativeNear(term(step, "bw"), gpu.stats.bw_time, 1e-9);
        double sum = 0;
        for (const TimeComponent &c : step.exposed)
            sum += c.seconds;
        gapstudio::test::relativeNear(sum, a.stats.total_time, 1e-12);

        // With full recompute the recomputed forward waits too, out of the recompute term.
        exe.activationRecompute = Recompute::Full;
        const Evaluation gpuRe = hosted(exe, 1e-6, 0);
        const Evaluation re = hosted(exe, 1e-6);
        QVERIFY(gpuRe.ok && re.ok);
        gapstudio::test::relativeNear(re.stats.moe_host_wait_recompute_time, 4 * 62 * 1e-6, 1e-9);
        const StepBreakdown reStep = analyze(hostedApp(), exe, hostedMachine(1e-6), re).step;
        gapstudio::test::relativeNear(term(reStep, "recompute"), gpuRe.stats.recompute_time, 1e-9);
    }

    void aSyncFreeDispatcherHidesTheHostBehindTheGpu()
    {
        // The flex dispatcher never makes the host wait: its 62 operators per forward pass and
        // 124 per backward pass take less host time (2 us each) than the GPU's time for either
        // pass, so the host runs ahead and the step is the GPU's.
        Execution exe = moeLayout();
        exe.moeDispatcher = MoeDispatcher::Flex;
        const Evaluation gpu = hosted(exe, 2e-6, 0);
        const Evaluation b = hosted(exe, 2e-6);
        QVERIFY(gpu.ok && b.ok);
        QVERIFY2(gpu.stats.block_fw_time > 62 * 2e-6
                     && gpu.stats.block_agrad_time + gpu.stats.block_wgrad_time > 2 * 62 * 2e-6,
                 "the layout's passes are too short for the test");
        QCOMPARE(b.stats.moe_host_wait_time, 0.0);
        QCOMPARE(b.stats.total_time, gpu.stats.total_time);
    }

    void deepEpsDispatchWaitsAfterFewerOperators()
    {
        // The flex dispatcher with DeepEP's normal kernels: before its host wait the top-k of the
        // routing probabilities, the dispatch layout and the notify kernel, 3 where the
        // all-to-all dispatcher's preprocessing and permutation issue 11; after it the dispatch
        // kernel, the counts' tensor, the multi-hot routing map, the permutation by local expert
        // (4), the weighted SwiGLU (3), unpermuting, the combine kernel and the grouped GEMMs'
        // bookkeeping (2), 14 where the all-to-all dispatcher issues 12. With the attention half
        // 8, the router 28, one local expert's 2 and the residual add: 39 before the wait and 17
        // after it, 56 per forward pass and 168 per block.
        Execution exe = moeLayout();
        exe.moeDispatcher = MoeDispatcher::FlexDeepEp;
        gapstudio::test::relativeNear(hostSlope(exe), 4 * 168 * 1e-3, 1e-9);
        // The wait puts the forward pass at launch pace, as the all-to-all dispatcher's does: in
        // inference at 6 to 12 us per operator all 56 add to the GPU's time.
        exe.training = false;
        const Evaluation a = hosted(exe, 6e-6);
        const Evaluation b = hosted(exe, 12e-6);
        QVERIFY(a.ok && b.ok);
        gapstudio::test::relativeNear(b.stats.moe_host_wait_time - a.stats.moe_host_wait_time, 4 * 56 * 6e-6,
                                      1e-9);
        // HybridEP (plain "flex") does not wait.
        QVERIFY(moeDispatcherSyncsHost(exe));
        exe.moeDispatcher = MoeDispatcher::Flex;
        QVERIFY(!moeDispatcherSyncsHost(exe));
    }

    void aGpuWithoutItsHostUsesTheDocumentedDefault()
    {
        // A GPU preset that states no host is costed at kDefaultHostOpTime_s (13.48 us, a DGX
        // H100's Xeon, NVIDIA/TransformerEngine issue 2053).
        const Execution exe = moeLayout();
        const Evaluation unknown = hosted(exe, 0);
        const Evaluation stated = hosted(exe, 13.48e-6);
        QVERIFY(unknown.ok && stated.ok);
        QVERIFY(stated.stats.moe_host_wait_time > 0);
        QCOMPARE(unknown.stats.total_time, stated.stats.total_time);
    }
};

QTEST_GUILESS_MAIN(TestHostOps)
#include "tst_host_ops.moc"
