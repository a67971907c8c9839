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
// each of the v chunks carries 1/v of a stage). Multi-token prediction layers sit on the last
// stage (Megatron-Core places all of them there without a custom pipeline layout): each adds its
// own layers, one more block of the model's kind and a second pass of the LM head and loss.
// Sources: docs/references.md.
#include "engine/stages.h"

#include "engine/capacity.h"

#include "engine/block_builder.h"
#include "network/network.h"

#include <algorithm>

namespace gapstudio::model::detail {

namespace {

Parts partsOf(const Stats &s, const BlockComm &comm, bool training)
{
    Parts p;
    const auto exposed = [&](const GroupComm &g) { return g.fwExposed[0] + (training ? g.bwExposed[0] : 0); };
    p.fw = s.block_fw_time;
    p.tp = exposed(comm.tp);
    p.ep = exposed(comm.ep);
    p.es = exposed(comm.es);
    p.cp = exposed(comm.cp);
    p.software = s.block_software_overhead_time;
    p.moeSync = s.block_moe_sync_time;
    p.moeImbalance = s.block_moe_imbalance_time;
    p.moeHostWait = s.block_moe_host_wait_time;
    p.moeHostWaitFw = s.block_moe_host_wait_fw_time;
    p.moeHostWaitBw = s.block_moe_host_wait_bw_time;
    p.moeHostWaitRe = s.block_moe_host_wait_re_time;
    if (training) {
        p.bw = s.block_agrad_time + s.block_wgrad_time;
        p.recompute = s.block_re_time;
        p.recomm = comm.recommExposed(0);
    }
    return p;
}

BlockTime timeBlock(const Block &block, const Run &run)
{
    BlockTime t;
    if (block.size == 0)
        return t;
    const BlockComm comm = computeBlockStats(block, run.ctx, run.exe, run.quirks, t.stats);
    t.parts = partsOf(t.stats, comm, run.exe.training);
    const Stats &s = t.stats;
    t.usefulFlops = s.block_fw_flops + (run.exe.training ? s.block_agrad_flops + s.block_wgrad_flops : 0);
    return t;
}

/// Weights, gradients and optimizer state of a standalone block (embedding, LM head).
double staticBytes(const Run &run, const Stats &s)
{
    const double grads
        = run.ctx.recipe ? s.block_weight_space / run.ctx.bytesPerElement * 4 : s.block_weight_grad_space;
    return s.block_weight_space + (run.exe.training ? grads + s.block_optimizer_space : 0);
}

/// Weights, gradients and optimizer state of one transformer block.
struct BlockState {
    double weights = 0, grads = 0, optimizer = 0;
};

/// One transformer block's state as the per-processor memory counts it (memory_stats.cpp): with
/// the corrected recipe, 16-bit weights plus Transformer Engine's low-precision copy and FP32
/// main gradients, parameters and gradients sharded over DP under parameter sharding.
BlockState transformerState(const Run &run, const Stats &s)
{
    BlockState state { s.block_weight_space, s.block_weight_grad_space, s.block_optimizer_space };
    if (run.ctx.recipe) {
        const double params = s.block_weight_space / run.ctx.bytesPerElement;
        state.weights
            = params * (run.ctx.bytesPerElement + (run.ctx.matrixLow ? run.ctx.lowBytesPerElement : 0));
        state.grads = params * 4;
        if (run.exe.parameterSharding && run.exe.dataPar > 1) {
            state.weights /= dbl(run.exe.dataPar);
            state.grads /= dbl(run.exe.dataPar);
        }
    }
    if (!run.exe.training)
        state.grads = state.optimizer = 0;
    return state;
}

/// What a dense block of an MoE model (`dense`) holds beyond the MoE block (`moe`) the per-block
/// memory is counted with. Its FFN is replicated over data parallelism only, so its optimizer
/// state shards over DP, not expert DP (Megatron-Core's distributed optimizer, docs/references.md).
void recordDenseBlockMemory(Run &run, const Stats &dense, const Stats &moe)
{
    const BlockState denseState = transformerState(run, dense), moeState = transformerState(run, moe);
    run.stages.denseWeights_B = denseState.weights - moeState.weights;
    run.stages.denseGrads_B = denseState.grads - moeState.grads;
    run.stages.denseOptimizer_B = denseState.optimizer - moeState.optimizer;
    run.stages.denseActivations_B = dense.block_act_storage_space - moe.block_act_storage_space;
}

/// Blocks on stage `i`: the first and last stage may be set; the other stages share the rest
/// evenly, the earliest taking the remainder (as Megatron-LM splits layers).
std::int64_t blocksOnStage(const Application &app, const Execution &exe, std::int64_t i)
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
    const std::int64_t rest
        = app.numBlocks - (fixedFirst ? exe.firstStageBlocks : 0) - (fixedLast ? exe.lastStageBlocks : 0);
    const std::int64_t j = i - (fixedFirst ? 1 : 0);
    return rest / free + (j < rest % free ? 1 : 0);
}

/// The embedding (first stage), LM head and multi-token-prediction layers (last stage) of one
/// stage per microbatch: their time and the software stack's fixed costs within it.
struct StageEnds {
    double seconds = 0, software = 0, moeSync = 0, moeImbalance = 0, moeHostWait = 0;
};

StageEnds stageEnds(bool first, bool last, const BlockTime &embedding, const BlockTime &head,
                    const BlockTime &mtp, const Parts &block, double mtpLayers) noexcept
{
    StageEnds e;
    if (first) {
        e.seconds += embedding.seconds();
        e.software += embedding.parts.software;
    }
    if (last) {
        // Each MTP layer: its projection, one transformer block and the shared LM head again.
        e.seconds += head.seconds() + mtpLayers * (mtp.seconds() + block.sum() + head.seconds());
        e.software
            += head.parts.software + mtpLayers * (mtp.parts.software + block.software + head.parts.software);
        e.moeSync += mtpLayers * block.moeSync;
        e.moeImbalance += mtpLayers * block.moeImbalance;
        e.moeHostWait += mtpLayers * block.moeHostWait;
    }
    return e;
}

/// The dense blocks of an MoE model (they replace MoE blocks): their count, their time by
/// component and their useful flops over an MoE block's; without any, the MoE block's own.
struct DenseBlocks {
    std::int64_t count = 0;
    Parts parts;
    double usefulDelta = 0;
};

DenseBlocks denseBlocksOf(Run &run, const Stats &o, const Parts &block, double blockUseful,
                          const StageBlocks &blocks)
{
    DenseBlocks d;
    d.parts = block;
    d.count = blocks.denseCount;
    if (d.count > 0) {
        d.parts = blocks.dense.parts;
        d.usefulDelta = blocks.dense.usefulFlops - blockUseful;
        recordDenseBlockMemory(run, blocks.dense.stats, o);
    }
    return d;
}

/// The slowest (critical) pipeline stage: its extra time per microbatch over processor 0's
/// reference stage of Lp blocks, its blocks (and how many are dense) and its ends; and the sum of
/// every stage's extra time (for the fill and drain through the others).
struct CriticalStage {
    double extra = 0, blocks = 0, dense = 0, extraSum = 0;
    StageEnds ends;
};

CriticalStage criticalStage(Run &run, const Parts &block, const DenseBlocks &dense, const StageEnds &first,
                            const StageEnds &last, const StageEnds &both, double mtpLayers)
{
    const Application &app = run.app;
    const Execution &exe = run.exe;
    const double Lp = dbl(run.layout.blocksPerProc);
    const double denseDelta = dense.parts.sum() - block.sum();
    const double denseShare = dbl(dense.count) / dbl(app.numBlocks);
    CriticalStage c;
    c.blocks = Lp;
    double before = 0; // blocks on the earlier stages
    for (std::int64_t i = 0; i < exe.pipelinePar; ++i) {
        const double blocks = dbl(blocksOnStage(app, exe, i));
        const double denseHere = app.denseBlocksInterleaved
                                     ? blocks * denseShare
                                     : std::clamp(dbl(dense.count) - before, 0.0, blocks);
        const bool isFirst = i == 0, isLast = i == exe.pipelinePar - 1;
        const StageEnds ends = isFirst && isLast ? both : isFirst ? first : isLast ? last : StageEnds {};
        const double x = (blocks - Lp) * block.sum() + denseHere * denseDelta + ends.seconds;
        if (i == 0 || x > c.extra) {
            c.extra = x;
            c.blocks = blocks;
            c.dense = denseHere;
            c.ends = ends;
        }
        c.extraSum += x;
        before += blocks;
        if (isFirst) {
            run.stages.firstBlocks = blocks;
            run.stages.firstDense = denseHere;
        }
        if (isLast) {
            run.stages.lastBlocks = blocks + mtpLayers; // an MTP layer holds one block's state
            run.stages.lastDense = denseHere;
        }
    }
    return c;
}

/// The stages of one evaluation: processor 0's block by component, the dense blocks, the
/// embedding, head and MTP layers and the critical stage. Fills run.stages (block counts of the
/// first and last stage, the ideal time, the state of the embedding and head).
struct StagePlan {
    BlockTime embedding, head;
    Parts block;
    DenseBlocks dense;
    CriticalStage critical;
};

StagePlan planStages(Run &run, const Stats &o, const StageBlocks &blocks)
{
    const Application &app = run.app;
    const Execution &exe = run.exe;
    const Features &features = run.features;
    const double M = dbl(run.layout.microbatches);
    const double pp = dbl(exe.pipelinePar);

    StagePlan plan;
    plan.embedding = blocks.embedding;
    plan.head = blocks.head;
    const BlockTime &mtp = blocks.mtp;
    const double mtpLayers = features.embeddingAndHead && app.vocabSize > 0 ? dbl(app.mtpLayers) : 0;
    // Per microbatch, one block of processor 0 by component (its stage has Lp of them).
    plan.block = partsOf(o, run.comm, exe.training);
    const double blockUseful
        = o.block_fw_flops + (exe.training ? o.block_agrad_flops + o.block_wgrad_flops : 0);
    plan.dense = denseBlocksOf(run, o, plan.block, blockUseful, blocks);
    const BlockTime &embedding = plan.embedding, &head = plan.head;
    plan.critical = criticalStage(
        run, plan.block, plan.dense, stageEnds(true, false, embedding, head, mtp, plan.block, mtpLayers),
        stageEnds(false, true, embedding, head, mtp, plan.block, mtpLayers),
        stageEnds(true, true, embedding, head, mtp, plan.block, mtpLayers), mtpLayers);

    // Ideal time at peak: every processor's model work averaged over the pipeline.
    const double peak = run.ctx.matrixLow ? run.ctx.matrixLow->peak_flops : run.ctx.matrix->peak_flops;
    const double modelFlops = dbl(app.numBlocks) * blockUseful
                              + dbl(plan.dense.count) * plan.dense.usefulDelta + embedding.usefulFlops
                              + head.usefulFlops
                              + mtpLayers * (mtp.usefulFlops + blockUseful + head.usefulFlops);
    run.stages.active = true;
    run.stages.idealSeconds = M * modelFlops / pp / peak;
    run.stages.embeddingStatic_B = staticBytes(run, embedding.stats);
    run.stages.headStatic_B = staticBytes(run, head.stats) + mtpLayers * staticBytes(run, mtp.stats);
    run.stages.headActivations_B
        = (1 + mtpLayers) * (head.stats.block_act_storage_space + head.stats.block_act_working_space)
          + mtpLayers * mtp.stats.block_act_storage_space;
    return plan;
}

/// The fill and drain through the stages other than the critical one.
double imbalanceOf(const CriticalStage &critical, double v) noexcept
{
    return (critical.extraSum - critical.extra) / v;
}

} // namespace

