// The corrected model's pipeline stages: the reference times processor 0 with ceil(L / pp)
// identical blocks. Real stages differ: the first holds the input embedding, the last the final
// norm, LM head and loss (Megatron-LM places them so), MoE models may have dense blocks (the
// leading ones, or every other one), and frameworks let the first and last stage hold fewer
// blocks (Megatron-LM --decoder-first/last-pipeline-num-layers) to balance them.
//
// With x_i the extra time per microbatch of stage i over processor 0's reference stage, a 1F1B
// pipeline runs at the pace of its slowest stage: the steady state costs M * max(x_i) more and
// the fill and drain pass once through every other stage's extra work, sum(x_i) - max(x_i)
// (Narayanan et al. 2021, section 2.2: the bubble is (p - 1) stage times; with interleaving
// each of the v chunks carries 1/v of a stage). Sources: docs/references.md.
#include "run.h"

#include "block_builder.h"
#include "network.h"

#include <algorithm>

namespace gapstudio::model::detail {

namespace {

/// Per-microbatch forward + backward time (exposed communication included) of a standalone
/// block of layers, and its statistics.
struct BlockTime {
    Stats stats;
    double seconds = 0;
    double usefulFlops = 0;
};

BlockTime timeBlock(const Block &block, const Run &run)
{
    BlockTime t;
    if (block.size == 0)
        return t;
    const BlockComm comm = computeBlockStats(block, run.ctx, run.exe, run.quirks, t.stats);
    const Stats &s = t.stats;
    t.seconds = s.block_fw_time + comm.fwExposed(0);
    if (run.exe.training)
        t.seconds += s.block_re_time + comm.recommExposed(0) + s.block_agrad_time + s.block_wgrad_time +
                     comm.bwExposed(0);
    t.usefulFlops = s.block_fw_flops + (run.exe.training ? s.block_agrad_flops + s.block_wgrad_flops : 0);
    return t;
}

/// Weights, gradients and optimizer state of a standalone block (embedding, LM head).
double staticBytes(const Run &run, const Stats &s)
{
    const double grads = run.ctx.recipe ? s.block_weight_space / run.ctx.bytesPerElement * 4 : s.block_weight_grad_space;
    return s.block_weight_space + (run.exe.training ? grads + s.block_optimizer_space : 0);
}

/// Blocks on stage `i`: the first and last stage may be set; the other stages share the rest
/// evenly, the earliest taking the remainder (as Megatron-LM splits layers).
std::int64_t stageBlocks(const Application &app, const Execution &exe, std::int64_t i)
{
    const std::int64_t pp = exe.pipelinePar;
    if (pp == 1)
        return app.numBlocks;
    const bool fixedFirst = exe.firstStageBlocks > 0;
    const bool fixedLast = exe.lastStageBlocks > 0;
    if (i == 0 && fixedFirst)
        return exe.firstStageBlocks;
    if (i == pp - 1 && fixedLast)
        return exe.lastStageBlocks;
    const std::int64_t free = pp - (fixedFirst ? 1 : 0) - (fixedLast ? 1 : 0);
    const std::int64_t rest =
        app.numBlocks - (fixedFirst ? exe.firstStageBlocks : 0) - (fixedLast ? exe.lastStageBlocks : 0);
    const std::int64_t j = i - (fixedFirst ? 1 : 0);
    return rest / free + (j < rest % free ? 1 : 0);
}

} // namespace

void applyStages(Run &run, Stats &o) noexcept
{
    const Application &app = run.app;
    const Execution &exe = run.exe;
    const Features &features = run.features;
    const double M = dbl(run.layout.microbatches);
    const double pp = dbl(exe.pipelinePar);
    const double v = dbl(exe.pipelineInterleaving);
    const double Lp = dbl(run.layout.blocksPerProc);

    const BlockTime embedding = timeBlock(buildEmbedding(app, exe, run.sys, features), run);
    const BlockTime head = timeBlock(buildHead(app, exe, run.sys, features), run);
    // Per microbatch, one block of processor 0 (forward and backward, exposed comm included).
    const double blockSeconds = run.baseFwTime + (exe.training ? run.baseBwTime : 0);
    const double blockUseful = o.block_fw_flops + (exe.training ? o.block_agrad_flops + o.block_wgrad_flops : 0);

    // Dense blocks of an MoE model differ from the MoE block by (dense - MoE) per block.
    double denseDelta = 0;
    double denseUsefulDelta = 0;
    const std::int64_t denseBlocks =
        features.moeDetails && exe.modelMoE ? std::min(app.denseBlocks, app.numBlocks) : 0;
    if (denseBlocks > 0) {
        Execution dense = exe;
        dense.modelMoE = false;
        const BlockTime t = timeBlock(buildBlock(app, dense, run.sys, run.quirks, features,
                                                 app.denseFeedforward > 0 ? app.denseFeedforward : app.feedforward),
                                      run);
        denseDelta = t.seconds - blockSeconds;
        denseUsefulDelta = t.usefulFlops - blockUseful;
    }

    // Extra time per microbatch of every stage over processor 0's reference stage of Lp blocks.
    const double denseShare = dbl(denseBlocks) / dbl(app.numBlocks);
    double xMax = 0;
    double headPart = 0;
    double stagesSum = 0;
    double before = 0; // blocks on the earlier stages
    for (std::int64_t i = 0; i < exe.pipelinePar; ++i) {
        const double blocks = dbl(stageBlocks(app, exe, i));
        const double dense = app.denseBlocksInterleaved ? blocks * denseShare
                                                        : std::clamp(dbl(denseBlocks) - before, 0.0, blocks);
        const double ends = (i == 0 ? embedding.seconds : 0) + (i == exe.pipelinePar - 1 ? head.seconds : 0);
        const double x = (blocks - Lp) * blockSeconds + dense * denseDelta + ends;
        if (i == 0 || x > xMax) {
            xMax = x;
            headPart = ends;
        }
        stagesSum += x;
        before += blocks;
        if (i == 0)
            run.stages.firstBlocks = blocks;
        if (i == exe.pipelinePar - 1)
            run.stages.lastBlocks = blocks;
    }
    o.embedding_head_time = M * headPart;
    o.stage_imbalance_time = M * (xMax - headPart) + (stagesSum - xMax) / v;

    // The embedding table's gradients are reduced after the whole backward pass of stage 0.
    double embeddingDp = 0;
    if (exe.training && exe.dataPar * (features.attention ? exe.contextPar : 1) > 1 &&
        embedding.stats.block_weight_space > 0) {
        const double params = embedding.stats.block_weight_space / run.ctx.bytesPerElement;
        const std::int64_t replicas = exe.dataPar * (features.attention ? exe.contextPar : 1);
        embeddingDp = networkTime(*run.dpNet, NetOp::AllReduce, params * 4, replicas);
        o.dp_comm_link_time += embeddingDp;
        o.dp_comm_exposed_time += embeddingDp;
    }
    o.total_time += o.embedding_head_time + o.stage_imbalance_time + embeddingDp;

    // Ideal time at peak: every processor's model work averaged over the pipeline.
    const double peak = run.ctx.matrixLow ? run.ctx.matrixLow->peak_flops : run.ctx.matrix->peak_flops;
    const double modelFlops = dbl(app.numBlocks) * blockUseful + dbl(denseBlocks) * denseUsefulDelta +
                              embedding.usefulFlops + head.usefulFlops;
    run.stages.active = true;
    run.stages.idealSeconds = M * modelFlops / pp / peak;
    run.stages.embeddingStatic_B = staticBytes(run, embedding.stats);
    run.stages.headStatic_B = staticBytes(run, head.stats);
    run.stages.headActivations_B = head.stats.block_act_storage_space + head.stats.block_act_working_space;
}

double stageTier1Bytes(const Run &run, const Stats &o, double firstStageNeed) noexcept
{
    const StageExtras &s = run.stages;
    const double Lp = dbl(run.layout.blocksPerProc);
    const double staticPerBlock = (o.weight_space + o.weight_grad_space + o.optimizer_space) / Lp;
    const bool full = run.exe.activationRecompute == Recompute::Full;
    const double actPerBlock = full ? o.block_act_checkpoint_size : o.block_act_storage_space;
    const double inFlight = dbl(std::min(run.layout.microbatches, run.exe.pipelinePar));
    const double first = firstStageNeed + (s.firstBlocks - Lp) * (staticPerBlock + actPerBlock * inFlight) +
                         s.embeddingStatic_B;
    if (run.exe.pipelinePar == 1)
        return first + s.headStatic_B + s.headActivations_B;
    // The last stage has one microbatch in flight (1F1B).
    const double last = s.lastBlocks * (staticPerBlock + actPerBlock) + o.block_act_working_space +
                        o.act_grad_space + s.headStatic_B + s.headActivations_B;
    return std::max(first, last);
}

} // namespace gapstudio::model::detail
