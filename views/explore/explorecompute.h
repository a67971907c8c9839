#pragma once
/**
 * @file explorecompute.h
 * What the explore charts show, computed from the model's search and sweep API (search.h,
 * sweep.h) for one design. No Qt and no model formula here: the functions pick the points to
 * evaluate, call the model, and group its results. They are pure, so ExplorePanel runs them on a
 * worker thread.
 */

#include "gapstudio/model/search.h"
#include "gapstudio/model/sweep.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gapstudio::views::explore {

/// The reference semantics of the design: Calculon's quirks, or calculon-MoE's for an MoE
/// execution (what `gapstudio-cli eval/sweep` use for the same files).
[[nodiscard]] model::EvaluateOptions defaultEvaluateOptions(const model::Design &design);

/// The search space around the design, with the design's own settings: its GPU count, global
/// batch (as the maximum batch), datatype, TP overlap, DP overlap, TP communication type, fused
/// activation, attention type and activation function (and, for an MoE execution, its expert count
/// and top-k); -m on; every other execution field (context parallelism, the corrected model's
/// settings) kept as designed (model::designSearchSpace). The search dialog lets the user widen
/// it; the sweeps use it as it is, so the layouts they compare differ from the design only in
/// what a layout search varies.
[[nodiscard]] model::SearchSpace searchSpaceFor(const model::Design &design);

/// One line naming that space, for the charts' subtitles.
[[nodiscard]] std::string searchNote(const model::SearchSpace &space);

/// Search options that evaluate every layout with the design's own model (its quirks, features
/// and calibration: model::designSearchOptions), keeping the top `topN`. A row or point of a
/// search is then what the design gives with that layout.
[[nodiscard]] model::SearchOptions searchOptionsFor(const model::EvaluateOptions &evaluate, std::size_t topN);

/// GPU counts of the scaling curve: powers of two from numProcs/8 to numProcs*2 (at least 8),
/// plus numProcs itself.
[[nodiscard]] std::vector<std::int64_t> scalingGpuCounts(std::int64_t numProcs);

/// Scale-up domain sizes of the domain sweep: 8, 16, ..., 512 GPUs and `current`, ascending.
[[nodiscard]] std::vector<std::int64_t> domainSizes(std::int64_t current);

/// Step time and MFU of the design at each scale-up domain size (model::sweepParameter with
/// ScaleUpDomainSize factors size/current; the design's own size is one of them). The layout is
/// kept; infeasible points carry the model's diagnostic.
[[nodiscard]] std::vector<model::SweepPoint> sweepDomainSize(const model::Design &design,
                                                             const model::EvaluateOptions &options);

/// The best layout per (TP, PP) cell.
struct HeatmapData {
    std::vector<std::int64_t> tps; ///< columns, ascending
    std::vector<std::int64_t> pps; ///< rows, ascending
    /// cells[row * tps.size() + column]: the best search hit with that TP and PP, or empty
    /// (no valid layout, or none among the search's top `hitsKept`; see `exhaustive`).
    std::vector<std::optional<model::SearchHit>> cells;
    std::int64_t numProcs = 0;
    std::uint64_t configurations = 0;
    std::uint64_t valid = 0;
    std::size_t hitsKept = 0;
    /// true when every valid layout was among the hits kept: empty cells are then exactly the
    /// (TP, PP) pairs without a valid layout.
    bool exhaustive = false;
    /// Without `exhaustive`: the sample rate of the last hit kept. An empty cell's layouts, if
    /// any, are all at most this fast.
    double threshold = 0;
    bool cancelled = false;

    [[nodiscard]] const std::optional<model::SearchHit> &cell(std::size_t row, std::size_t column) const
    {
        return cells[row * tps.size() + column];
    }
    /// The (row, column) of the best cell, if any cell is filled.
    [[nodiscard]] std::optional<std::pair<std::size_t, std::size_t>> bestCell() const;
};

inline constexpr std::size_t kDefaultHeatmapHits = 2000;

/**
 * Runs model::searchLayouts over `space` (ranked by sample rate) keeping the best `maxHits`
 * layouts and takes, for each (TP, PP), the best of them. Because the hits are the global top `maxHits` (best
 * first), a filled cell holds that cell's true best layout; an empty cell has no valid layout when
 * HeatmapData::exhaustive, else none faster than HeatmapData::threshold.
 * Rows and columns: every TP dividing the GPU count, the hidden size and the heads (and N/E for
 * the MoE search), and every PP dividing the blocks with TP*PP dividing the GPU count.
 */
[[nodiscard]] HeatmapData computeHeatmap(const model::Application &app, const model::System &sys,
                                         const model::SearchSpace &space, model::SearchOptions options,
                                         std::size_t maxHits = kDefaultHeatmapHits);

/// What the explore panel computes on its worker thread for one design.
struct ExploreResults {
    std::vector<model::SweepPoint> scaling; ///< sweepGpuCount: best layout per GPU count
    HeatmapData heatmap;
    bool cancelled = false;
};

/// The slow charts: the GPU-count sweep and the heatmap's search, both over searchSpaceFor().
/// `progress(fraction)` is called from worker threads with 0..1.
[[nodiscard]] ExploreResults computeExplore(const model::Design &design,
                                            const model::EvaluateOptions &options,
                                            const std::atomic<bool> *cancel,
                                            const std::function<void(double)> &progress = {});

} // namespace gapstudio::views::explore
