#include "engine/block_stats.h"

#include "engine/layer_memory.h"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace gapstudio::model::detail {

namespace {

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
    k.time[0] = netTimeOfBytes(l, c, s, true, cost, k.bytes[0]);
    const bool edgeDiffers = l.commType == TpCommType::P2pRsAg;
    k.bytes[1] = edgeDiffers ? commBytes(l, c, s, false) : k.bytes[0];
    k.time[1] = edgeDiffers ? netTimeOfBytes(l, c, s, false, cost, k.bytes[1]) : k.time[0];
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
    const double base = requiredBandwidth(l, cost, k.bytes[0]);
    // The edge block's differs only where its traffic does (p2p_rs_ag): its divisions are skipped.
    return k.bytes[1] == k.bytes[0] ? base : std::max(base, requiredBandwidth(l, cost, k.bytes[1]));
}

/// One stage's running sums over the block's layers.
struct StageTotals {
    double flops = 0, flopsTime = 0, mem = 0, memTime = 0, time = 0;

    void addCost(const StageCost &c) noexcept
    {
        flops += c.flops;
        flopsTime += c.flopTime;
        mem += c.bytes;
        memTime += c.memTime;
    }
};

/// The block's running sums, kept in locals while the layers are walked and written to Stats
/// once: accumulating in Stats itself made every sum a store and a reload around each cost
/// call. Each sum takes its terms in the same order either way, so the results are identical.
struct BlockTotals {
    StageTotals fw, re, agrad, wgrad, optim;
    /// The processing time of the expertWork layers per stage (Block::expertImbalance).
    double expertFw = 0, expertRe = 0, expertAgrad = 0, expertWgrad = 0;
    double bwOverlapReq = 0;
    double weight = 0, actWorking = 0, actStorage = 0, weightGrad = 0, weightGradNoSharding = 0, actGrad = 0,
           optimizer = 0;
};

void addMemory(const Layer &l, const LayerContext &ctx, const Execution &exe, bool withWeights,
               BlockTotals &t, BlockComm &comm) noexcept;

/// Whether a count is +0.0, tested on its bits: three integer instructions where a
/// floating-point compare also branches on an unordered result. A -0.0 (which no builder makes)
/// tests as non-zero, and the caller then takes its general path, which gives the same sums.
bool positiveZero(double count) noexcept
{
    return std::bit_cast<std::uint64_t>(count) == 0;
}

/// A layer without weights, weight gradients or optimizer state: its weight, gradient and
/// optimizer footprints are exactly 0 (layer_memory.h), and adding those zeros to the block's
/// non-negative sums changes none of them, so addMemory skips them (about two thirds of a
/// block's layers). The three counts are tested for +0.0 on their bits (positiveZero).
bool weightless(const Layer &l) noexcept
{
    const std::uint64_t counts = std::bit_cast<std::uint64_t>(l.weightSpace)
                                 | std::bit_cast<std::uint64_t>(l.weightGrads)
                                 | std::bit_cast<std::uint64_t>(l.optimSpace);
    return counts == 0;
}

/// Whether the weight-gradient and optimizer stages of weightless layers can be skipped: with
/// the positive peaks the checks admit and no calibrated kernel costs, those stages of a
/// weightless layer without weight-gradient flops, ring attention or embedding rows
/// (stageFlops, stageMemAccessed and optimizerBytes are 0 for it) cost exactly 0 s (a
/// collective's re-communication still goes through linkOf, and a zero cost adds nothing to
/// its time). The same for every layer of the block: decided once.
bool weightStagesSkippable(const LayerContext &ctx) noexcept
{
    return !ctx.calibration && ctx.matrix->peak_flops > 0 && ctx.vector->peak_flops > 0;
}

bool withoutWeightWork(const Layer &l, bool withWeights, bool weightStagesSkip) noexcept
{
    return weightStagesSkip && !withWeights && positiveZero(l.wgradFlops)
           && l.kind != LayerKind::FlashAttention && l.kind != LayerKind::Embedding;
}

