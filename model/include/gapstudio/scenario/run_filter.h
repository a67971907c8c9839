#pragma once
/**
 * @file run_filter.h
 * Selecting measured runs by what they ran on (`calibrate` and `validate --only/--exclude
 * KEY=VALUE`), and the one definition of a run's GPU generation that the cross-generation
 * validation folds over.
 */
#include "gapstudio/io/measurement_json.h"
#include "gapstudio/scenario/scenario.h"

#include <string>
#include <vector>

namespace gapstudio::scenario {

/// What a run is selected by: `family`, `gpu` (the GPU's preset id), `gpu_arch` (its
/// architecture, the GPU id when its preset names none) or `software` (the stack's id).
struct RunFilter {
    std::string key, value;
    bool exclude = false; ///< drop the runs that match (else keep only those)
};

/// The keys a RunFilter accepts, in the order the CLI's help lists them.
[[nodiscard]] const std::vector<std::string> &runFilterKeys() noexcept;

/// A run's value for one key; empty when the run's presets do not resolve or the key is unknown.
[[nodiscard]] std::string runAttribute(const io::Measurement &run, const PresetLibrary &library,
                                       const std::string &key);

/// A GPU's generation: the architecture its preset names, else its id (a GPU of its own).
[[nodiscard]] std::string gpuGeneration(const Gpu &gpu);

/// A run's GPU generation (gpuGeneration of its resolved GPU; empty if it does not resolve).
[[nodiscard]] std::string runGeneration(const io::Measurement &run, const PresetLibrary &library);

/// Parses `KEY=VALUE`; throws std::invalid_argument naming the text and the keys it accepts.
[[nodiscard]] RunFilter parseRunFilter(const std::string &text, bool exclude);

/// The runs that pass every filter, in their order. Throws std::invalid_argument when a filter's
/// key is unknown or its value matches none of `runs` (naming the values the runs have), or
/// when no run is left.
[[nodiscard]] std::vector<io::Measurement> filterMeasurements(const std::vector<io::Measurement> &runs,
                                                              const PresetLibrary &library,
                                                              const std::vector<RunFilter> &filters);

} // namespace gapstudio::scenario
