#include "block_stats.h"

#include <algorithm>
#include <limits>

namespace gapstudio::model::detail {

namespace {

double arithmeticIntensity(double flops, double bytes) noexcept
{
    if (flops == 0)
        return 0;
    if (bytes == 0)
        return std::numeric_limits<double>::infinity();
    return flops / bytes;
}

/// Communication of one layer in one stage, for the base and the edge block of a chunk.
struct StageComm {
    double baseSize = 0, edgeSize = 0;
    double baseTime = 0, edgeTime = 0;
    double baseExposed = 0, edgeExposed = 0;
};

void add(double (&size)[2], double (&time)[2], double (&exposed)[2], const StageComm &c) noexcept
{
    size[0] += c.baseSize;
    size[1] += c.edgeSize;
    time[0] += c.baseTime;
    time[1] += c.edgeTime;
    exposed[0] += c.baseExposed;
    exposed[1] += c.edgeExposed;
}

GroupComm &groupOf(BlockComm &comm, const Layer &l) noexcept
{
    switch (l.group) {
    case CommGroup::Ep:
        return comm.ep;
    case CommGroup::Es:
        return comm.es;
    case CommGroup::Cp:
        return comm.cp;
    case CommGroup::Tp:
        break;
    }
    return comm.tp;
}

bool carriesComm(const Layer &l) noexcept
{
    return l.kind == LayerKind::TPComm || l.kind == LayerKind::LinearOverlapped || l.kind == LayerKind::AllToAll ||
           l.kind == LayerKind::FlashAttention;
}

/// A layer's traffic in one stage, [0] for the base and [1] for the edge block of a chunk: only
/// p2p_rs_ag makes them differ. Computed once per layer and stage.
struct Link {
    double bytes[2] = {};
    double time[2] = {};
};

Link linkOf(const Layer &l, const LayerContext &c, Stage s, const StageCost &cost) noexcept
{
    Link k;
    k.bytes[0] = commBytes(l, c, s, true);
    k.time[0] = netTime(l, c, s, true, cost);
    const bool edgeDiffers = l.commType == TpCommType::P2pRsAg;
    k.bytes[1] = edgeDiffers ? commBytes(l, c, s, false) : k.bytes[0];
    k.time[1] = edgeDiffers ? netTime(l, c, s, false, cost) : k.time[0];
    return k;
}

/// TPComm exposes its whole comm time. For a LinearOverlapped the reference reads back the
/// exposed time left by the last processing-time call: the forward one for the
/// re-communication (QUIRK §4.4 (2)), always computed against the base block's comm (QUIRK
/// §4.4 (1), Quirks::overlapEdgeEqualsBase); `exposed` holds those of the base and edge block.
StageComm stageComm(const Layer &l, const Link &k, const double (&exposed)[2]) noexcept
{
    StageComm r;
    r.baseSize = k.bytes[0];
    r.baseTime = k.time[0];
    r.edgeSize = k.bytes[1];
    r.edgeTime = k.time[1];
    const bool whole = l.kind == LayerKind::TPComm || l.kind == LayerKind::AllToAll;
    r.baseExposed = whole ? r.baseTime : exposed[0];
    r.edgeExposed = whole ? r.edgeTime : exposed[1];
    return r;
}

/// Exposed comm of a stage's processing for the base and the edge block (see stageComm).
void exposedOf(const Layer &l, const LayerContext &c, Stage s, const StageCost &cost, const Link &k,
               const StageTiming &base, bool edgeOwn, double (&out)[2]) noexcept
{
    out[0] = base.exposed;
    out[1] = edgeOwn ? processingTimeWithNet(l, c, s, cost, k.time[1]).exposed : base.exposed;
}

/// Bandwidth to hide a LinearOverlapped's comm tiles (the larger of base and edge block).
double requiredBandwidth(const Layer &l, const StageCost &cost, const Link &k) noexcept
{
    if (l.kind != LayerKind::LinearOverlapped)
        return 0;
    return std::max(requiredBandwidth(l, cost, k.bytes[0]), requiredBandwidth(l, cost, k.bytes[1]));
}

} // namespace

BlockComm computeBlockStats(const Block &block, const LayerContext &ctx, const Execution &exe,
                            const Quirks &quirks, Stats &o) noexcept
{
    BlockComm comm;
    for (const Layer &l : block) {
        GroupComm &g = groupOf(comm, l);
        const bool comms = carriesComm(l);
        const bool overlapped = l.kind == LayerKind::LinearOverlapped;
        // The edge block's own exposed time (else the base block's, QUIRK §4.4 (1)).
        const bool edgeOwn = overlapped && l.commType == TpCommType::P2pRsAg && !quirks.overlapEdgeEqualsBase;
        // Each stage's cost, link times and processing time once (the reference recomputes them).
        const StageCost fwCost = stageCost(l, ctx, Stage::Fw);
        const Link fwLink = comms ? linkOf(l, ctx, Stage::Fw, fwCost) : Link{};
        const StageTiming fw = processingTimeWithNet(l, ctx, Stage::Fw, fwCost, fwLink.time[0]);
        double fwExposed[2] = {};
        exposedOf(l, ctx, Stage::Fw, fwCost, fwLink, fw, edgeOwn, fwExposed);
        o.block_fw_flops += fwCost.flops;
        o.block_fw_flops_time += fwCost.flopTime;
        o.block_fw_mem_accessed += fwCost.bytes;
        o.block_fw_mem_time += fwCost.memTime;
        o.block_fw_time += fw.time;
        if (comms)
            add(g.fwSize, g.fwTime, g.fwExposed, stageComm(l, fwLink, fwExposed));
        o.tp_bw_overlap_req = std::max(o.tp_bw_overlap_req, requiredBandwidth(l, fwCost, fwLink));
        if (exe.training) {
            if (l.needsRecompute) {
                if (quirks.recomputeStatsRunningTotal) {
                    // QUIRK (§3.3): the running forward totals are added, not the layer's own.
                    o.block_re_flops += o.block_fw_flops;
                    o.block_re_flops_time += o.block_fw_flops_time;
                    o.block_re_mem_accessed += o.block_fw_mem_accessed;
                    o.block_re_mem_time += o.block_fw_mem_time;
                } else {
                    o.block_re_flops += fwCost.flops;
                    o.block_re_flops_time += fwCost.flopTime;
                    o.block_re_mem_accessed += fwCost.bytes;
                    o.block_re_mem_time += fwCost.memTime;
                }
                o.block_re_time += fw.time;
            }
            const StageCost wgradCost = stageCost(l, ctx, Stage::Wgrad);
            // The weight-gradient stage's link: the re-communication, and what an overlapped
            // GEMM's weight-gradient pass overlaps.
            const Link wgradLink = comms && (l.needsRecomm || overlapped) ? linkOf(l, ctx, Stage::Wgrad, wgradCost)
                                                                          : Link{};
            if (l.needsRecomm && comms) {
                // QUIRK (§4.4 (2)): a LinearOverlapped reports its forward exposed time here.
                add(g.recommSize, g.recommTime, g.recommExposed, stageComm(l, wgradLink, fwExposed));
            }
            const StageCost agradCost = stageCost(l, ctx, Stage::Agrad);
            const Link agradLink = comms ? linkOf(l, ctx, Stage::Agrad, agradCost) : Link{};
            const StageTiming agrad = processingTimeWithNet(l, ctx, Stage::Agrad, agradCost, agradLink.time[0]);
            double agradExposed[2] = {};
            exposedOf(l, ctx, Stage::Agrad, agradCost, agradLink, agrad, edgeOwn, agradExposed);
            o.block_agrad_flops += agradCost.flops;
            o.block_agrad_flops_time += agradCost.flopTime;
            o.block_agrad_mem_accessed += agradCost.bytes;
            o.block_agrad_mem_time += agradCost.memTime;
            o.block_agrad_time += agrad.time;
            if (comms)
                add(g.bwSize, g.bwTime, g.bwExposed, stageComm(l, agradLink, agradExposed));
            o.tp_bw_overlap_req = std::max(o.tp_bw_overlap_req, requiredBandwidth(l, agradCost, agradLink));
            o.block_wgrad_flops += wgradCost.flops;
            o.block_wgrad_flops_time += wgradCost.flopTime;
            o.block_wgrad_mem_accessed += wgradCost.bytes;
            o.block_wgrad_mem_time += wgradCost.memTime;
            o.block_wgrad_time += processingTimeWithNet(l, ctx, Stage::Wgrad, wgradCost, wgradLink.time[0]).time;
            const StageCost optimCost = stageCost(l, ctx, Stage::Optim);
            o.block_optim_flops += optimCost.flops;
            o.block_optim_flops_time += optimCost.flopTime;
            o.block_optim_mem_accessed += optimCost.bytes;
            o.block_optim_mem_time += optimCost.memTime;
            // No stage moves data in the optimizer step (netTime is 0 there).
            o.block_optim_time += processingTimeWithNet(l, ctx, Stage::Optim, optimCost, 0.0).time;
        }
        // Memory per block (§7).
        const double weights = weightBytes(l, ctx);
        const double activations = activationBytes(l, ctx);
        o.block_weight_space += weights;
        if (l.expertWeights)
            comm.expertWeightBytes += weights;
        if (!l.activationReused)
            o.block_act_working_space += activations;
        o.block_act_storage_space += activations;
        if (exe.training) {
            if (!l.outputStored)
                o.block_act_storage_space -= outputBytes(l, ctx);
            if (!l.activationStored)
                o.block_act_storage_space -= activations;
            o.block_weight_grad_space += weightGradBytes(l, ctx, true);
            o.block_weight_grad_space_no_sharding += weightGradBytes(l, ctx, false);
            o.block_act_grad_space += activationGradBytes(l, ctx);
            o.block_optimizer_space += optimizerBytes(l, ctx);
        }
    }
    if (exe.activationRecompute == Recompute::Full)
        o.block_act_storage_space = 0; // everything but the checkpoint is recomputed
    if (ctx.calibration && exe.moeAllToAllOverlap) {
        // The EP all-to-all of one microbatch runs under the block's compute for another
        // (Megatron-Core's EP communication overlap, --overlap-moe-expert-parallel-comm).
        GroupComm &ep = comm.ep;
        for (int k = 0; k < 2; ++k) {
            ep.fwExposed[k] = exposedWithOverlapEfficiency(ctx, ep.fwTime[k], std::max(0.0, ep.fwTime[k] - o.block_fw_time));
            const double bw = o.block_agrad_time + o.block_wgrad_time;
            ep.bwExposed[k] = exposedWithOverlapEfficiency(ctx, ep.bwTime[k], std::max(0.0, ep.bwTime[k] - bw));
        }
    }
    if (ctx.calibration) {
        // The software stack's fixed cost per block and pass (kernel launches, host work); the
        // backward pass launches about twice the forward's kernels.
        // The host synchronisation of a dropless all-to-all dispatcher (a capacity factor or a
        // fused dispatcher avoids it: Megatron-Core MoE documentation, token dispatchers).
        const bool hostSync = exe.moeDispatcher == MoeDispatcher::AllToAll && !(exe.moeCapacityFactor > 0);
        const bool moe = hostSync && std::any_of(block.begin(), block.end(),
                                                 [](const Layer &l) { return l.kind == LayerKind::AllToAll; });
        const double overhead = ctx.calibration->blockOverhead_s + (moe ? ctx.calibration->moeBlockOverhead_s : 0);
        o.block_fw_time += overhead;
        if (exe.training) {
            o.block_agrad_time += 2 * overhead;
            if (o.block_re_flops > 0)
                o.block_re_time += overhead;
        }
    }

    const GroupComm &tp = comm.tp;
    o.baseblock_fw_tp_size = tp.fwSize[0];
    o.edgeblock_fw_tp_size = tp.fwSize[1];
    o.baseblock_fw_tp_time = tp.fwTime[0];
    o.edgeblock_fw_tp_time = tp.fwTime[1];
    o.baseblock_fw_tp_time_exposed = tp.fwExposed[0];
    o.edgeblock_fw_tp_time_exposed = tp.fwExposed[1];
    o.baseblock_bw_tp_size = tp.bwSize[0];
    o.edgeblock_bw_tp_size = tp.bwSize[1];
    o.baseblock_agrad_tp_time = tp.bwTime[0];
    o.edgeblock_agrad_tp_time = tp.bwTime[1];
    o.baseblock_agrad_tp_time_exposed = tp.bwExposed[0];
    o.edgeblock_agrad_tp_time_exposed = tp.bwExposed[1];
    o.baseblock_recomm_size = tp.recommSize[0];
    o.edgeblock_recomm_size = tp.recommSize[1];
    o.baseblock_recomm_time = tp.recommTime[0];
    o.edgeblock_recomm_time = tp.recommTime[1];
    o.baseblock_recomm_time_exposed = tp.recommExposed[0];
    o.edgeblock_recomm_time_exposed = tp.recommExposed[1];
    o.baseblock_fw_ep_size = comm.ep.fwSize[0];
    o.edgeblock_fw_ep_size = comm.ep.fwSize[1];
    o.baseblock_bw_ep_size = comm.ep.bwSize[0];
    o.edgeblock_bw_ep_size = comm.ep.bwSize[1];
    o.baseblock_ep_recomm_size = comm.ep.recommSize[0];
    o.edgeblock_ep_recomm_size = comm.ep.recommSize[1];
    o.baseblock_fw_es_size = comm.es.fwSize[0];
    o.edgeblock_fw_es_size = comm.es.fwSize[1];
    o.baseblock_bw_es_size = comm.es.bwSize[0];
    o.edgeblock_bw_es_size = comm.es.bwSize[1];
    o.baseblock_es_recomm_size = comm.es.recommSize[0];
    o.edgeblock_es_recomm_size = comm.es.recommSize[1];
    return comm;
}

LayerStats layerStats(const Layer &l, const LayerContext &c)
{
    // Mirrors the reference's `Layer.get_stats_json`, which calls the processing-time function
    // stage by stage, so each stage's exposed time is the one just computed.
    LayerStats r;
    r.name = l.name;
    r.inputs_size = l.inputs;
    r.outputs_size = l.outputs;
    const auto stage = [&](Stage s, double &flops, double &mem, double &intensity, double *proc) {
        flops = stageFlops(l, c, s);
        mem = stageMemAccessed(l, c, s);
        intensity = arithmeticIntensity(flops, mem);
        if (proc)
            *proc = processingTime(l, c, s).time;
    };
    const auto exposed = [&](Stage s, bool base) {
        if (l.kind == LayerKind::TPComm)
            return netTime(l, c, s, base);
        return l.kind == LayerKind::LinearOverlapped ? processingTime(l, c, s).exposed : 0.0;
    };
    stage(Stage::Fw, r.fw_flops, r.fw_mem_accessed, r.fw_arithmetic_intensity, &r.fw_processing_time);
    r.baseblock_fw_tp_comm_tile = commTile(l, c, Stage::Fw, true);
    r.edgeblock_fw_tp_comm_tile = commTile(l, c, Stage::Fw, false);
    r.baseblock_fw_tp_comm_size = commBytes(l, c, Stage::Fw, true);
    r.edgeblock_fw_tp_comm_size = commBytes(l, c, Stage::Fw, false);
    r.baseblock_fw_tp_comm_time = netTime(l, c, Stage::Fw, true);
    r.edgeblock_fw_tp_comm_time = netTime(l, c, Stage::Fw, false);
    r.baseblock_fw_tp_comm_time_exposed = exposed(Stage::Fw, true);
    r.edgeblock_fw_tp_comm_time_exposed = exposed(Stage::Fw, false);
    stage(Stage::Agrad, r.agrad_flops, r.agrad_mem_accessed, r.agrad_arithmetic_intensity, &r.agrad_processing_time);
    r.baseblock_bw_tp_comm_tile = commTile(l, c, Stage::Agrad, true);
    r.edgeblock_bw_tp_comm_tile = commTile(l, c, Stage::Agrad, false);
    r.baseblock_bw_tp_comm_size = commBytes(l, c, Stage::Agrad, true);
    r.edgeblock_bw_tp_comm_size = commBytes(l, c, Stage::Agrad, false);
    r.baseblock_bw_tp_comm_time = netTime(l, c, Stage::Agrad, true);
    r.edgeblock_bw_tp_comm_time = netTime(l, c, Stage::Agrad, false);
    r.baseblock_bw_tp_comm_time_exposed = exposed(Stage::Agrad, true);
    r.edgeblock_bw_tp_comm_time_exposed = exposed(Stage::Agrad, false);
    stage(Stage::Wgrad, r.wgrad_flops, r.wgrad_mem_accessed, r.wgrad_arithmetic_intensity, &r.wgrad_processing_time);
    r.baseblock_recomm_tile = commTile(l, c, Stage::Wgrad, true);
    r.edgeblock_recomm_tile = commTile(l, c, Stage::Wgrad, false);
    r.baseblock_recomm_size = commBytes(l, c, Stage::Wgrad, true);
    r.edgeblock_recomm_size = commBytes(l, c, Stage::Wgrad, false);
    r.baseblock_recomm_time = netTime(l, c, Stage::Wgrad, true);
    r.edgeblock_recomm_time = netTime(l, c, Stage::Wgrad, false);
    r.baseblock_recomm_time_exposed = exposed(Stage::Wgrad, true);
    r.edgeblock_recomm_time_exposed = exposed(Stage::Wgrad, false);
    stage(Stage::Optim, r.optim_flops, r.optim_mem_accessed, r.optim_arithmetic_intensity, &r.optim_processing_time);
    r.weight = weightBytes(l, c);
    r.activation = activationBytes(l, c);
    r.weight_grad = weightGradBytes(l, c, true);
    r.activation_grad = activationGradBytes(l, c);
    r.optimizer = optimizerBytes(l, c);
    return r;
}

} // namespace gapstudio::model::detail
