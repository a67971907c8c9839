#pragma once
/**
 * @file best_layout.h
 * A design judged at its best parallel layout: the layout search (model/search.h) over the
 * design's own hardware, LLM and settings, with the design's own model (quirks, the corrected
 * model's features, calibration), then the best layout through the scenario pipeline. Used by
 * `gapstudio-cli grid --best-layout` and the studio's "judge at best layout"; sweeps, scaling and
 * the roadmap can call it per point. Pure (no I/O), never throws.
 */

#include "gapstudio/model/search.h"
#include "gapstudio/scenario/pipeline.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>

namespace gapstudio::scenario {

struct BestLayoutOptions {
    model::LayoutPins pins;                    ///< choices kept at the user's values
    unsigned threads = 0;                      ///< search threads (0 = all hardware threads)
    const std::atomic<bool> *cancel = nullptr; ///< set to stop early
    /// Called from worker threads with (tasks done, tasks in all).
    std::function<void(std::size_t, std::size_t)> progress;
};

struct BestLayoutResult {
    /// The design at its best layout (status Ok), or, when no layout is valid, the design as
    /// given with its own status; `found` says which.
    PipelineResult result;
    bool found = false;
    bool cancelled = false;
    model::SearchSpace space;         ///< what was searched
    std::uint64_t configurations = 0; ///< layouts in the space
    /// Layouts evaluated: the others provably cannot beat the best (model/search_bounded.h).
    std::uint64_t evaluated = 0;
    std::uint64_t valid = 0; ///< valid among those evaluated
};

/// Searches the best layout (by samples per second) of a compiled design with its own model
/// (model::designSearchSpace with the pins, model::designSearchOptions) and evaluates it through
/// the pipeline (same options as runScenario with `pipeline`).
[[nodiscard]] BestLayoutResult findBestLayout(const CompiledScenario &compiled,
                                              const BestLayoutOptions &options = {},
                                              const PipelineOptions &pipeline = {});

/// runScenario, then findBestLayout when the scenario compiles.
[[nodiscard]] BestLayoutResult runScenarioAtBestLayout(const Scenario &scenario, const PresetLibrary &library,
                                                       const BestLayoutOptions &options = {},
                                                       const PipelineOptions &pipeline = {});

/// The "layout choice" loss of the efficiency gap: the share of peak compute throughput a design's
/// own layout gives up against its best layout, MFU(best) - MFU(own), both the model's
/// model::EfficiencyGap::mfu (total_efficiency = ideal / total, docs/reference/calculon-model.md
/// §8.1; with the same LLM, batch and GPU count it is proportional to the sample rate the search
/// ranks by). Calculon (SC'23) compares designs each at its own optimal layout; this is what a
/// design loses by not running at it. Empty unless both are Ok.
[[nodiscard]] std::optional<double> layoutChoiceLoss(const PipelineResult &own,
                                                     const PipelineResult &best) noexcept;

} // namespace gapstudio::scenario
