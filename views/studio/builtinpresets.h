#pragma once
/**
 * @file builtinpresets.h
 * The fallback half of studioengine.h: used only while the building-blocks part (issue 4) has
 * not landed the preset library and the scenario JSON I/O.
 */

#include "gapstudio/scenario/scenario.h"

#include <nlohmann/json.hpp>

namespace gapstudio::views::fallback {

[[nodiscard]] scenario::PresetLibrary library();
[[nodiscard]] scenario::Scenario defaultScenario();
[[nodiscard]] nlohmann::json toJson(const scenario::Scenario &scenario);
/// Throws std::runtime_error with the JSON path on a bad document.
[[nodiscard]] scenario::Scenario fromJson(const nlohmann::json &json);

} // namespace gapstudio::views::fallback
