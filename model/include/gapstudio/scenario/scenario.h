#pragma once
/**
 * @file scenario.h
 * A whole design (`*.gapstudio.json`): blocks by preset id or inline, the GPU count and
 * overrides; and compiling it into the reference model's three inputs.
 */

#include "gapstudio/model/diagnostics.h"
#include "gapstudio/model/evaluate.h"
#include "gapstudio/model/goodput.h"
#include "gapstudio/model/quirks.h"
#include "gapstudio/scenario/blocks.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gapstudio::scenario {

/// A block used by a scenario: a preset by id, or written inline (then `presetId` is empty).
template <typename Block> struct BlockRef {
    std::string presetId;
    std::optional<Block> inlineBlock;
    bool operator==(const BlockRef &) const = default;
};

struct Scenario {
    BlockInfo info;
    BlockRef<Gpu> gpu;
    BlockRef<Interconnect> scaleUp;  ///< tier 0 links (inside a domain)
    BlockRef<Interconnect> scaleOut; ///< tier 1 links (between domains); FullFlat may reuse scaleUp
    BlockRef<Topology> topology;
    BlockRef<Llm> llm;
    BlockRef<Layout> layout;
    /// Optional: the software stack (default: kDefaultSoftwareId) and the calibration the
    /// corrected model runs with (default: kDefaultCalibrationId).
    BlockRef<Software> software;
    BlockRef<CalibrationSet> calibration;
    /// Optional: the checkpoint storage (none: the goodput model's default bandwidth, unpriced
    /// and not in the bill of materials).
    BlockRef<Storage> storage;
    std::int64_t gpuCount = 0;
    /// Designer's tweaks on top of the blocks, by JSON key path in the blocks' units, e.g.
    /// {"gpu.hbm_bandwidth_GBps", 4000}. Applied after presets are resolved.
    std::map<std::string, double> overrides;
    bool operator==(const Scenario &) const = default;
};

/// All presets known to a session, by kind and id (loaded by io::loadPresetLibrary).
struct PresetLibrary {
    std::map<std::string, Gpu> gpus;
    std::map<std::string, Interconnect> interconnects;
    std::map<std::string, Topology> topologies;
    std::map<std::string, Llm> llms;
    std::map<std::string, Layout> layouts;
    std::map<std::string, Software> software;
    std::map<std::string, CalibrationSet> calibrations;
    std::map<std::string, Storage> storage;
};

/// What mergeLibrary() does with an id both libraries have.
enum class OnDuplicate { Keep, Replace };
/// Adds every preset of `from`, of every kind, to `into`; a preset whose id `into` already has
/// (for its kind) is kept (earlier preset folders win) or replaced (the user's newer copy).
void mergeLibrary(PresetLibrary &into, const PresetLibrary &from, OnDuplicate duplicate);

/// The software preset a scenario without one runs on: Megatron-Core with Transformer Engine,
/// the stack of most published runs (presets/software/megatron-core.json).
inline constexpr const char *kDefaultSoftwareId = "megatron-core";
/// The calibration shipped with GapStudio, fitted to the published runs in
/// presets/measurements (presets/calibrations/shipped.json).
inline constexpr const char *kDefaultCalibrationId = "shipped";

/// The blocks of a scenario with presets resolved and overrides applied.
struct ResolvedScenario {
    Gpu gpu;
    Interconnect scaleUp, scaleOut;
    Topology topology;
    Llm llm;
    Layout layout;
    std::int64_t gpuCount = 0;
    Software software;                     ///< the named or the default software stack
    std::optional<CalibrationSet> calibration; ///< absent: the corrected model's built-in defaults
    model::CostAssumptions costAssumptions;    ///< the cited defaults and the `cost.*` overrides
    model::ReliabilityAssumptions reliability; ///< the cited defaults and the `reliability.*` overrides
    std::optional<Storage> storage;            ///< the named checkpoint storage (bandwidths in `reliability`)
};

