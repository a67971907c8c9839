#pragma once
/**
 * @file goodputtext.h
 * The goodput under failures of a set of results (PipelineResult::goodput, model/goodput.h) in
 * plain words, for Key results and the PDF report.
 */

#include "results/scenarioresults.h"

#include <QString>

namespace gapstudio::views {

/// E.g. "96.1 % of wall time trains (an interruption every 12.4 h, a checkpoint every 19 min)";
/// empty when the design has no goodput (it cannot run).
[[nodiscard]] QString goodputText(const ScenarioResults &results);

/// Effective token rate with failures, e.g. "2,013,718 tokens/s"; empty without a goodput.
[[nodiscard]] QString effectiveTokenRateText(const ScenarioResults &results);

} // namespace gapstudio::views