/// A forward or activation-gradient stage of a layer with its cost and link computed: its
/// processing time and exposed communication (`exposed`, base and edge block), added to the
/// stage's sums, the group's traffic (`size`, `time`, `exposedSum`) and the overlap bandwidth.
inline StageTiming addPassStage(const Layer &l, const LayerContext &ctx, Stage s, const StageCost &cost,
                                const Link &link, bool comms, bool edgeOwn, StageTotals &sums,
                                double (&size)[2], double (&time)[2], double (&exposedSum)[2],
                                double &bwOverlapReq, double (&exposed)[2]) noexcept
{
    const StageTiming timing = processingTimeWithNet(l, ctx, s, cost, link.time[0], comms);
    exposedOf(l, ctx, s, cost, link, timing, edgeOwn, exposed);
    sums.addCost(cost);
    sums.time += timing.time;
    if (comms)
        add(size, time, exposedSum, stageComm(l, link, exposed));
    bwOverlapReq = std::max(bwOverlapReq, requiredBandwidth(l, cost, link));
    return timing;
}

/// Adds one layer's stage costs, processing times, traffic and memory to the block's sums
/// (`kCalibrated`: the context's calibration, see stageCostOf).
template <bool kCalibrated>
inline void addLayer(const Layer &l, const LayerContext &ctx, const Execution &exe, const Quirks &quirks,
                     bool weightStagesSkip, BlockTotals &t, BlockComm &comm) noexcept
{
    const bool comms = communicates(l.kind);
    GroupComm &g = comms ? groupOf(comm, l) : comm.tp; // traffic only from the layers that communicate
    const bool overlapped = l.kind == LayerKind::LinearOverlapped;
    const bool withWeights = !weightless(l); // tested once per layer, not in every stage
    // The edge block's own exposed time (else the base block's, QUIRK §4.4 (1)).
    const bool edgeOwn = overlapped && l.commType == TpCommType::P2pRsAg && !quirks.overlapEdgeEqualsBase;
    // Each stage's cost, link times and processing time once (the reference recomputes them).
    const StageCost fwCost = stageCostOf<kCalibrated>(l, ctx, Stage::Fw);
    const Link fwLink = comms ? linkOf(l, ctx, Stage::Fw, fwCost) : Link {};
    double fwExposed[2] = {};
    const StageTiming fw = addPassStage(l, ctx, Stage::Fw, fwCost, fwLink, comms, edgeOwn, t.fw, g.fwSize,
                                        g.fwTime, g.fwExposed, t.bwOverlapReq, fwExposed);
    if (l.expertWork)
        t.expertFw += fw.time;
    if (exe.training) {
        if (l.needsRecompute) {
            if (quirks.recomputeStatsRunningTotal) {
                // QUIRK (§3.3): the running forward totals are added, not the layer's own.
                t.re.flops += t.fw.flops;
                t.re.flopsTime += t.fw.flopsTime;
                t.re.mem += t.fw.mem;
                t.re.memTime += t.fw.memTime;
            } else {
                t.re.addCost(fwCost);
            }
            t.re.time += fw.time;
            if (l.expertWork)
                t.expertRe += fw.time;
        }
        const bool weightWork = !withoutWeightWork(l, withWeights, weightStagesSkip);
        const StageCost wgradCost
            = weightWork ? stageCostOf<kCalibrated>(l, ctx, Stage::Wgrad, fwCost) : StageCost {};
        // The weight-gradient stage's link: the re-communication, and what an overlapped
        // GEMM's weight-gradient pass overlaps.
        const Link wgradLink
            = comms && (l.needsRecomm || overlapped) ? linkOf(l, ctx, Stage::Wgrad, wgradCost) : Link {};
        if (l.needsRecomm && comms) {
            // QUIRK (§4.4 (2)): a LinearOverlapped reports its forward exposed time here.
            add(g.recommSize, g.recommTime, g.recommExposed, stageComm(l, wgradLink, fwExposed));
        }
        const StageCost agradCost = stageCostOf<kCalibrated>(l, ctx, Stage::Agrad, fwCost);
        // An all-to-all sends the same bytes back in the backward pass by the same exchange
        // (commBytes, netTimeOfBytes): its link is the forward's, not computed again.
        const Link agradLink = !comms                          ? Link {}
                               : l.kind == LayerKind::AllToAll ? fwLink
                                                               : linkOf(l, ctx, Stage::Agrad, agradCost);
        double agradExposed[2] = {};
        const StageTiming agrad
            = addPassStage(l, ctx, Stage::Agrad, agradCost, agradLink, comms, edgeOwn, t.agrad, g.bwSize,
                           g.bwTime, g.bwExposed, t.bwOverlapReq, agradExposed);
        if (l.expertWork)
            t.expertAgrad += agrad.time;
        if (weightWork) {
            t.wgrad.addCost(wgradCost);
            const double wgradTime
                = processingTimeWithNet(l, ctx, Stage::Wgrad, wgradCost, wgradLink.time[0], comms).time;
            t.wgrad.time += wgradTime;
            if (l.expertWork)
                t.expertWgrad += wgradTime;
            const StageCost optimCost = stageCostOf<kCalibrated>(l, ctx, Stage::Optim);
            t.optim.addCost(optimCost);
            // No stage moves data in the optimizer step (netTime is 0 there).
            t.optim.time += processingTimeWithNet(l, ctx, Stage::Optim, optimCost, 0.0, comms).time;
        }
    }
    addMemory(l, ctx, exe, withWeights, t, comm);
}