/// Which model a scenario is evaluated with: the corrected model (default), or the reference
/// models' quirks (`gapstudio-cli eval SCENARIO --reference-quirks`).
struct CompileOptions {
    bool referenceQuirks = false;
};

/// How close a calibration came to published runs (its fit summary), and whether a scenario's
/// GPU and software stack have entries of their own in it. With both, the error on the runs it
/// was fitted to applies. A software stack without an entry is one the fit has not seen, which
/// the leave-one-family-out error estimates (every family was predicted by a fit without it). A
/// GPU without an entry, even for its architecture, had no published run at all: the
/// leave-one-generation-out error estimates that (every GPU generation predicted by a fit
/// without its runs; the worst is taken).
struct CalibrationAccuracy {
    std::int64_t runs = 0;                    ///< published runs the calibration was fitted to
    double fittedMeanAbsError = 0;            ///< mean |measured / predicted - 1| on those runs
    double leaveOneFamilyOutMeanAbsError = 0; ///< the same, each family left out of its fit (0: not estimated)
    bool gpuHasEntry = false;                 ///< the GPU or its architecture has an entry
    bool softwareHasEntry = false;            ///< the software stack has an entry
    /// For a GPU without an entry: the largest mean |error| of a GPU generation predicted by a fit
    /// without its runs (FitSummary::leaveOneGenerationOutMeanAbsError), and that generation
    /// (0 and empty: not estimated).
    double unseenGenerationMeanAbsError = 0;
    std::string unseenGeneration;

    /// Which of the errors above applies to the scenario, as the comment above says.
    enum class Basis : std::uint8_t {
        FittedRuns,     ///< GPU and software stack have entries: the fitted runs' error
        UnseenSoftware, ///< the software stack has no entry: leave-one-family-out
        UnseenGpu,      ///< the GPU has no entry: the worst unseen generation's error
        Unestimated,    ///< the GPU has no entry and no generation was left out of the fit
    };
    [[nodiscard]] Basis basis() const noexcept;
    /// The mean |error| of the basis (0 when not estimated).
    [[nodiscard]] double meanAbsError() const noexcept;
};

/// Which fitted parameter (a FitSummary::parameters name) each calibrated value of a compiled
/// scenario came from; empty where the value is a built-in default or the designer's override.
/// The prediction interval (prediction_interval.h) propagates those parameters' covariance.
struct CalibrationSources {
    std::array<std::string, model::kDatatypeCount> gemmEfficiency;
    std::string gemmHalfDepth, attentionEfficiency, hbmEfficiency;
    std::string computeEfficiency, blockOverhead, overlapEfficiency, moeBlockOverhead, hostOpScale;
    std::vector<std::string> networkEfficiency; ///< per network tier of the system
};

/// The model's inputs for a scenario, and how to evaluate them.
struct CompiledScenario {
    model::Application application;
    model::Execution execution;
    model::System system; ///< corrected model: network tiers with calibrated efficiency/latency
    ResolvedScenario resolved;
    model::Quirks quirks = model::Quirks::corrected();
    model::Features features = model::Features::corrected();
    model::Calibration calibration;
    std::string calibrationNote; ///< which calibration entries produced it, in words
    /// The calibration's error on published runs; none without a calibration or its fit summary.
    std::optional<CalibrationAccuracy> calibrationAccuracy;
    CalibrationSources calibrationSources;

    /// Evaluation options for this scenario (quirks, features, calibration).
    [[nodiscard]] model::EvaluateOptions evaluateOptions(bool withLayers = false, bool explain = true) const
    {
        model::EvaluateOptions options;
        options.withLayers = withLayers;
        options.explain = explain;
        options.quirks = quirks;
        options.features = features;
        options.calibration = calibration;
        return options;
    }
};

/// Result of compiling: the inputs, or diagnostics saying why not (a missing preset, an
/// override naming no parameter, an LLM the model cannot express). Never throws.
struct CompileResult {
    std::optional<CompiledScenario> compiled;
    model::Diagnostics diagnostics;
};

