#pragma once
/**
 * @file defaultscenario.h
 * The scenario GapStudio opens with: the reference model's GPT-3 175B on 4096 H100 (FP8), the
 * inputs of validation case 18, embedded as Qt resources (see resources/default_scenario/README.md).
 */

#include "gapstudio/io/calculon_json.h"

namespace gapstudio::views {

/// A short human name for the status bar and window titles.
inline constexpr const char *kDefaultScenarioName = "GPT-3 175B on 4096 H100 (FP8)";

/// Resource paths of the three embedded input files.
inline constexpr const char *kDefaultModelResource = ":/default_scenario/model.json";
inline constexpr const char *kDefaultExecutionResource = ":/default_scenario/execution.json";
inline constexpr const char *kDefaultSystemResource = ":/default_scenario/system.json";

/**
 * Reads and parses the embedded default scenario through the model's strict JSON readers.
 * Throws io::InputError (naming the resource path) if a resource is missing or malformed,
 * which would be a build error, not a user error.
 */
[[nodiscard]] io::CalculonInputs defaultScenario();

} // namespace gapstudio::views
