// Memory per processor, offload bandwidths and efficiencies of the reference model
// (Calculon caa4b11 `Llm._compute_batch_stats` memory part and the `get_*` accessors;
// calculon-model.md §6, §7, §8.1).
#include "engine/run.h"

#include <algorithm>
#include <limits>

namespace gapstudio::model::detail {

namespace {

bool fullRecompute(const Run &run) noexcept
{
    return run.exe.activationRecompute == Recompute::Full;
}

/// Stored activations per block, or the checkpoint with full recompute: what offloading moves.
double storedActivationBytes(const Run &run, const Stats &o) noexcept
{
    return fullRecompute(run) ? o.block_act_checkpoint_size : o.block_act_storage_space;
}

/// Microbatches in flight on the first stage with (interleaved) 1F1B (§7):
/// f = min(M, pp) * (1 + (pp-1)/(v*pp)) with interleaving, else min(M, pp).
double inFlightFactor(const Run &run) noexcept
{
    const Execution &exe = run.exe;
    const double microbatches = dbl(std::min(run.layout.microbatches, exe.pipelinePar));
    if (exe.pipelineInterleaving > 1)
        return microbatches * (1 + dbl(exe.pipelinePar - 1) / dbl(exe.pipelineInterleaving * exe.pipelinePar));
    return microbatches;
}

/// Corrected model: weights and gradients as Megatron-LM keeps them in mixed precision
/// (docs/distrib_optimizer.md of Megatron-LM: 16-bit parameters and FP32 main gradients for
/// every parameter, FP32 master weights and Adam moments sharded by the distributed
/// optimizer), plus Transformer Engine's low-precision weight copy when GEMMs run in FP8/FP4.
/// With parameter sharding (ZeRO-3 / FSDP) parameters and gradients are sharded as well, two
/// blocks' worth being gathered at a time.
void recipeWeightMemory(const Run &run, Stats &o, double blocks) noexcept
{
    const LayerContext &c = run.ctx;
    const double params = o.block_weight_space / c.bytesPerElement * blocks;
    const double lowCopy = c.matrixLow ? c.lowBytesPerElement : 0;
    double weights = params * (c.bytesPerElement + lowCopy);
    double grads = params * 4;
    if (run.exe.parameterSharding && run.exe.dataPar > 1) {
        const double dp = dbl(run.exe.dataPar);
        const double gathered = std::min(blocks, 2.0) / blocks;
        weights = weights / dp + weights * gathered;
        grads = grads / dp + grads * gathered;
    }
    o.weight_space = weights;
    o.weight_grad_space = grads;
}

void memoryPerProcessor(const Run &run, Stats &o) noexcept
{
    const Execution &exe = run.exe;
    const double blocks = dbl(run.layout.blocksPerProc);
    o.weight_space = o.block_weight_space * blocks;
    o.total_weights_space = o.weight_space * dbl(exe.tensorPar); // calculon-MoE Q12: meaningless for MoE
    if (exe.training) {
        if (fullRecompute(run)) {
            // One block's working activations; checkpoints of every block and in-flight microbatch.
            o.act_space = o.block_act_working_space;
            o.act_checkpoint_size = blocks * o.block_act_checkpoint_size * inFlightFactor(run);
        } else if (run.quirks.activationMemoryWithoutInFlight) {
            // Q4 (calculon-MoE): no in-flight microbatches; with pp = 1 a single block's.
            o.act_space = exe.pipelinePar > 1 ? o.block_act_working_space + o.block_act_storage_space * (blocks - 1)
                                              : o.block_act_working_space + o.block_act_storage_space;
        } else {
            o.act_space = o.block_act_working_space + o.block_act_storage_space * (blocks * inFlightFactor(run) - 1);
        }
        o.act_grad_space = o.block_act_grad_space; // one block's activation gradients
        // One fp32 unsharded gradient copy for the current block, sharded copies for the rest.
        o.weight_grad_space = run.layout.blocksPerProc == 1
                                  ? o.block_weight_grad_space_no_sharding
                                  : o.block_weight_grad_space_no_sharding + o.block_weight_grad_space * (blocks - 1);
        o.optimizer_space = o.block_optimizer_space * blocks;
        if (run.ctx.recipe)
            recipeWeightMemory(run, o, blocks);
    } else {
        o.act_space = o.block_act_working_space;
    }

    // Tier-1 minimums when offloading (the `*_with_offload` outputs): double buffers of one block.
    o.weight_space_with_offload = o.block_weight_space * 2;
    o.act_space_with_offload = fullRecompute(run) ? o.block_act_working_space
                                                  : o.block_act_working_space + o.block_act_storage_space;
    // The reference returns None (JSON null) here for inference.
    o.act_checkpoint_size_with_offload = !exe.training ? std::numeric_limits<double>::quiet_NaN()
                                         : fullRecompute(run) ? o.block_act_checkpoint_size * 2
                                                              : 0;
    o.act_grad_space_with_offload = o.act_grad_space;
    if (exe.training) {
        o.weight_grad_space_with_offload = o.block_weight_grad_space_no_sharding + o.block_weight_grad_space;
        o.optimizer_space_with_offload = o.block_optimizer_space * 2;
    }
}

void offloadBandwidths(const Run &run, Stats &o) noexcept
{
    // §6: the transfer for block i+1 / i-1 must fit in the block's time minus its memory accesses.
    const double fwWindow = std::min(run.baseFwTimeNoOffload - o.block_fw_mem_time,
                                     run.edgeFwTimeNoOffload - o.block_fw_mem_time);
    const double bwMem = o.block_agrad_mem_time + o.block_wgrad_mem_time;
    const double bwWindow = std::min(run.baseBwTimeNoOffload - bwMem, run.edgeBwTimeNoOffload - bwMem);
    o.act_offload_bw_req = storedActivationBytes(run, o) / fwWindow;
    o.weight_offload_bw_req = o.block_weight_space / fwWindow;
    if (run.exe.training) {
        o.optim_offload_bw_req = (o.block_weight_grad_space + o.block_optimizer_space) / bwWindow;
        o.offload_mem_bw_req = std::max(fwOffloadBytes(run, o) / fwWindow, bwOffloadBytes(run, o) / bwWindow);
    } else {
        o.offload_mem_bw_req = fwOffloadBytes(run, o) / fwWindow;
    }
}

/// One microbatch through one block, recompute excluded (§8.1): all its flops, and the
/// optimizer's share of them.
struct UsefulFlops {
    double total = 0, optimizer = 0;
};

UsefulFlops usefulFlops(const Run &run, const Block &block) noexcept
{
    const LayerContext &c = run.ctx;
    double fw = 0;
    double backward = 0; // agrad + wgrad + optimizer, summed per layer as the reference does
    double optim = 0;
    for (const Layer &l : block) {
        fw += stageFlops(l, c, Stage::Fw);
        if (run.exe.training) {
            const double layerOptim = stageFlops(l, c, Stage::Optim);
            backward += stageFlops(l, c, Stage::Agrad) + stageFlops(l, c, Stage::Wgrad) + layerOptim;
            optim += layerOptim;
        }
    }
    return { fw + backward, optim };
}

double idealOf(const Run &run, const UsefulFlops &useful) noexcept
{
    const LayerContext &c = run.ctx;
    const double perStep = dbl(run.layout.blocksPerProc * run.layout.microbatches);
    // The datatype's peak (under the precision recipe, the low-precision GEMM engine's).
    const double peak = c.matrixLow ? c.matrixLow->peak_flops : c.matrix->peak_flops;
    // QUIRK (usefulFlopsOptimizerPerMicrobatch): the per-step optimizer flops are counted once
    // per microbatch in the ideal time.
    return run.stages.active ? run.stages.idealSeconds
           : run.quirks.usefulFlopsOptimizerPerMicrobatch
               ? perStep * useful.total / peak
               : (perStep * (useful.total - useful.optimizer)
                  + dbl(run.layout.blocksPerProc) * useful.optimizer)
                     / peak;
}

void efficiencies(const Run &run, const Block &block, Stats &o) noexcept
{
    const UsefulFlops useful = usefulFlops(run, block);
    o.useful_flops = useful.total;
    const double ideal = idealOf(run, useful);
    const double computeTime = o.fw_time + o.bw_time + o.optim_step_time;
    o.compute_efficiency = ideal / computeTime;
    o.system_efficiency = computeTime / o.total_time;
    o.total_efficiency = ideal / o.total_time;
    o.sample_rate = dbl(run.exe.batchSize) / o.total_time;
}

} // namespace

double fwOffloadBytes(const Run &run, const Stats &o) noexcept
{
    const double weights = run.exe.weightOffload ? o.block_weight_space : 0;
    const double activations = run.exe.activationsOffload ? storedActivationBytes(run, o) : 0;
    return std::max(weights, activations);
}

double bwOffloadBytes(const Run &run, const Stats &o) noexcept
{
    const Execution &exe = run.exe;
    double bytes = 0;
    if (exe.training) {
        if (exe.weightOffload)
            bytes += o.block_weight_space;
        if (exe.activationsOffload)
            bytes += storedActivationBytes(run, o);
        if (exe.optimizerOffload)
            bytes += o.block_optimizer_space;
    }
    return bytes;
}

CapacityNeeds capacityNeeds(const Execution &exe, double blocksPerProc, const Stats &o) noexcept
{
    // §7: what stays in HBM (tier 1) and what moves to offload memory (tier 2). The reference
    // sums the same terms in this order.
    const bool full = exe.activationRecompute == Recompute::Full;
    CapacityNeeds need;
    if (exe.weightOffload)
        need.weights = {o.weight_space_with_offload, o.weight_space};
    else
        need.weights.tier1 = o.weight_space;
    if (exe.activationsOffload) {
        need.activations.tier1 = o.act_space_with_offload;
        if (full)
            need.checkpoints = {o.act_checkpoint_size_with_offload, o.act_checkpoint_size};
        else
            need.activations.tier2 = o.act_space;
    } else {
        need.activations.tier1 = o.act_space;
        need.checkpoints.tier1 = o.act_checkpoint_size;
    }
    if (exe.optimizerOffload) {
        need.weightGrads = {o.weight_grad_space_with_offload, o.block_weight_grad_space * blocksPerProc};
        need.optimizer = {o.optimizer_space_with_offload, o.optimizer_space};
    } else {
        need.weightGrads.tier1 = o.weight_grad_space;
        need.optimizer.tier1 = o.optimizer_space;
    }
    need.activationGrads.tier1 = o.act_grad_space;
    return need;
}

double idealStepTime(const Run &run, const Block &block) noexcept
{
    return idealOf(run, usefulFlops(run, block));
}

void computeMemoryAndEfficiency(Run &run, const Block &block, Stats &o) noexcept
{
    memoryPerProcessor(run, o);
    offloadBandwidths(run, o);
    const CapacityNeeds need = capacityNeeds(run.exe, dbl(run.layout.blocksPerProc), o);
    o.proc_mem_tier1_cap_req = run.stages.active ? stageTier1Bytes(run, o, need) : need.tier1();
    o.proc_mem_tier2_cap_req = need.tier2();
    efficiencies(run, block, o);
}

} // namespace gapstudio::model::detail
