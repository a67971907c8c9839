// model::analyze (what the charts plot) against values computed by hand for a small made-up
// evaluation: every loss of the efficiency gap, the traffic of each tier, the memory split. The
// statistics are chosen, not computed by evaluate(), so each expected number below follows from
// analysis.h's definitions alone (a sum to 100 % would hold whatever the memory loss: the last
// loss is the remainder; these values do not).
#include "gapstudio/model/analysis.h"

#include <QTest>

using namespace gapstudio;

namespace {

/// 8 blocks on pp = 2 stages (L_p = 4 blocks per processor) with interleaving v = 2 (c = 2 blocks
/// per chunk: 1 base block + 1 edge block); batch 16 over dp = 2 with microbatches of 2: M = 4.
/// TP on tier 0, PP and DP on tier 1; seq_size 1000.
struct Case {
    model::Application app;
    model::Execution exe;
    model::System sys;
    model::Evaluation evaluation;

    Case()
    {
        app.hidden = 1024;
        app.feedforward = 4096;
        app.seqSize = 1000;
        app.attnHeads = 16;
        app.attnSize = 64;
        app.numBlocks = 8;
        exe.numProcs = 8;
        exe.tensorPar = 2;
        exe.pipelinePar = 2;
        exe.dataPar = 2;
        exe.batchSize = 16;
        exe.microbatchSize = 2;
        exe.pipelineInterleaving = 2;
        exe.optimizerSharding = true;
        exe.tensorParNet = 0;
        exe.pipelineParNet = 1;
        exe.dataParNet = 1;
        sys.mem1.bandwidth_Bps = 2e12;
        sys.mem1.capacity_B = 80e9;
        sys.mem2.capacity_B = 500e9;
        sys.processingMode = model::ProcessingMode::NoOverlap;
        model::NetworkTier up, out;
        up.bandwidth_Bps = 100e9;
        out.bandwidth_Bps = 25e9;
        sys.networks = { up, out };

        model::Stats &o = evaluation.stats;
        evaluation.ok = true;
        o.total_time = 10;
        o.total_efficiency = 0.4;
        o.sample_rate = 1.6;
        o.fw_time = 3;
        o.bw_time = 4;
        o.block_fw_mem_time = 0.01;
        o.block_agrad_mem_time = 0.02;
        o.block_wgrad_mem_time = 0.005;
        o.block_optim_mem_time = 0.01;
        o.block_fw_mem_accessed = 1e10;
        o.block_agrad_mem_accessed = 2e10;
        o.block_wgrad_mem_accessed = 5e9;
        o.block_optim_mem_accessed = 1e9;
        o.optim_step_time = 0.2;
        o.recompute_time = 0.5;
        o.bubble_time = 1.0;
        o.tp_comm_exposed_time = 0.3;
        o.tp_comm_link_time = 1.5;
        o.tp_recomm_link_time = 0.5;
        o.pp_comm_exposed_time = 0.1;
        o.pp_comm_link_time = 0.3;
        o.dp_comm_exposed_time = 0.4;
        o.dp_comm_link_time = 2.0;
        o.recomm_exposed_time = 0.05;
        o.recomm_link_time = 0.2;
        o.fw_offload_exposed_time = 0.02;
        o.bw_offload_exposed_time = 0.03;
        o.baseblock_fw_tp_size = 1e8;
        o.baseblock_bw_tp_size = 1e8;
        o.baseblock_recomm_size = 5e7;
        o.edgeblock_fw_tp_size = 2e8;
        o.edgeblock_bw_tp_size = 2e8;
        o.edgeblock_recomm_size = 1e8;
        o.tp_bw_overlap_req = 4e10;
        o.block_fw_pp_size = 1e6;
        o.block_bw_pp_size = 1e6;
        o.block_dp_size = 1e9;
        o.dp_bw_overlap_req_chunk = 3e9;
        o.dp_bw_overlap_req_tail = 5e9;
        o.weight_space = 11e9;
        o.act_space = 22e9;
        o.act_checkpoint_size = 3e9;
        o.weight_grad_space = 4e9;
        o.optimizer_space = 12e9;
        o.act_grad_space = 1e9;
        o.weight_space_with_offload = 1e9;
        o.weight_grad_space_with_offload = 2e9;
        o.optimizer_space_with_offload = 6e9;
        o.block_weight_grad_space = 0.5e9;
    }
};

double loss(const model::Analysis &a, const std::string &key)
{
    for (const model::TimeComponent &l : a.gap.losses)
        if (l.key == key)
            return l.seconds;
    qFatal("no loss %s", key.c_str());
}

double component(const std::vector<model::TimeComponent> &list, const std::string &key)
{
    for (const model::TimeComponent &c : list)
        if (c.key == key)
            return c.seconds;
    qFatal("no component %s", key.c_str());
}

bool near(double a, double b)
{
    return std::fabs(a - b) <= 1e-12 * std::max(1.0, std::fabs(b));
}

} // namespace

