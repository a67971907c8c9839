#pragma once
/**
 * @file builtinpresets.h
 * The built-in fallback library of studioengine.h: used when no presets/ folder is found, and by
 * the studio's tests (stable ids and values, independent of the shipped presets).
 */

#include "gapstudio/scenario/scenario.h"

namespace gapstudio::views::fallback {

[[nodiscard]] scenario::PresetLibrary library();
[[nodiscard]] scenario::Scenario defaultScenario();

} // namespace gapstudio::views::fallback