/// Adds one layer's weights, activations, gradients and optimizer state (§7) to the sums.
inline void addMemory(const Layer &l, const LayerContext &ctx, const Execution &exe, bool withWeights,
                      BlockTotals &t, BlockComm &comm) noexcept
{
    const double activations = activationBytes(l, ctx);
    if (withWeights) {
        const double weights = weightBytes(l, ctx);
        t.weight += weights;
        if (l.expertWeights)
            comm.expertWeightBytes += weights;
    }
    if (!l.activationReused)
        t.actWorking += activations;
    t.actStorage += activations;
    if (exe.training) {
        if (!l.outputStored)
            t.actStorage -= outputBytes(l, ctx);
        if (!l.activationStored)
            t.actStorage -= activations;
        if (withWeights) {
            t.weightGrad += weightGradBytes(l, ctx, true);
            t.weightGradNoSharding += weightGradBytes(l, ctx, false);
        }
        t.actGrad += activationGradBytes(l, ctx);
        if (withWeights)
            t.optimizer += optimizerBytes(l, ctx);
    }
}

/// Stats' block sums as they stand (zero for a fresh Stats) into `t`, and back.
void loadTotals(const Stats &o, BlockTotals &t) noexcept
{
    t.fw = { o.block_fw_flops, o.block_fw_flops_time, o.block_fw_mem_accessed, o.block_fw_mem_time,
             o.block_fw_time };
    t.re = { o.block_re_flops, o.block_re_flops_time, o.block_re_mem_accessed, o.block_re_mem_time,
             o.block_re_time };
    t.agrad = { o.block_agrad_flops, o.block_agrad_flops_time, o.block_agrad_mem_accessed,
                o.block_agrad_mem_time, o.block_agrad_time };
    t.wgrad = { o.block_wgrad_flops, o.block_wgrad_flops_time, o.block_wgrad_mem_accessed,
                o.block_wgrad_mem_time, o.block_wgrad_time };
    t.optim = { o.block_optim_flops, o.block_optim_flops_time, o.block_optim_mem_accessed,
                o.block_optim_mem_time, o.block_optim_time };
    t.bwOverlapReq = o.tp_bw_overlap_req;
    t.weight = o.block_weight_space;
    t.actWorking = o.block_act_working_space;
    t.actStorage = o.block_act_storage_space;
    t.weightGrad = o.block_weight_grad_space;
    t.weightGradNoSharding = o.block_weight_grad_space_no_sharding;
    t.actGrad = o.block_act_grad_space;
    t.optimizer = o.block_optimizer_space;
}

void storeTotals(const BlockTotals &t, Stats &o) noexcept
{
    const auto store = [](const StageTotals &s, double &flops, double &flopsTime, double &mem,
                          double &memTime, double &time) {
        flops = s.flops;
        flopsTime = s.flopsTime;
        mem = s.mem;
        memTime = s.memTime;
        time = s.time;
    };
    store(t.fw, o.block_fw_flops, o.block_fw_flops_time, o.block_fw_mem_accessed, o.block_fw_mem_time,
          o.block_fw_time);
    store(t.re, o.block_re_flops, o.block_re_flops_time, o.block_re_mem_accessed, o.block_re_mem_time,
          o.block_re_time);
    store(t.agrad, o.block_agrad_flops, o.block_agrad_flops_time, o.block_agrad_mem_accessed,
          o.block_agrad_mem_time, o.block_agrad_time);
    store(t.wgrad, o.block_wgrad_flops, o.block_wgrad_flops_time, o.block_wgrad_mem_accessed,
          o.block_wgrad_mem_time, o.block_wgrad_time);
    store(t.optim, o.block_optim_flops, o.block_optim_flops_time, o.block_optim_mem_accessed,
          o.block_optim_mem_time, o.block_optim_time);
    o.tp_bw_overlap_req = t.bwOverlapReq;
    o.block_weight_space = t.weight;
    o.block_act_working_space = t.actWorking;
    o.block_act_storage_space = t.actStorage;
    o.block_weight_grad_space = t.weightGrad;
    o.block_weight_grad_space_no_sharding = t.weightGradNoSharding;
    o.block_act_grad_space = t.actGrad;
    o.block_optimizer_space = t.optimizer;
}