class tst_Analysis : public QObject {
    Q_OBJECT

private slots:
    void efficiencyGapByHand()
    {
        const Case c;
        const model::Analysis a = model::analyze(c.app, c.exe, c.sys, c.evaluation);
        QCOMPARE(a.gap.mfu, 0.4);
        // Memory-bound time: L_p * M = 4 * 4 = 16 block steps of (0.01 + 0.02 + 0.005) s = 0.56 s
        // of the 10 s step (no_overlap processing: compute and memory add up).
        QVERIFY(near(loss(a, "memory"), 0.056));
        QVERIFY(near(loss(a, "optimizer"), 0.02));  // 0.2 / 10
        QVERIFY(near(loss(a, "recompute"), 0.05));  // 0.5 / 10
        QVERIFY(near(loss(a, "bubble"), 0.1));      // 1.0 / 10
        QVERIFY(near(loss(a, "tp_exposed"), 0.03)); // 0.3 / 10
        QVERIFY(near(loss(a, "pp_exposed"), 0.01)); // 0.1 / 10
        QVERIFY(near(loss(a, "dp_exposed"), 0.04)); // 0.4 / 10
        QVERIFY(near(loss(a, "ep_exposed"), 0.0));
        QVERIFY(near(loss(a, "es_exposed"), 0.0));
        QVERIFY(near(loss(a, "recomm_exposed"), 0.005)); // 0.05 / 10
        QVERIFY(near(loss(a, "offload"), 0.005));        // (0.02 + 0.03) / 10
        // Kernel inefficiency is what remains of 1 - MFU = 0.6: 0.6 - 0.316 = 0.284.
        QVERIFY(near(loss(a, "kernel"), 0.284));
    }

    void rooflineHasNoMemoryLoss()
    {
        Case c;
        c.sys.processingMode = model::ProcessingMode::Roofline; // memory hides behind compute
        const model::Analysis a = model::analyze(c.app, c.exe, c.sys, c.evaluation);
        QCOMPARE(loss(a, "memory"), 0.0);
        QVERIFY(near(loss(a, "kernel"), 0.34)); // 0.6 - 0.26
    }

    void stepBreakdownByHand()
    {
        const Case c;
        const model::Analysis a = model::analyze(c.app, c.exe, c.sys, c.evaluation);
        QCOMPARE(component(a.step.exposed, "fw"), 3.0);
        QCOMPARE(component(a.step.exposed, "bw"), 4.0);
        QVERIFY(near(component(a.step.exposed, "offload"), 0.05));
        QVERIFY(near(component(a.step.hidden, "tp_hidden"), 1.2));      // link 1.5 - exposed 0.3
        QVERIFY(near(component(a.step.hidden, "dp_hidden"), 1.6));      // 2.0 - 0.4
        QVERIFY(near(component(a.step.hidden, "recomm_hidden"), 0.15)); // 0.2 - 0.05
        QCOMPARE(a.step.total_s, 10.0);
        QVERIFY(near(a.tokensPerSecond, 1600)); // 1.6 samples/s * 1000 tokens
    }

