#pragma once
/**
 * @file costsearch.h
 * Layout search and GPU-count sweeps judged by cost: the layouts of a scenario ranked by
 * throughput, MFU, $/million tokens or J/token, and time-to-train against cost-to-train over GPU
 * counts, each count at its best layout, with the Pareto front marked. Runs the model's layout
 * search (search.h) with the scenario's own model (corrected features and calibration), then the
 * cost model (cost.h) on its best layouts. Pure; never throws for a compiled scenario.
 */

#include "gapstudio/model/search.h"
#include "gapstudio/scenario/cost.h"
#include "gapstudio/scenario/pipeline.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gapstudio::scenario {

/// What a layout is ranked by, best first.
enum class LayoutRank : std::uint8_t {
    SampleRate,          ///< most samples per second
    Mfu,                 ///< highest model FLOPs utilisation
    UsdPerMillionTokens, ///< cheapest tokens
    JoulesPerToken,      ///< least energy per token
    /// cheapest tokens of wall time: failures, checkpoints and restarts counted (goodput.h)
    EffectiveUsdPerMillionTokens,
};

/// "sample_rate", "mfu", "usd_per_million_tokens", "joules_per_token",
/// "effective_usd_per_million_tokens".
[[nodiscard]] const char *rankName(LayoutRank rank) noexcept;
[[nodiscard]] std::optional<LayoutRank> rankFromName(const std::string &name) noexcept;

struct CostSearchOptions {
    LayoutRank rank = LayoutRank::UsdPerMillionTokens;
    std::size_t topN = 10;
    /// Layouts kept by throughput and then ranked by cost. Cost per hour varies only with the
    /// GPUs' activity, so a layout slower than the last one kept cannot be cheaper when even its
    /// lowest cost per hour divided by that rate exceeds the best found: CostSearchResult::exact
    /// says whether the ranking is provably the search space's.
    std::size_t candidates = 2000;
    /// Searches every TP overlap and DP overlap on and off, not only the scenario's own
    /// (scenarioSearchSpace).
    bool widen = false;
    /// Evaluates every layout, so that CostSearchResult::valid counts all valid ones; else the
    /// bounded search (model/search_bounded.h) skips the layouts that provably cannot be kept,
    /// with the same hits.
    bool exhaustive = false;
    unsigned threads = 0; ///< 0 = all hardware threads
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(std::size_t, std::size_t)> progress; ///< (tasks done, tasks in all)
};

struct CostSearchHit {
    model::Execution execution;
    model::Stats stats;
    model::CostResult cost;
    model::GoodputResult goodput; ///< under the scenario's failures (scenarioGoodput)
    double score = 0;             ///< the ranked quantity (higher is better for rates, lower for costs)
};

struct CostSearchResult {
    /// Layouts in the space; valid ones among those evaluated (all of them when exhaustive).
    std::uint64_t configurations = 0, valid = 0;
    std::uint64_t evaluated = 0, skipped = 0; ///< skipped: provably unable to be kept
    std::vector<CostSearchHit> hits; ///< best first
    bool exact = true;               ///< the ranking is the whole space's (see candidates)
    bool cancelled = false;
    std::string note; ///< the search space in words
};

/**
 * The search space around a compiled scenario: the design's own (model::designSearchSpace, the
 * space of the Best layout tab and of Explore, so that all of them name the same best layout):
 * its GPU count, global batch (as the largest batch), datatype, overlaps, TP communication,
 * fused activation, attention and activation function, context parallelism and, for an MoE LLM,
 * its experts and top-k (calculon-MoE's legacy space: EP = E, ES = TP). `widen` adds every TP
 * overlap and DP overlap on and off.
 */
[[nodiscard]] model::SearchSpace scenarioSearchSpace(const CompiledScenario &compiled, bool widen = false);

/// Searches the layouts of `compiled` and ranks the best by `options.rank`.
[[nodiscard]] CostSearchResult searchByCost(const CompiledScenario &compiled,
                                            const CostSearchOptions &options);

/// One GPU count of a cost sweep, at its best layout.
struct CostSweepPoint {
    std::int64_t gpus = 0;
    bool ok = false; ///< a feasible layout was found
    std::string why; ///< when not ok
    std::optional<CostSearchHit> best;
    double timeToTrain_s = 0; ///< the token budget at this count, without failures
    double costToTrain_USD = 0;
    bool pareto = false; ///< no other point is both faster and cheaper
};

/// Time-to-train against cost-to-train over `gpuCounts`: the scenario at each count (its other
/// blocks and overrides kept), its best layout by `options.rank`, and the Pareto front.
[[nodiscard]] std::vector<CostSweepPoint> sweepCostByGpuCount(const Scenario &scenario,
                                                              const PresetLibrary &library,
                                                              const std::vector<std::int64_t> &gpuCounts,
                                                              const CostSearchOptions &options);

/// Marks the points no other ok point dominates (at most as slow and as expensive, and better in
/// one of the two).
void markParetoFront(std::vector<CostSweepPoint> &points);

} // namespace gapstudio::scenario