StageBlocks stageBlocksOf(const Run &run)
{
    const Application &app = run.app;
    const Execution &exe = run.exe;
    const Features &features = run.features;
    StageBlocks blocks;
    blocks.embedding = timeBlock(buildEmbedding(app, exe, run.sys, features), run);
    blocks.head = timeBlock(buildHead(app, exe, run.sys, features), run);
    blocks.mtp = timeBlock(buildMtpLayer(app, exe, run.sys, features), run);
    blocks.denseCount = features.moeDetails && exe.modelMoE ? std::min(app.denseBlocks, app.numBlocks) : 0;
    if (blocks.denseCount > 0) {
        Execution denseExe = exe;
        denseExe.modelMoE = false;
        blocks.dense
            = timeBlock(buildBlock(app, denseExe, run.sys, run.quirks, features,
                                   app.denseFeedforward > 0 ? app.denseFeedforward : app.feedforward),
                        run);
    }
    return blocks;
}

double stageExtraTime(Run &run, const Stats &o, const StageBlocks &blocks) noexcept
{
    const CriticalStage critical = planStages(run, o, blocks).critical;
    return dbl(run.layout.microbatches) * critical.extra
           + imbalanceOf(critical, dbl(run.exe.pipelineInterleaving));
}

void applyStages(Run &run, Stats &o) noexcept
{
    const Execution &exe = run.exe;
    const Features &features = run.features;
    const double M = dbl(run.layout.microbatches);
    const double Lp = dbl(run.layout.blocksPerProc);
    const StagePlan plan = planStages(run, o, stageBlocksOf(run));
    const Parts &block = plan.block;
    const DenseBlocks &dense = plan.dense;
    const CriticalStage &critical = plan.critical;

    // The critical stage's own blocks (count and kind) in every component it is made of ...
    const auto adjust = [&](double &stat, double Parts::*part) {
        stat += M
                * ((critical.blocks - Lp) * (block.*part)
                   + critical.dense * (dense.parts.*part - block.*part));
    };
    adjust(o.fw_time, &Parts::fw);
    adjust(o.bw_time, &Parts::bw);
    adjust(o.recompute_time, &Parts::recompute);
    adjust(o.tp_comm_exposed_time, &Parts::tp);
    adjust(o.ep_comm_exposed_time, &Parts::ep);
    adjust(o.es_comm_exposed_time, &Parts::es);
    adjust(o.cp_comm_exposed_time, &Parts::cp);
    adjust(o.recomm_exposed_time, &Parts::recomm);
    adjust(o.software_overhead_time, &Parts::software);
    adjust(o.moe_sync_time, &Parts::moeSync);
    adjust(o.moe_imbalance_time, &Parts::moeImbalance);
    adjust(o.moe_host_wait_time, &Parts::moeHostWait);
    adjust(o.moe_host_wait_fw_time, &Parts::moeHostWaitFw);
    adjust(o.moe_host_wait_bw_time, &Parts::moeHostWaitBw);
    adjust(o.moe_host_wait_recompute_time, &Parts::moeHostWaitRe);
    o.software_overhead_time += M * critical.ends.software;
    o.moe_sync_time += M * critical.ends.moeSync;
    o.moe_imbalance_time += M * critical.ends.moeImbalance;
    o.moe_host_wait_time += M * critical.ends.moeHostWait;
    // ... its embedding or head work, and the fill and drain through the other stages.
    o.embedding_head_time = M * critical.ends.seconds;
    o.stage_imbalance_time = imbalanceOf(critical, dbl(exe.pipelineInterleaving));
    o.bubble_time += o.stage_imbalance_time;

    // The embedding table's gradients are reduced after the whole backward pass of stage 0.
    const BlockTime &embedding = plan.embedding;
    double embeddingDp = 0;
    const std::int64_t replicas = exe.dataPar * (features.attention ? exe.contextPar : 1);
    if (exe.training && replicas > 1 && embedding.stats.block_weight_space > 0) {
        embeddingDp
            = gradientReduction(run, *run.dpNet, embedding.stats.block_weight_space, replicas, exe.tensorPar);
        o.dp_comm_link_time += embeddingDp;
        o.dp_comm_exposed_time += embeddingDp;
    }
    // stageExtraTime() is this sum less embeddingDp (>= 0): the search's bound relies on it.
    o.total_time += M * critical.extra + o.stage_imbalance_time + embeddingDp;
}