    void tierTrafficByHand()
    {
        const Case c;
        const model::Analysis a = model::analyze(c.app, c.exe, c.sys, c.evaluation);
        QCOMPARE(a.tiers.size(), std::size_t { 3 }); // two network tiers and HBM
        // Tier 0 carries TP: M * v = 8 microbatch-chunks of (1 base block * (1e8 + 1e8 + 5e7) +
        // the edge block's 2e8 + 2e8 + 1e8) bytes = 8 * 7.5e8 = 6e9 bytes, in 1.5 + 0.5 s.
        const model::TierUsage &t0 = a.tiers[0];
        QCOMPARE(t0.label, std::string("Network tier 0 (TP)"));
        QVERIFY(near(t0.bytesPerStep, 6e9));
        QVERIFY(near(t0.busySeconds, 2.0));
        QVERIFY(near(t0.achieved_Bps, 3e9));
        QVERIFY(near(t0.busyFraction, 0.2));
        QCOMPARE(t0.peak_Bps, 100e9);
        QCOMPARE(t0.requiredToHide_Bps, 4e10);
        // Tier 1 carries PP (M * v * (1e6 + 1e6) = 1.6e7 bytes, 0.3 s) and DP with optimizer
        // sharding (a reduce-scatter and an all-gather: L_p * 1e9 * 2 = 8e9 bytes, 2.0 s).
        const model::TierUsage &t1 = a.tiers[1];
        QCOMPARE(t1.label, std::string("Network tier 1 (PP, DP)"));
        QVERIFY(near(t1.bytesPerStep, 8.016e9));
        QVERIFY(near(t1.busySeconds, 2.3));
        QVERIFY(near(t1.achieved_Bps, 8.016e9 / 2.3));
        QCOMPARE(t1.peak_Bps, 25e9);
        QCOMPARE(t1.requiredToHide_Bps, 5e9); // the larger of the chunk and tail requirements
        // HBM: 16 block steps of 1e10 + 2e10 + 5e9 bytes plus L_p = 4 optimizer steps of 1e9.
        const model::TierUsage &hbm = a.tiers[2];
        QCOMPARE(hbm.label, std::string("HBM"));
        QVERIFY(near(hbm.bytesPerStep, 5.64e11));
        QVERIFY(near(hbm.busySeconds, 0.6)); // 16 * 0.035 + 4 * 0.01
        QCOMPARE(hbm.peak_Bps, 2e12);
    }

    void dpTrafficWithoutShardingIsOneAllReduce()
    {
        Case c;
        c.exe.optimizerSharding = false;
        const model::Analysis a = model::analyze(c.app, c.exe, c.sys, c.evaluation);
        QVERIFY(near(a.tiers[1].bytesPerStep, 4.016e9)); // 4 * 1e9 + 1.6e7
    }

    void memoryByHand()
    {
        Case c;
        model::Analysis a = model::analyze(c.app, c.exe, c.sys, c.evaluation);
        QVERIFY(near(component(a.memory.tier1, "weights"), 11e9));
        QVERIFY(near(component(a.memory.tier1, "activations"), 22e9));
        QVERIFY(near(component(a.memory.tier1, "checkpoints"), 3e9));
        QVERIFY(near(component(a.memory.tier1, "weight_grads"), 4e9));
        QVERIFY(near(component(a.memory.tier1, "optimizer"), 12e9));
        QVERIFY(near(component(a.memory.tier1, "activation_grads"), 1e9));
        QVERIFY(near(a.memory.tier1Need_B, 53e9));
        QCOMPARE(a.memory.tier1Capacity_B, 80e9);
        QCOMPARE(a.memory.tier2Need_B, 0.0);
        // Offloading weights and the optimizer: HBM keeps the double buffers, tier 2 the rest.
        c.exe.weightOffload = c.exe.optimizerOffload = true;
        a = model::analyze(c.app, c.exe, c.sys, c.evaluation);
        QVERIFY(near(component(a.memory.tier1, "weights"), 1e9));
        QVERIFY(near(component(a.memory.tier1, "weight_grads"), 2e9));
        QVERIFY(near(component(a.memory.tier1, "optimizer"), 6e9));
        // Tier 2: weights 11e9, gradients L_p * 0.5e9 = 2e9, optimizer 12e9.
        QVERIFY(near(a.memory.tier2Need_B, 25e9));
        QCOMPARE(a.memory.tier2Capacity_B, 500e9);
        QCOMPARE(a.tiers.size(), std::size_t { 4 }); // the offload tier appears
    }
};

QTEST_GUILESS_MAIN(tst_Analysis)
#include "tst_analysis.moc"
