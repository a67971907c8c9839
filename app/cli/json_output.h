#pragma once
// The CLI's JSON rendering of an evaluation: names and order from model::Stats / LayerStats.

#include "gapstudio/model/evaluate.h"
#include "gapstudio/scenario/prediction_interval.h"

#include <nlohmann/json.hpp>

namespace gapstudio::cli {

/// Which reference's statistics to print: Calculon's 96 or calculon-MoE's 122.
enum class StatsFormat { Calculon, CalculonMoe };

/// The statistics in the reference's order (NaN prints as null, like the reference's None).
[[nodiscard]] nlohmann::ordered_json statsToJson(const model::Stats &stats, StatsFormat format);

/// statsToJson plus "layers" when `withLayers`.
[[nodiscard]] nlohmann::ordered_json evaluationToJson(const model::Evaluation &evaluation, StatsFormat format,
                                                      bool withLayers);

/// The execution in the reference's JSON keys (23, or 33 for calculon-MoE).
[[nodiscard]] nlohmann::ordered_json executionToJson(const model::Execution &execution, StatsFormat format);

/// The prediction interval (scenario/prediction_interval.h): one standard deviation of the log step
/// time and its two parts, its basis, the ranges [low, high] it gives the step time, sample rate
/// and MFU, and with `withParameters` each fitted parameter's own part, largest first.
[[nodiscard]] nlohmann::ordered_json intervalToJson(const scenario::PredictionInterval &interval,
                                                    const model::Stats &stats, bool withParameters);

} // namespace gapstudio::cli
