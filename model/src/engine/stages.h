#pragma once
// The corrected model's pipeline stages (stages.cpp): the parts the stage model is made of,
// shared with the layout search's bound (search/search_bound.cpp).

#include "engine/run.h"

#include <cstdint>

namespace gapstudio::model::detail {

/// One block's per-microbatch time by step component (forward and backward compute, recompute
/// and the exposed communication of each group), so that stage differences land in the
/// components they are made of.
struct Parts {
    double fw = 0, bw = 0, recompute = 0, tp = 0, ep = 0, es = 0, cp = 0, recomm = 0;
    /// The software stack's fixed costs, the busiest GPU's extra expert work and the MoE blocks'
    /// wait for their host (in all, and in each pass), already inside fw, bw and recompute (not
    /// summed again).
    double software = 0, moeSync = 0, moeImbalance = 0, moeHostWait = 0;
    double moeHostWaitFw = 0, moeHostWaitBw = 0, moeHostWaitRe = 0;
    [[nodiscard]] double sum() const noexcept { return fw + bw + recompute + tp + ep + es + cp + recomm; }
};

/// A standalone block of layers (embedding, head, dense block): its statistics, time by
/// component and useful flops per microbatch.
struct BlockTime {
    Stats stats;
    Parts parts;
    double usefulFlops = 0;
    [[nodiscard]] double seconds() const noexcept { return parts.sum(); }
};

/// The blocks besides processor 0's transformer block: the embedding (first stage), the LM head
/// and multi-token-prediction layers (last stage) and an MoE model's dense blocks. They depend on
/// the TP and CP tiers, not on an MoE block's EP and ES tiers.
struct StageBlocks {
    BlockTime embedding, head, mtp;
    std::int64_t denseCount = 0;
    BlockTime dense; ///< one dense block (denseCount > 0)
};

[[nodiscard]] StageBlocks stageBlocksOf(const Run &run);

/// What applyStages() adds to the step time, less the embedding's gradient reduction (a
/// non-negative DP term): M times the critical stage's extra time per microbatch plus the fill
/// and drain through the other stages. `blocks` is stageBlocksOf(run) (or of a run that differs
/// in EP and ES tiers only). Fills run.stages as applyStages() does.
[[nodiscard]] double stageExtraTime(Run &run, const Stats &stats, const StageBlocks &blocks) noexcept;

} // namespace gapstudio::model::detail
