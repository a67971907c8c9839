#pragma once
// The CLI's JSON rendering of the cost model's results (model/cost.h): names in snake case with
// units, the breakdowns as objects in the model's order.

#include "gapstudio/model/cost.h"

#include <nlohmann/json.hpp>

namespace gapstudio::cli {

/// The `cost` object of `eval SCENARIO --cost` (and of the roadmap and cost sweeps).
[[nodiscard]] nlohmann::ordered_json costToJson(const model::CostResult &cost);

/// The cost assumptions as JSON (their `cost.*` override keys without the prefix).
[[nodiscard]] nlohmann::ordered_json assumptionsToJson(const model::CostAssumptions &assumptions);

} // namespace gapstudio::cli
