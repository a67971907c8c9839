// Step-level times of the reference model (Calculon caa4b11 `Llm._compute_batch_stats`;
// calculon-model.md §4.3 pipeline, §4.5 chunks and bubble, §4.6 data parallelism, §6 offload).
#include "engine/run.h"

#include "network/network.h"

#include <algorithm>
#include <cmath>

namespace gapstudio::model::detail {

namespace {

double offloadTime(const Run &run, double bytes) noexcept
{
    const MemoryTier &mem2 = run.sys.mem2;
    return bytes / (mem2.bandwidth_Bps * mem2.efficiency.lookup(bytes));
}

/// MoE (calculon-moe-model.md §5.6): the attention and router weights are reduced over DP on
/// the DP tier, the expert weights over expert DP on its tier; the two are one serial load.
void dataParallelBlock(Run &run, Stats &o) noexcept
{
    const Execution &exe = run.exe;
    // Weights are replicated over DP and, in the corrected model, over CP as well.
    const std::int64_t replicas = exe.dataPar * (run.features.attention ? exe.contextPar : 1);
    if (replicas > 1 && exe.training) {
        o.block_dp_size = exe.modelMoE ? o.block_weight_space - run.comm.expertWeightBytes : o.block_weight_space;
        run.blockDpTime = gradientReduction(run, *run.dpNet, o.block_dp_size, replicas, exe.tensorPar);
    }
    if (exe.modelMoE && exe.dataParExp > 1 && exe.training) {
        o.block_dp_exp_size = run.comm.expertWeightBytes;
        const double expTime =
            gradientReduction(run, *run.dpExpNet, o.block_dp_exp_size, exe.dataParExp, exe.expertSlice * exe.expertPar);
        o.dp_exp_comm_link_time = dbl(run.layout.blocksPerProc) * expTime;
        o.block_dp_size += o.block_dp_exp_size;
        run.blockDpTime += expTime;
    }
}

/// Link and exposed time of one group over every block of every chunk and microbatch.
void groupTotals(const GroupComm &g, double chunks, double base, double &link, double &exposed) noexcept
{
    link = chunks * (base * g.fwTime[0] + 1.0 * g.fwTime[1]) + chunks * (base * g.bwTime[0] + 1.0 * g.bwTime[1]);
    exposed = chunks * (base * g.fwExposed[0] + 1.0 * g.fwExposed[1]) +
              chunks * (base * g.bwExposed[0] + 1.0 * g.bwExposed[1]);
}

void recommTotals(const GroupComm &g, double chunks, double base, double &link, double &exposed) noexcept
{
    link = chunks * (base * g.recommTime[0] + 1.0 * g.recommTime[1]);
    exposed = chunks * (base * g.recommExposed[0] + 1.0 * g.recommExposed[1]);
}

double dpOpScalar(const Run &run) noexcept
{
    const NetworkTier &net = *run.dpNet;
    return run.exe.optimizerSharding ? net.reduceScatter.scalar + net.allGather.scalar : net.allReduce.scalar;
}

struct DpWindows {
    double baseOverlap = 0;  ///< per base block: backward time that can hide DP comm
    double edgeOverlap = 0;
    double blockCompute = 0; ///< per block: compute slowed by the comm's processor usage
};

/// §4.6, "window per block": the backward time minus memory accesses (which DP cannot overlap),
/// plus the optimizer step when it is not sharded, minus TP comm on a shared tier.
DpWindows dpWindows(const Run &run, const Stats &o) noexcept
{
    DpWindows w;
    const double memoryTime = o.block_agrad_mem_time + o.block_wgrad_mem_time + o.block_re_mem_time;
    w.baseOverlap = run.baseBwTime - memoryTime;
    w.edgeOverlap = run.edgeBwTime - memoryTime;
    // re_flops_time carries the recompute-stats QUIRK (§3.3), as in the reference.
    w.blockCompute = o.block_agrad_flops_time + o.block_wgrad_flops_time + o.block_re_flops_time;
    if (!run.exe.optimizerSharding) {
        w.baseOverlap += o.block_optim_time - o.block_optim_mem_time;
        w.edgeOverlap += o.block_optim_time - o.block_optim_mem_time;
        w.blockCompute += o.block_optim_flops_time;
    }
    if (run.dpNetIndex == run.tpNetIndex) {
        // DP cannot overlap TP traffic on the same tier.
        w.baseOverlap -= o.baseblock_recomm_time + o.baseblock_agrad_tp_time;
        w.edgeOverlap -= o.edgeblock_recomm_time + o.edgeblock_agrad_tp_time;
    }
    return w;
}

/// §4.6 with `data_par_overlap`: all chunks but the last hide their DP comm behind the backward
/// pass of pp microbatches; the last chunk hides all but its last block.
void overlappedDataParallel(Run &run, Stats &o, double chunkBwTime) noexcept
{
    const Execution &exe = run.exe;
    const Layout &lay = run.layout;
    const double pu = run.dpNet->processorUsage;
    const double pp = dbl(exe.pipelinePar);
    const DpWindows w = dpWindows(run, o);
    const double chunkOverlap = dbl(lay.baseblocksPerChunk) * w.baseOverlap + 1.0 * w.edgeOverlap;
    const double chunkCompute = dbl(lay.blocksPerChunk) * w.blockCompute;
    const double overlappableChunks = dbl(exe.pipelineInterleaving - 1);
    const double lastChunkOverlapSize = dbl(lay.blocksPerChunk - 1);
    const double window = pp * chunkOverlap;
    const double compute = pp * chunkCompute;
    const double chunkDpTime = dbl(lay.blocksPerChunk) * run.blockDpTime;
    const bool dpSharesPp = run.dpNetIndex == run.ppNetIndex;

    // DP and PP traffic collide on a shared tier, at most once per microbatch in flight.
    double overlappedPp = 0;
    if (dpSharesPp) {
        const std::int64_t remainder = lay.microbatches % exe.pipelinePar;
        overlappedPp = std::min(std::floor(chunkDpTime / chunkBwTime), dbl(remainder != 0 ? remainder : exe.pipelinePar));
    }
    const double inflection = chunkDpTime - (window - overlappedPp * run.chunkBwPpTime) + compute * pu;
    const double chunksExposed =
        inflection > 0 ? overlappableChunks * inflection : overlappableChunks * chunkDpTime * pu;

    double chunkOverlapTime = window + compute * pu;
    if (dpSharesPp)
        chunkOverlapTime -= run.chunkBwPpTime;
    chunkOverlapTime *= overlappableChunks;
    o.dp_bw_overlap_req_chunk =
        chunkOverlapTime > 0 ? dbl(lay.blocksPerChunk) * o.block_dp_size / chunkOverlapTime * dpOpScalar(run) : 0;

    double lastWindow = 0;
    if (lay.baseblocksPerChunk > 0) {
        lastWindow = chunkOverlap - run.chunkBwPpTime - (run.baseBwTime + run.edgeBwTime) / 2;
        if (!exe.optimizerSharding)
            lastWindow += o.block_optim_time - o.block_optim_mem_time;
    }
    const double lastInflection = (lastChunkOverlapSize * run.blockDpTime) + (w.blockCompute * pu - lastWindow);
    const double lastExposed =
        lastInflection > 0 ? lastInflection : lastChunkOverlapSize * run.blockDpTime * pu;
    const double tailOverlapTime = lastWindow + lastChunkOverlapSize * run.blockDpTime * pu;
    o.dp_bw_overlap_req_tail =
        tailOverlapTime > 0 ? dbl(lay.blocksPerChunk) * o.block_dp_size / tailOverlapTime * dpOpScalar(run) : 0;

    // The last block's DP comm is never hidden.
    o.dp_comm_exposed_time = run.blockDpTime + (chunksExposed + lastExposed);
    o.dp_comm_link_time = dbl(lay.blocksPerProc) * run.blockDpTime;
}

/// §4.7: TP (and MoE EP, ES) communication and re-communication over every block of every
/// chunk of every microbatch.
void communicationTotals(const Run &run, Stats &o, double chunks, double base) noexcept
{
    const Execution &exe = run.exe;
    const BlockComm &comm = run.comm;
    groupTotals(comm.tp, chunks, base, o.tp_comm_link_time, o.tp_comm_exposed_time);
    groupTotals(comm.ep, chunks, base, o.ep_comm_link_time, o.ep_comm_exposed_time);
    groupTotals(comm.es, chunks, base, o.es_comm_link_time, o.es_comm_exposed_time);
    groupTotals(comm.cp, chunks, base, o.cp_comm_link_time, o.cp_comm_exposed_time);
    if (exe.training) {
        recommTotals(comm.tp, chunks, base, o.tp_recomm_link_time, o.tp_recomm_exposed_time);
        recommTotals(comm.ep, chunks, base, o.ep_recomm_link_time, o.ep_recomm_exposed_time);
        recommTotals(comm.es, chunks, base, o.es_recomm_link_time, o.es_recomm_exposed_time);
        o.recomm_link_time = o.tp_recomm_link_time + o.ep_recomm_link_time + o.es_recomm_link_time;
        o.recomm_exposed_time = o.tp_recomm_exposed_time + o.ep_recomm_exposed_time + o.es_recomm_exposed_time;
        if (run.features.attention) { // the CP ring again for recomputed attention
            double link = 0;
            double exposed = 0;
            recommTotals(comm.cp, chunks, base, link, exposed);
            o.recomm_link_time += link;
            o.recomm_exposed_time += exposed;
        }
    }
}

/// The pipeline's point-to-point messages of one step.
void pipelineComm(Run &run, Stats &o) noexcept
{
    const Execution &exe = run.exe;
    const Layout &lay = run.layout;
    const double M = dbl(lay.microbatches);
    // §4.3: one p2p per chunk per microbatch in each direction. QUIRK (edgeBlockP2pWithoutPipeline):
    // the edge block pays a 0-byte p2p (one latency) even without PP, and in inference.
    const bool p2pAlways = run.quirks.edgeBlockP2pWithoutPipeline;
    run.chunkFwPpTime = p2pAlways || exe.pipelinePar > 1 ? networkTime(*run.ppNet, NetOp::P2p, o.block_fw_pp_size, 2) : 0;
    run.chunkBwPpTime = p2pAlways || (exe.pipelinePar > 1 && exe.training)
                            ? networkTime(*run.ppNet, NetOp::P2p, o.block_bw_pp_size, 2)
                            : 0;
    if (exe.pipelinePar > 1 && scatterGathersPipeline(run)) {
        // Narayanan et al. 2021, section 4.1: the receiving TP ranks all-gather the activation
        // from their 1/TP shares before using it (counted with the PP time it belongs to).
        const double gather = networkTime(*run.tpNet, NetOp::AllGather,
                                          lay.activationSize * run.ctx.bytesPerElement, exe.tensorPar);
        run.chunkFwPpTime += gather;
        run.chunkBwPpTime += exe.training ? gather : 0;
    }
    const double fwP2ps = exe.pipelinePar > 1 ? dbl(lay.chunksPerProc) : 0;
    const double bwP2ps = exe.pipelinePar > 1 && exe.training ? dbl(lay.chunksPerProc) : 0;
    o.pp_comm_link_time = M * fwP2ps * run.chunkFwPpTime + M * bwP2ps * run.chunkBwPpTime;
    o.pp_comm_exposed_time = o.pp_comm_link_time;
}

/// The forward and backward times of a base and an edge block, offload included.
void blockTimes(Run &run, Stats &o, double chunks, double base) noexcept
{
    const Execution &exe = run.exe;
    const BlockComm &comm = run.comm;
    // §4.5 and §6: block times; offload transfers can hide behind compute but not behind
    // memory accesses.
    run.baseFwTimeNoOffload = o.block_fw_time + comm.fwExposed(0);
    run.edgeFwTimeNoOffload = o.block_fw_time + comm.fwExposed(1) + run.chunkFwPpTime;
    const double fwOffload = offloadTime(run, fwOffloadBytes(run, o));
    run.baseFwOffloadOverhead = std::max(0.0, fwOffload + o.block_fw_mem_time - run.baseFwTimeNoOffload);
    run.edgeFwOffloadOverhead = std::max(0.0, fwOffload + o.block_fw_mem_time - run.edgeFwTimeNoOffload);
    run.baseFwTime = run.baseFwTimeNoOffload + run.baseFwOffloadOverhead;
    run.edgeFwTime = run.edgeFwTimeNoOffload + run.edgeFwOffloadOverhead;

    run.baseBwTimeNoOffload =
        o.block_re_time + comm.recommExposed(0) + o.block_agrad_time + o.block_wgrad_time + comm.bwExposed(0);
    run.edgeBwTimeNoOffload = o.block_re_time + comm.recommExposed(1) + o.block_agrad_time + o.block_wgrad_time +
                              comm.bwExposed(1) + run.chunkBwPpTime;
    const double bwOffload = exe.training ? offloadTime(run, bwOffloadBytes(run, o)) : 0;
    const double bwMem = o.block_agrad_mem_time + o.block_wgrad_mem_time;
    run.baseBwOffloadOverhead = std::max(0.0, bwOffload + bwMem - run.baseBwTimeNoOffload);
    run.edgeBwOffloadOverhead = std::max(0.0, bwOffload + bwMem - run.edgeBwTimeNoOffload);
    run.baseBwTime = run.baseBwTimeNoOffload + run.baseBwOffloadOverhead;
    run.edgeBwTime = run.edgeBwTimeNoOffload + run.edgeBwOffloadOverhead;
    o.fw_offload_exposed_time = chunks * (base * run.baseFwOffloadOverhead + 1.0 * run.edgeFwOffloadOverhead);
    if (exe.training)
        o.bw_offload_exposed_time = chunks * (base * run.baseBwOffloadOverhead + 1.0 * run.edgeBwOffloadOverhead);
}

/// The pipeline bubble of one step.
void pipelineBubble(const Run &run, Stats &o, double chunkTime) noexcept
{
    const Execution &exe = run.exe;
    const Layout &lay = run.layout;
    // §4.5 bubble (1F1B, interleaved when v > 1): uneven PP shortens it by the missing blocks,
    // fewer microbatches than stages lengthen it with interleaving.
    const double r = dbl(lay.bubbleReductionBlocks);
    const double reduction = lay.baseblocksPerChunk > 0
                                 ? r * (run.baseFwTime + run.edgeFwTime + run.baseBwTime + run.edgeBwTime) / 2
                                 : r * (run.edgeFwTime + run.edgeBwTime);
    const std::int64_t remainder = lay.microbatches % exe.pipelinePar;
    const double extraBubbles =
        remainder != 0 ? dbl(exe.pipelineInterleaving - 1) * dbl(exe.pipelinePar - remainder) : 0;
    o.bubble_time = dbl(exe.pipelinePar - 1) * chunkTime + (extraBubbles * chunkTime - reduction);
}

/// The data-parallel gradient reduction of one step (§4.6), exposed or overlapped.
void dataParallelStep(Run &run, Stats &o, double chunkBwTime) noexcept
{
    const Execution &exe = run.exe;
    const Layout &lay = run.layout;
    dataParallelBlock(run, o);
    // Q6 (calculon-MoE): with DP = 1 the expert-DP traffic is dropped from the step.
    const bool dpTraffic = exe.dataPar > 1 || (!run.quirks.expertDpDroppedWhenDp1 && run.blockDpTime > 0);
    if (dpTraffic && exe.training) {
        if (exe.dataParOverlap) {
            overlappedDataParallel(run, o, chunkBwTime);
            o.dp_comm_exposed_time = exposedWithOverlapEfficiency(run.ctx, o.dp_comm_link_time, o.dp_comm_exposed_time);
        } else {
            o.dp_comm_exposed_time = dbl(lay.blocksPerProc) * run.blockDpTime;
            o.dp_comm_link_time = o.dp_comm_exposed_time;
        }
    }
}

} // namespace

void computeBatchStats(Run &run, Stats &o) noexcept
{
    const Layout &lay = run.layout;
    const double mult = dbl(lay.blocksPerProc * lay.microbatches);
    const double chunks = dbl(lay.microbatches * lay.chunksPerProc); // M * v
    const double base = dbl(lay.baseblocksPerChunk);

    o.fw_time = mult * o.block_fw_time;
    o.recompute_time = mult * o.block_re_time;
    o.bw_time = mult * o.block_agrad_time + mult * o.block_wgrad_time;
    o.optim_step_time = dbl(lay.blocksPerProc) * o.block_optim_time;
    o.software_overhead_time = mult * o.block_software_overhead_time;
    o.moe_sync_time = mult * o.block_moe_sync_time;
    o.moe_imbalance_time = mult * o.block_moe_imbalance_time;
    o.moe_host_wait_time = mult * o.block_moe_host_wait_time;
    o.moe_host_wait_fw_time = mult * o.block_moe_host_wait_fw_time;
    o.moe_host_wait_bw_time = mult * o.block_moe_host_wait_bw_time;
    o.moe_host_wait_recompute_time = mult * o.block_moe_host_wait_re_time;

    communicationTotals(run, o, chunks, base);
    pipelineComm(run, o);
    blockTimes(run, o, chunks, base);

    const double chunkFwTime = base * run.baseFwTime + 1.0 * run.edgeFwTime;
    const double chunkBwTime = base * run.baseBwTime + 1.0 * run.edgeBwTime;
    const double chunkTime = chunkFwTime + chunkBwTime;
    pipelineBubble(run, o, chunkTime);
    dataParallelStep(run, o, chunkBwTime);

    o.total_time = o.fw_time + o.bw_time + o.optim_step_time + o.fw_offload_exposed_time + o.bw_offload_exposed_time +
                   o.recompute_time + o.recomm_exposed_time + o.bubble_time + o.tp_comm_exposed_time +
                   o.ep_comm_exposed_time + o.es_comm_exposed_time + o.pp_comm_exposed_time +
                   o.dp_comm_exposed_time;
    if (run.features.attention)
        o.total_time += o.cp_comm_exposed_time;
}

} // namespace gapstudio::model::detail
