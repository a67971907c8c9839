// Lower bound on the step time of a group of layouts (search_bound.h).
//
// Why it is a lower bound (reference features; calculon-model.md §3.3, §4.5-§4.7, §6; the
// formulas are those of batch_stats.cpp and block_stats.cpp):
//  1. total_time = fw + bw + optim_step + fw_offload_exposed + bw_offload_exposed + recompute
//     + recomm_exposed + bubble + tp/ep/es/pp/dp exposed comm, summed left to right
//     (computeBatchStats). Every term the bound leaves out is >= 0 for a valid layout: the
//     offload terms are max(0, ...), the comm terms sums of network times (latency + bytes /
//     bandwidth, non-negative on the ranges limits.h admits), and the final guard
//     (result_guard.cpp) rejects a layout with any negative statistic. Rounding is monotone,
//     so dropping non-negative addends from the same left-to-right sum cannot raise it.
//  2. fw = mult * block_fw_time, bw = mult * block_agrad_time + mult * block_wgrad_time,
//     recompute = mult * block_re_time, optim_step = L_p * block_optim_time (mult = L_p * M).
//     The block times sum the layers' processing times (computeBlockStats), which depend on the
//     layer, the engines and, for a LinearOverlapped (§4.4), the TP tier its GEMM overlaps;
//     not on the other tiers, DP overlap or offloading. The bound runs computeBlockStats on
//     the block built with each TP tier: these terms are then exact.
//  3. bubble = (pp - 1) * chunkTime + (extra * chunkTime - reduction) (§4.5). The search only
//     makes pp that divide the blocks, so reduction = 0 and the second term is >= 0; chunkTime
//     sums base and edge block times, each the block's fw (resp. re + agrad + wgrad) time plus
//     exposed comm and offload overheads, all >= 0 (1.). The bound keeps (pp - 1) * chunkTime
//     with the block times of 2.
//  4. sample_rate = batch_size / total_time (memory_stats.cpp): a lower bound on the time is an
//     upper bound on the rate.
//  5. In dense blocks the TP group's exposed comm (BlockComm::tp of computeBlockStats, exact for
//     the TP tier) is part of tp_comm_exposed_time, recomm_exposed_time and, through the base
//     and edge block times, of the bubble: the bound adds it there, summed as groupTotals and
//     recommTotals (batch_stats.cpp) sum it. The EP, ES and CP groups (other tiers) add >= 0.
//     MoE blocks leave the TP group out too (their collectives may use other tiers).
// Every term is the model's own value or a sum of fewer non-negative addends in the model's
// order, so rounding cannot lift the model's time below the bound; the bound is still lowered
// by a relative 1e-9 so that no reordering of equal-valued sums can matter.
#include "search/search_bound.h"

#include "engine/checks.h"
#include "engine/run.h"

#include <algorithm>

namespace gapstudio::model::detail {

void sampleRateUpperBounds(const Application &app, const Execution &group, const System &sys,
                           const EvaluateOptions &options, double *perTier)
{
    const std::size_t tiers = sys.networks.size();
    Execution exe = effectiveExecution(group);
    Diagnostics counts;
    checkCounts(app, exe, false, counts); // inputs the model cannot compute with: none valid
    if (!counts.empty()) {
        std::fill_n(perTier, tiers, kNoValidLayout);
        return;
    }
    const Layout lay = compileLayout(app, exe, options.features);
    const LayerContext ctx = layerContext(exe, sys, options);
    const double mult = dbl(lay.blocksPerProc * lay.microbatches);
    const double chunks = dbl(lay.microbatches * lay.chunksPerProc);
    const double base = dbl(lay.baseblocksPerChunk);
    for (std::size_t t = 0; t < tiers; ++t) {
        exe.tensorParNet = static_cast<std::int64_t>(t);
        const Block block = exe.modelMoE ? buildMoeBlock(app, exe, sys, options.quirks, options.features)
                                         : buildBlock(app, exe, sys, options.quirks, options.features);
        Stats o;
        const BlockComm comm = computeBlockStats(block, ctx, exe, options.quirks, o);
        // 5. The TP group's exposed comm (dense blocks), base [0] and edge [1] block.
        GroupComm tp;
        if (!exe.modelMoE)
            tp = comm.tp;
        const double recomm = chunks * (base * tp.recommExposed[0] + 1.0 * tp.recommExposed[1]);
        const double tpExposed = chunks * (base * tp.fwExposed[0] + 1.0 * tp.fwExposed[1])
                                 + chunks * (base * tp.bwExposed[0] + 1.0 * tp.bwExposed[1]);
        const double chunkFw
            = base * (o.block_fw_time + tp.fwExposed[0]) + 1.0 * (o.block_fw_time + tp.fwExposed[1]);
        const auto bw = [&o](double recommExposed, double exposed) {
            return (((o.block_re_time + recommExposed) + o.block_agrad_time) + o.block_wgrad_time) + exposed;
        };
        const double chunkBw = base * bw(tp.recommExposed[0], tp.bwExposed[0])
                               + 1.0 * bw(tp.recommExposed[1], tp.bwExposed[1]);
        const double bubble
            = lay.bubbleReductionBlocks == 0 ? dbl(exe.pipelinePar - 1) * (chunkFw + chunkBw) : 0.0;
        const double time = mult * o.block_fw_time + (mult * o.block_agrad_time + mult * o.block_wgrad_time)
                            + dbl(lay.blocksPerProc) * o.block_optim_time + mult * o.block_re_time + recomm
                            + bubble + tpExposed;
        perTier[t] = dbl(exe.batchSize) / (time * (1 - 1e-9));
    }
}

} // namespace gapstudio::model::detail
