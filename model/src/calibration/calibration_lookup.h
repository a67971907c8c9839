#pragma once
// Private to the scenario compiler: the calibration a corrected-model scenario runs with.

#include "gapstudio/scenario/scenario.h"

namespace gapstudio::scenario {

/// Fills compiled.calibration and compiled.calibrationNote from compiled.resolved.calibration
/// (GPU entry by id, then architecture, then "default"; software by id, then "default"; each
/// value falling back along the chain and finally to model::Calibration's defaults) and sets the
/// network tiers' efficiency and latency from the calibration's network entries (interconnect
/// id, then its role "scale_up" / "scale_out").
void applyCalibration(CompiledScenario &compiled);

/// Restores the link efficiency and latency the scenario's overrides set (a designer's override
/// wins over the calibration).
void keepOverriddenLinks(CompiledScenario &compiled, const Scenario &scenario);

/// The calibration values for one GPU and software stack (the lookup applyCalibration uses), with
/// the fitted parameter behind each value in `sources` (network tiers left empty).
[[nodiscard]] model::Calibration lookupCalibration(const CalibrationSet *set, const Gpu &gpu,
                                                   const Software &software, std::string *note = nullptr,
                                                   CalibrationSources *sources = nullptr);

} // namespace gapstudio::scenario