/// One parameter a scenario's `overrides` may name (the key path, in the blocks' JSON units). The
/// one table of them (scenario/override_rules.h) also gives the words every view shows: the studio's
/// sliders, tool tips and cost fields, `grid --vary` and the list in presets/README.md.
struct OverrideKey {
    const char *key;         ///< e.g. "gpu.hbm_bandwidth_GBps"
    const char *label;       ///< short name, e.g. "HBM bandwidth"
    const char *unit;        ///< unit of the values, e.g. "GB/s"; empty for a count or a fraction
    const char *description; ///< a sentence for tool tips and messages
    bool integer;            ///< the value must be a whole number
    double minimum;          ///< smallest allowed value
    bool minimumIncluded;    ///< whether `minimum` itself is allowed
    double maximum;          ///< largest allowed value (model/limits.h, in the key's unit)
    bool maximumIncluded;    ///< whether `maximum` itself is allowed
};

/// Every key `Scenario::overrides` accepts, in a stable order (the table compile() applies).
[[nodiscard]] const std::vector<OverrideKey> &overrideKeys() noexcept;

/// The key `key` names, or nullptr.
[[nodiscard]] const OverrideKey *findOverrideKey(const std::string &key) noexcept;

/// The value a compiled design has for override `key`, in the key's unit: what the model uses, so
/// an override of that very value leaves the design's results as they are (a network tier's
/// efficiency and latency are the calibration's where it sets them; a price the preset lacks
/// reads 0). Nothing for an unknown key, or for "gpu.compute_scale", which scales the peaks
/// rather than naming one.
[[nodiscard]] std::optional<double> overrideKeyValue(const CompiledScenario &compiled, const std::string &key);

/// Why `value` cannot be given for override `key` (an unknown key, a number outside the key's
/// range, a fraction for a whole number), or nothing if it can. The scenario reader and
/// resolve() both apply it, so a file and the studio follow one rule.
[[nodiscard]] std::optional<std::string> overrideProblem(const std::string &key, double value);

/// The same for `text` as written on a command line or in a CSV cell: `value` is what strtod reads,
/// and all of the text must be a number, in the key's range, and, for a whole-number
/// key, exactly that number (2^53 + 1 and 2^64 are refused, never rounded or wrapped). The message
/// quotes `text` and names the range.
[[nodiscard]] std::optional<std::string> overrideTextProblem(const std::string &key, const std::string &text,
                                                             double &value);

/// Resolves presets and applies overrides only (no model inputs); diagnostics as for compile().
[[nodiscard]] std::optional<ResolvedScenario> resolve(const Scenario &scenario, const PresetLibrary &library,
                                                      model::Diagnostics &diagnostics);

/// Builds the model's three inputs from resolved blocks (appends diagnostics, e.g. a network
/// index beyond the topology's tiers). Never throws.
[[nodiscard]] std::optional<CompiledScenario> compileResolved(const ResolvedScenario &resolved,
                                                              model::Diagnostics &diagnostics,
                                                              const CompileOptions &options = {});

/// Resolves presets, applies overrides and builds the model's inputs (diagnostics use
/// DiagnosticCode::InvalidScenario, with `field` the scenario's JSON key path).
[[nodiscard]] CompileResult compile(const Scenario &scenario, const PresetLibrary &library,
                                    const CompileOptions &options = {});

/// The quirks a native scenario is evaluated with: corrected, unless the user asks for the
/// reference's (`gapstudio-cli eval SCENARIO --reference-quirks`).
[[nodiscard]] inline model::Quirks scenarioQuirks(bool referenceQuirks, bool moe) noexcept
{
    if (!referenceQuirks)
        return model::Quirks::corrected();
    return moe ? model::Quirks::calculonMoe() : model::Quirks::calculon();
}

} // namespace gapstudio::scenario