double stageTier1Bytes(const Run &run, Stats &o, const CapacityNeeds &firstStage) noexcept
{
    // Processor 0's needs hold Lp blocks with min(M, pp) microbatches in flight (1F1B); the
    // first stage differs by its own block count and the embedding, the last stage holds its
    // blocks with one microbatch in flight and the LM head with its logits.
    const StageExtras &s = run.stages;
    const double Lp = dbl(run.layout.blocksPerProc);
    const double inFlight = dbl(std::min(run.layout.microbatches, run.exe.pipelinePar));
    const bool full = run.exe.activationRecompute == Recompute::Full;
    const double weights = firstStage.weights.tier1 / Lp;
    const double grads = firstStage.weightGrads.tier1 / Lp;
    const double optimizer = firstStage.optimizer.tier1 / Lp;
    const double activations = full ? 0 : o.block_act_storage_space;
    const double checkpoints = full ? o.block_act_checkpoint_size : 0;
    struct Need {
        double weights, grads, optimizer, activations, checkpoints, activationGrads, ends;
        [[nodiscard]] double sum() const
        {
            return weights + grads + optimizer + activations + checkpoints + activationGrads + ends;
        }
    };
    const double extra = s.firstBlocks - Lp;
    const bool single = run.exe.pipelinePar == 1;
    // Dense blocks of an MoE model hold their own state, not an MoE block's (and their own
    // activations, unless full recompute keeps only block inputs, the same for both kinds).
    const double denseActivations = full ? 0 : s.denseActivations_B;
    const Need first { firstStage.weights.tier1 + extra * weights + s.firstDense * s.denseWeights_B,
                       firstStage.weightGrads.tier1 + extra * grads + s.firstDense * s.denseGrads_B,
                       firstStage.optimizer.tier1 + extra * optimizer + s.firstDense * s.denseOptimizer_B,
                       firstStage.activations.tier1
                           + (extra * activations + s.firstDense * denseActivations) * inFlight,
                       firstStage.checkpoints.tier1 + extra * checkpoints * inFlight,
                       firstStage.activationGrads.tier1,
                       s.embeddingStatic_B + (single ? s.headStatic_B + s.headActivations_B : 0) };
    const Need last { s.lastBlocks * weights + s.lastDense * s.denseWeights_B,
                      s.lastBlocks * grads + s.lastDense * s.denseGrads_B,
                      s.lastBlocks * optimizer + s.lastDense * s.denseOptimizer_B,
                      o.block_act_working_space + s.lastBlocks * activations + s.lastDense * denseActivations,
                      s.lastBlocks * checkpoints,
                      firstStage.activationGrads.tier1,
                      s.headStatic_B + s.headActivations_B };
    const Need &fullest = single || first.sum() >= last.sum() ? first : last;
    o.stage_weight_space = fullest.weights;
    o.stage_weight_grad_space = fullest.grads;
    o.stage_optimizer_space = fullest.optimizer;
    o.stage_act_space = fullest.activations;
    o.stage_act_checkpoint_size = fullest.checkpoints;
    o.stage_act_grad_space = fullest.activationGrads;
    o.stage_embedding_head_space = fullest.ends;
    return fullest.sum() + firstStage.tier1()
           - (firstStage.weights.tier1 + firstStage.weightGrads.tier1 + firstStage.optimizer.tier1
              + firstStage.activations.tier1 + firstStage.checkpoints.tier1
              + firstStage.activationGrads.tier1);
}

} // namespace gapstudio::model::detail
