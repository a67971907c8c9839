#pragma once
/**
 * @file pipeline.h
 * The one way a design becomes results: resolve presets -> compile -> evaluate -> analyze, ending
 * in an explicit status. The CLI, the studio, the report and the Explore dock all call it; nothing
 * else chains compile(), evaluate() and analyze() by hand. Pure (no I/O), never throws.
 *
 * Options and result are plain structs meant to grow (more scenario blocks, calibration, cost):
 * add fields with defaults, keep the status the one answer to "can these numbers be shown?".
 */

#include "gapstudio/model/analysis.h"
#include "gapstudio/model/evaluate.h"
#include "gapstudio/model/goodput.h"
#include "gapstudio/model/sweep.h"
#include "gapstudio/scenario/prediction_interval.h"
#include "gapstudio/scenario/scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gapstudio::scenario {

/// What became of a design, worst first.
enum class EvaluationStatus : std::uint8_t {
    Malformed,    ///< not a valid configuration: a missing preset, a bad override, TP not dividing
                  ///< the heads, a datatype the GPU lacks, ... No stats.
    Infeasible,   ///< a valid configuration the model rejects: a network tier too small, an
                  ///< interleaving that does not divide the blocks, ... No stats.
    OverCapacity, ///< evaluated, but a GPU needs more memory than a tier holds: only the memory
                  ///< numbers mean something (stats and analysis exist for the memory chart).
    Ok,           ///< evaluated, and it fits.
};

/// "malformed", "infeasible", "over_capacity", "ok" (stable, for files and scripts).
[[nodiscard]] const char *statusName(EvaluationStatus status) noexcept;

struct PipelineOptions {
    /// The reference's quirks (Calculon's, or calculon-MoE's for an MoE LLM) instead of the
    /// corrected model (scenarioQuirks()).
    bool referenceQuirks = false;
    bool withLayers = false; ///< fill evaluation.layers (the reference's -l)
    bool explain = true;     ///< false: diagnostics carry no message (bulk evaluations)
};

/// One memory tier a GPU overflows (OverCapacity).
struct MemoryShortfall {
    int tier = 1;          ///< 1 = HBM, 2 = tier-2 (offload) memory
    double need_B = 0;     ///< needed per GPU
    double capacity_B = 0; ///< available per GPU
};

struct PipelineResult {
    EvaluationStatus status = EvaluationStatus::Malformed;
    Scenario scenario;                        ///< the design as given (empty for runDesign)
    std::optional<CompiledScenario> compiled; ///< the model's inputs; empty if the scenario did not compile
    model::EvaluateOptions evaluateOptions;   ///< what it was evaluated with; what-ifs of it use the same
    model::Evaluation evaluation;             ///< its stats mean something only when hasStats()
    std::optional<model::Analysis> analysis;  ///< present exactly for Ok and OverCapacity
    model::Diagnostics diagnostics;           ///< the compile diagnostics, then the evaluation's
    std::vector<MemoryShortfall> shortfalls;  ///< OverCapacity: each tier that does not fit
    /// Cost and power (model/cost.h): present exactly for an Ok scenario (runScenario), with the
    /// scenario's cost assumptions.
    std::optional<model::CostResult> cost;
    /// Failures, checkpoints and restarts (model/goodput.h) with the scenario's reliability
    /// assumptions, and the effective throughput and cost: present exactly when `cost` is.
    std::optional<model::GoodputResult> goodput;
    /// How far the step time, throughput and MFU may be off (prediction_interval.h): present for an
    /// Ok corrected-model scenario with a fitted calibration (runScenario, runCompiled).
    std::optional<PredictionInterval> interval;
    std::string statusText;                   ///< one line in plain words, e.g. "Does not fit in memory: ..."

    [[nodiscard]] bool ok() const noexcept { return status == EvaluationStatus::Ok; }
    /// Stats and analysis exist (Ok or OverCapacity). Performance numbers may be shown only if ok().
    [[nodiscard]] bool hasStats() const noexcept { return analysis.has_value(); }
    /// The diagnostic that decides the status (the first of its class); nullptr when Ok.
    [[nodiscard]] const model::Diagnostic *cause() const noexcept;
    /// The goodput when the design runs and has a positive one (`goodput` valid, > 0); nullptr
    /// otherwise. What every view shows of it.
    [[nodiscard]] const model::GoodputResult *shownGoodput() const noexcept;
    /// The model's three inputs, when the scenario compiled.
    [[nodiscard]] std::optional<model::Design> design() const;
};

/// Resolves the scenario's presets from `library`, applies its overrides, compiles, evaluates
/// (corrected model unless options.referenceQuirks) and analyses it.
[[nodiscard]] PipelineResult runScenario(const Scenario &scenario, const PresetLibrary &library,
                                         const PipelineOptions &options = {});

/// The evaluate -> analyze stages of a compiled scenario (runScenario after compiling; a variant
/// of a compiled design, e.g. at another layout). `scenario` in the result stays empty.
[[nodiscard]] PipelineResult runCompiled(const CompiledScenario &compiled,
                                         const PipelineOptions &options = {});

/// The evaluate -> analyze stages for inputs that are already the model's (the reference's three
/// files, a what-if variant of a design), with the evaluation options given.
[[nodiscard]] PipelineResult runDesign(const model::Design &design, const model::EvaluateOptions &options);

} // namespace gapstudio::scenario