/// The calibrated model's additions once the layers are summed: the EP all-to-all's overlap
/// with compute, the MoE block's host wait and the software stack's fixed cost per block and
/// pass.
void addCalibratedTerms(const Block &block, const LayerContext &ctx, const Execution &exe, BlockComm &comm,
                        Stats &o) noexcept
{
    if (exe.moeAllToAllOverlap) {
        // The EP all-to-all of one microbatch runs under the block's compute for another
        // (Megatron-Core's EP communication overlap, --overlap-moe-expert-parallel-comm).
        GroupComm &ep = comm.ep;
        for (int k = 0; k < 2; ++k) {
            ep.fwExposed[k] = exposedWithOverlapEfficiency(ctx, ep.fwTime[k],
                                                           std::max(0.0, ep.fwTime[k] - o.block_fw_time));
            const double bw = o.block_agrad_time + o.block_wgrad_time;
            ep.bwExposed[k]
                = exposedWithOverlapEfficiency(ctx, ep.bwTime[k], std::max(0.0, ep.bwTime[k] - bw));
        }
    }
    const double hostWait
        = ctx.calibration->hostOpScale > 0 && block.hostOps > 0 ? addHostWait(block, ctx, exe, comm, o) : 0;
    // The software stack's fixed cost per block and pass (kernel launches, host work; the
    // backward pass launches about twice the forward's kernels), and the fitted cost of the MoE
    // dispatcher's host synchronisation in the blocks whose host waits (Block::hostWaits).
    const bool moe = block.hostWaits;
    const double overhead
        = ctx.calibration->blockOverhead_s + (moe ? ctx.calibration->moeBlockOverhead_s : 0);
    o.block_fw_time += overhead;
    double passes = 1;
    if (exe.training) {
        o.block_agrad_time += 2 * overhead;
        passes += 2;
        if (o.block_re_flops > 0) {
            o.block_re_time += overhead;
            passes += 1;
        }
    }
    o.block_software_overhead_time = passes * ctx.calibration->blockOverhead_s;
    o.block_moe_sync_time = moe ? passes * ctx.calibration->moeBlockOverhead_s : 0;
    o.block_moe_host_wait_time = hostWait;
}

/// The busiest GPU's extra routed expert work: Block::expertImbalance - 1 times the expertWork
/// layers' processing time, in every pass that runs them. It paces the EP group, so the block's
/// times carry it; block_moe_imbalance_time names it.
void addExpertImbalance(const Block &block, const BlockTotals &t, Stats &o) noexcept
{
    const double extra = block.expertImbalance - 1;
    o.block_fw_time += extra * t.expertFw;
    o.block_re_time += extra * t.expertRe;
    o.block_agrad_time += extra * t.expertAgrad;
    o.block_wgrad_time += extra * t.expertWgrad;
    o.block_moe_imbalance_time = extra * (t.expertFw + t.expertRe + t.expertAgrad + t.expertWgrad);
}

/// The TP, EP and ES traffic sums into Stats' `baseblock_*` and `edgeblock_*` fields.
void storeComm(const BlockComm &comm, Stats &o) noexcept
{
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
}

} // namespace

void computeBlockStats(const Block &block, const LayerContext &ctx, const Execution &exe,
                       const Quirks &quirks, Stats &o, BlockComm &comm) noexcept
{
    comm = BlockComm {};
    BlockTotals totals;
    loadTotals(o, totals);
    const bool weightStagesSkip = weightStagesSkippable(ctx);
    if (ctx.calibration) {
        for (std::size_t i = 0; i < block.size; ++i)
            addLayer<true>(block.layers[i], ctx, exe, quirks, weightStagesSkip, totals, comm);
    } else {
        for (std::size_t i = 0; i < block.size; ++i)
            addLayer<false>(block.layers[i], ctx, exe, quirks, weightStagesSkip, totals, comm);
    }
    storeTotals(totals, o);
    if (exe.activationRecompute == Recompute::Full)
        o.block_act_storage_space = 0; // everything but the checkpoint is recomputed
    o.block_moe_imbalance_time = 0;
    if (block.expertImbalance > 1)
        addExpertImbalance(block, totals, o);
    if (ctx.calibration)
        addCalibratedTerms(block, ctx, exe, comm, o);
    storeComm(comm, o);
}

} // namespace gapstudio::model::detail
