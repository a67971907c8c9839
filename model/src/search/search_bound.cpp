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
//  6. The corrected model (fidelity.h) keeps 1.-5.: its block times are computeBlockStats' on
//     the block it builds with its features (calibrated kernels, FP8 casts, the software
//     stack's fixed costs, MoE details: all inside the block times); DP overlap efficiency
//     changes only DP terms. A block's layers reach the network through the TP, EP, ES and CP
//     tiers only (block_builder.h: the tier of each collective), so with the EP and ES tiers
//     fixed as well, every group's exposed comm is exact: the bound adds the TP, EP and ES
//     groups' (and the CP ring's, which the model adds under Features::attention) wherever the
//     model adds them (tp/ep/es/cp_comm_exposed_time, recomm_exposed_time, the block times of
//     the bubble). Its stages (stages.cpp) add, last, M * extra + imbalance + embedding DP,
//     where the embedding's DP reduction is a DP term (>= 0, guarded) and the rest depends on
//     the same tiers only (the block's components by group, the embedding, head, MTP and dense
//     blocks): stageExtraTime() is that exact rest, added to the bound. It can be negative (a
//     stage of dense blocks faster than MoE blocks, a smaller first stage); rounding of
//     fl(a + b) is monotone in each argument whatever the signs, so 1. still holds. For an MoE
//     model the bound is taken for every EP and ES tier, and the bound of a TP tier is the
//     lowest over them. Sums regrouped over the groups differ from the model's order by a few
//     ulps, far inside the 1e-9 below.
//  7. The MFU (total_efficiency) is ideal / total_time with an ideal time that depends on the
//     layout's shape only (memory_stats.cpp, or the stages' own): idealStepTime() of the same
//     block over the time bound is an upper bound on it.
// Every term is the model's own value or a sum of fewer non-negative addends in the model's
// order, so rounding cannot lift the model's time below the bound; the bound is still lowered
// by a relative 1e-9 so that no reordering of equal-valued sums can matter.
#include "search/search_bound.h"

#include "engine/checks.h"
#include "engine/run.h"
#include "engine/stages.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace gapstudio::model::detail {

namespace {

/// 5. The reference bound's TP group of dense blocks; 6. with the corrected model every group of
/// the block (the caller fixes the EP and ES tiers), the CP ring where the model counts it.
GroupComm knownGroups(const BlockComm &comm, const Execution &exe, const Features &features) noexcept
{
    if (!features.any())
        return exe.modelMoE ? GroupComm {} : comm.tp;
    GroupComm g;
    for (const GroupComm *group : { &comm.tp, &comm.ep, &comm.es, features.attention ? &comm.cp : nullptr }) {
        if (!group)
            continue;
        for (int i = 0; i < 2; ++i) {
            g.fwExposed[i] += group->fwExposed[i];
            g.bwExposed[i] += group->bwExposed[i];
            g.recommExposed[i] += group->recommExposed[i];
        }
    }
    return g;
}

/// The lower bound of 1.-6. on the step time of the group's executions with the TP, EP and ES
/// tiers of `exe`; `ideal`, if given, receives the ideal time of 7. `stages`: the stage blocks of
/// `exe`'s TP tier (stageBlocksOf), with the corrected model's stages.
double stepTimeBound(const Application &app, const Execution &exe, const System &sys,
                     const EvaluateOptions &options, const Layout &lay, const LayerContext &ctx,
                     const StageBlocks *stages, double *ideal)
{
    const double mult = dbl(lay.blocksPerProc * lay.microbatches);
    const double chunks = dbl(lay.microbatches * lay.chunksPerProc);
    const double base = dbl(lay.baseblocksPerChunk);
    const Block block = exe.modelMoE ? buildMoeBlock(app, exe, sys, options.quirks, options.features)
                                     : buildBlock(app, exe, sys, options.quirks, options.features);
    Stats o;
    const BlockComm comm = computeBlockStats(block, ctx, exe, options.quirks, o);
    const GroupComm known = knownGroups(comm, exe, options.features); // base [0] and edge [1] block
    const double recomm = chunks * (base * known.recommExposed[0] + 1.0 * known.recommExposed[1]);
    const double groupsExposed = chunks * (base * known.fwExposed[0] + 1.0 * known.fwExposed[1])
                                 + chunks * (base * known.bwExposed[0] + 1.0 * known.bwExposed[1]);
    const double chunkFw
        = base * (o.block_fw_time + known.fwExposed[0]) + 1.0 * (o.block_fw_time + known.fwExposed[1]);
    const auto bw = [&o](double recommExposed, double exposed) {
        return (((o.block_re_time + recommExposed) + o.block_agrad_time) + o.block_wgrad_time) + exposed;
    };
    const double chunkBw = base * bw(known.recommExposed[0], known.bwExposed[0])
                           + 1.0 * bw(known.recommExposed[1], known.bwExposed[1]);
    const double bubble
        = lay.bubbleReductionBlocks == 0 ? dbl(exe.pipelinePar - 1) * (chunkFw + chunkBw) : 0.0;
    double time = mult * o.block_fw_time + (mult * o.block_agrad_time + mult * o.block_wgrad_time)
                  + dbl(lay.blocksPerProc) * o.block_optim_time + mult * o.block_re_time + recomm + bubble
                  + groupsExposed;
    if (!stages && !ideal)
        return time;
    Run run = prepareRun(app, exe, sys, options);
    if (stages) { // 6.
        run.comm = comm;
        time += stageExtraTime(run, o, *stages);
    }
    if (ideal)
        *ideal = idealStepTime(run, block); // 7.
    return time;
}

} // namespace

void scoreUpperBounds(const Application &app, const Execution &group, const System &sys,
                      const EvaluateOptions &options, RankBy rankBy, double *perTier)
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
    // 6. Under the corrected model an MoE block's EP and ES tiers count (the search maps a group
    // over more than one tier when the degree is above 1).
    const bool byExpertTiers = options.features.any() && exe.modelMoE;
    const auto tiersOf = [&](std::int64_t degree) {
        return byExpertTiers && degree > 1 ? static_cast<std::int64_t>(tiers) : std::int64_t { 1 };
    };
    const std::int64_t epTiers = tiersOf(exe.expertPar), esTiers = tiersOf(exe.expertSlice);
    for (std::size_t t = 0; t < tiers; ++t) {
        exe.tensorParNet = static_cast<std::int64_t>(t);
        double lowest = std::numeric_limits<double>::infinity();
        double ideal = 0;
        std::optional<StageBlocks> stages;
        if (options.features.embeddingAndHead)
            stages = stageBlocksOf(prepareRun(app, exe, sys, options));
        for (std::int64_t en = 0; en < epTiers; ++en)
            for (std::int64_t sn = 0; sn < esTiers; ++sn) {
                if (byExpertTiers) {
                    exe.expertParNet = en;
                    exe.expertSliceNet = sn;
                }
                lowest = std::min(lowest,
                                  stepTimeBound(app, exe, sys, options, lay, ctx, stages ? &*stages : nullptr,
                                                rankBy == RankBy::Mfu ? &ideal : nullptr));
            }
        const double time = lowest * (1 - 1e-9);
        perTier[t] = rankBy == RankBy::Mfu ? ideal / time : dbl(exe.batchSize) / time;
    }
}

} // namespace gapstudio::model::detail
