#pragma once
// The studio's tests run on the shipped presets, loaded as the studio loads them: the search order
// of io/preset_locations.h (CTest runs without $GAPSTUDIO_PRESETS and with its own XDG_DATA_HOME,
// so that is the source tree's presets/, then the embedded copy), and on the shipped scenarios.

#include "studio/recalculator.h"
#include "studio/studioengine.h"

#include "gapstudio/io/preset_locations.h"

#include <string>

namespace gapstudio::test {

/// The studio's preset library (views::loadStudioLibrary), loaded once.
inline const scenario::PresetLibrary &shippedLibrary()
{
    static const scenario::PresetLibrary library = views::loadStudioLibrary();
    return library;
}

/// presets/scenarios/`file`, e.g. "default.gapstudio.json".
inline scenario::Scenario shippedScenario(const std::string &file)
{
    return io::loadShippedScenario("scenarios/" + file);
}

/// The studio's results for `scenario` (views::computeResults: the scenario pipeline).
inline views::ResultsPtr shippedResults(const scenario::Scenario &scenario)
{
    return views::computeResults(scenario, shippedLibrary());
}

/// The dense and MoE designs of the tests: GPT-3 175B on 4096 H100 in fp8 (Calculon validation
/// case 18) and the studio's default, the GPT-4-class 1.8T MoE on 4096 FullFlat GPUs.
inline constexpr const char *kDenseScenario = "gpt3-175b-4096-h100-fp8.gapstudio.json";
inline constexpr const char *kMoeScenario = "default.gapstudio.json";

/// A design that does not fit in memory: val01 (8 GPUs, TP 8, batch 4) training GPT-3 175B on
/// NVIDIA H100 (80 GiB of HBM, datasheet). Its 175e9 weights alone are 350 GB in fp16, 44 GB per
/// GPU over TP 8, and mixed-precision Adam adds about 12 bytes per weight more: far beyond 80 GiB.
inline scenario::Scenario overCapacityScenario()
{
    scenario::Scenario s = shippedScenario("val01-megatron-22b-a100.gapstudio.json");
    s.llm = { "gpt3-175b", std::nullopt };
    s.gpu = { "nvidia-h100-sxm-80gb", std::nullopt };
    return s;
}

} // namespace gapstudio::test
