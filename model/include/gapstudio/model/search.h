#pragma once
/**
 * @file search.h
 * Layout search: every execution of the reference's `llm-optimal-execution` space
 * (calculon-model.md §9), evaluated on all cores, ranked best first. Deterministic whatever the
 * thread count: ties keep the reference's enumeration order.
 */

#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/evaluate.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gapstudio::model {

enum class FusedActivationChoice : std::uint8_t { True, False, Both };

/// What is ranked first.
enum class RankBy : std::uint8_t {
    SampleRate, ///< samples per second (the reference's ranking)
    Mfu,        ///< total_efficiency
};

enum class OverlapChoice : std::uint8_t { Both, On, Off };

/// Layout choices a search keeps at the given values (the studio's "keep TP = 8"); unset ones
/// are searched. A pinned value the space cannot produce leaves the search empty.
struct LayoutPins {
    std::optional<std::int64_t> tensorPar, pipelinePar, dataPar, pipelineInterleaving, microbatchSize;
    std::optional<Recompute> recompute;
    std::optional<bool> optimizerSharding;
    [[nodiscard]] bool any() const noexcept
    {
        return tensorPar || pipelinePar || dataPar || pipelineInterleaving || microbatchSize || recompute
               || optimizerSharding;
    }
};

/// The search space and options of `llm-optimal-execution` (§9), or with `moeExperts` > 0 of
/// calculon-MoE's legacy `llm-optimal-execution-moe` (calculon-moe-model.md §10: EP = E,
/// ES = TP, expert DP from the grid, top-2 routing, no offloading, no all-gather redo).
struct SearchSpace {
    std::int64_t numProcs = 1;
    std::int64_t maxBatchSize = 1;
    Datatype datatype = Datatype::Float16;
    bool mbsBreak = false;          ///< -m: stop growing the microbatch once a size gives no valid layout
    bool tpOverlapVariants = true;  ///< false = --no-tp-overlap
    OverlapChoice dpOverlap = OverlapChoice::Both; ///< Off = --no-dp-overlap
    std::vector<TpCommType> tpCommTypes = {TpCommType::Ar, TpCommType::P2pRsAg, TpCommType::RsAg};
    std::int64_t moeExperts = 0;    ///< E > 0: the MoE search (evaluated with calculon-MoE semantics)
    FusedActivationChoice fused = FusedActivationChoice::True; ///< -f
    RankBy rankBy = RankBy::SampleRate;

    // Settings kept at a design's values (the studio's Explore); unset = the reference's search.
    std::optional<TpOverlap> tpOverlap;                   ///< with TP > 1, instead of tpOverlapVariants
    std::optional<AttentionType> attentionType;           ///< reference: multi-head
    std::optional<ActivationFunction> activationFunction; ///< reference: GeLU
    std::optional<std::int64_t> topKExperts;              ///< MoE search; reference: min(2, E)

    LayoutPins pins; ///< choices kept at the user's values
    /// A design's execution: every field the search does not vary keeps its value (the corrected
    /// model's context parallelism, attention kernel, MoE details, ...); num_procs is then
    /// numProcs * its context_par. Unset = the reference's defaults.
    std::optional<Execution> base;
};

struct SearchHit {
    Execution execution;
    Stats stats;
    double score = 0;
    std::uint64_t index = 0; ///< position in the reference's enumeration order
};

struct SearchResult {
    std::uint64_t configurations = 0; ///< evaluated executions
    std::uint64_t valid = 0;          ///< those without a diagnostic
    bool cancelled = false;
    std::vector<SearchHit> top;       ///< best first
};

struct SearchOptions {
    std::size_t topN = 1;
    unsigned threads = 0;                         ///< 0 = all hardware threads
    Quirks quirks = Quirks::calculon();        ///< dense search
    Quirks moeQuirks = Quirks::calculonMoe();  ///< MoE search
    Features features = Features::reference(); ///< the corrected model's features (evaluate.h)
    Calibration calibration;                   ///< used when features.calibrated
    const std::atomic<bool> *cancel = nullptr;    ///< set to stop early
    /// Called from worker threads after each task with (tasks done, tasks in all).
    std::function<void(std::size_t, std::size_t)> progress;
};

/// Searches the layouts of `app` on `sys` (calculon-model.md §9, steps 1-8).
[[nodiscard]] SearchResult searchLayouts(const Application &app, const System &sys, const SearchSpace &space,
                                         const SearchOptions &options);

/// The search space that keeps a design's own settings: its GPU count, its global batch as the
/// largest batch, its datatype, TP and DP overlap, TP communication type, fused activation,
/// attention type, activation function (MoE: experts and top-k), -m on, and every execution field
/// the search does not vary (`base`). Context parallelism stays as designed (the search lays out
/// the remaining num_procs / context_par GPUs); uneven first/last stages belong to the designed
/// pipeline depth, so they are kept only when `pins` fix that depth.
[[nodiscard]] SearchSpace designSearchSpace(const Execution &design, const LayoutPins &pins = {});

/// The search options that evaluate every layout with a design's own model: its quirks (for the
/// dense and the MoE search alike), the corrected model's features and its calibration. Every
/// search of a design (best layout, cost ranking, the studio's Explore) starts from these, so a
/// layout it lists is evaluated exactly as the design would be with that layout.
[[nodiscard]] SearchOptions designSearchOptions(const EvaluateOptions &design);

/// A search space in words, for notes and subtitles: "batch up to 2048, float8, 16 experts
/// (EP = experts, ES = TP), context parallel 2, TP overlap ring, DP overlap on, TP reduce-scatter/all-gather" (each part
/// only when the space fixes it; "every TP overlap" and "DP overlap on and off" when it varies them).
[[nodiscard]] std::string describeSearchSpace(const SearchSpace &space);

/// The divisors of `x` in ascending order (the search's candidate degrees).
[[nodiscard]] std::vector<std::int64_t> divisors(std::int64_t x);

/// Number of executions the search would evaluate (without -m), computed from the loop sizes
/// without building any; it stops counting as soon as the count exceeds `limit` (then the result
/// is some number above `limit`).
[[nodiscard]] std::uint64_t countLayouts(const Application &app, const System &sys, const SearchSpace &space,
                                         std::uint64_t limit = UINT64_MAX);

/// The most layouts gapstudio-cli search evaluates unless told otherwise (--max-layouts): about
/// ten minutes on two cores at ~1.5 million layouts per second per core.
inline constexpr std::uint64_t kDefaultMaxLayouts = 1'000'000'000;

} // namespace gapstudio::model
