#pragma once
/**
 * @file statusline.h
 * The main window's status bar text for one set of results, in words: the step time, throughput
 * and MFU of a design that runs and the calibration that produced them; otherwise why not (the pipeline's
 * status text: the memory shortfall of a design over capacity, the cause of an infeasible one), never its
 * numbers.
 */

#include "results/scenarioresults.h"

#include <QString>

namespace gapstudio::views {

[[nodiscard]] QString statusLine(const ScenarioResults &results);

} // namespace gapstudio::views
