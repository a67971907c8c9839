#pragma once
/**
 * @file calibrationtext.h
 * Which calibration produced a set of results, in plain words, for every place that shows or
 * exports results (status bar, Key results, chart exports, the PDF report, the Validation view):
 * the corrected model's CompiledScenario::calibrationNote (the calibration preset and the GPU and
 * software entries it used), or that the reference models ran without one.
 */

#include "results/scenarioresults.h"

#include <QString>

namespace gapstudio::views {

/// The calibration behind `results`: e.g. "Calibration shipped: GPU hopper (architecture of
/// nvidia-h100-sxm-80gb), software megatron-core"; "Reference model (no calibration)" for the
/// reference models' mode; empty when nothing was evaluated (the design did not compile).
[[nodiscard]] QString calibrationText(const ScenarioResults &results);

/// How far to trust `results`, from their calibration's error on published runs
/// (CompiledScenario::calibrationAccuracy): the fitted runs' mean error when the GPU and the
/// software stack have entries of their own, the leave-one-family-out error for a stack the fit
/// has not seen, and "unknown" for a GPU no published run used. Empty without a fit summary.
[[nodiscard]] QString accuracyText(const ScenarioResults &results);

/// The prediction interval's sources in words (PipelineResult::interval): one standard deviation
/// of the parameters' part, with the parameter that contributes most, and of the model's part,
/// with the error it comes from. Empty without an interval.
[[nodiscard]] QString intervalText(const ScenarioResults &results);

/// calibrationText() of a note as the model writes it (CompiledScenario::calibrationNote,
/// ValidationRow::calibrationNote): the same words, starting with a capital.
[[nodiscard]] QString calibrationText(const std::string &note);

} // namespace gapstudio::views
