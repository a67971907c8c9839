#pragma once
// The CLI's JSON rendering of an evaluation: names and order from model::Stats / LayerStats.

#include "gapstudio/model/evaluate.h"

#include <nlohmann/json.hpp>

namespace gapstudio::cli {

/// The 96 statistics in the reference's order, plus "layers" when `withLayers`.
[[nodiscard]] nlohmann::ordered_json evaluationToJson(const model::Evaluation &evaluation, bool withLayers);

} // namespace gapstudio::cli
