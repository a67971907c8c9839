#pragma once
/**
 * @file cost.h
 * The cost model (model/cost.h) applied to a scenario: its bill of materials from the resolved
 * blocks (the GPU preset's price and server, the interconnects' parts, the topology's domains and
 * fat-tree levels) and its cost from the evaluation that predicted the step time.
 */

#include "gapstudio/model/cost.h"
#include "gapstudio/model/goodput.h"
#include "gapstudio/scenario/scenario.h"

namespace gapstudio::scenario {

/// The cost model's inputs: every GPU of the scenario, its scale-up domains (the topology's
/// domain size) and one scale-out network over all GPUs: a fat tree of the fewest levels that
/// fit (two-tier and FullFlat) or three levels with the topology's oversubscription (three-tier).
[[nodiscard]] model::ClusterSpec clusterSpec(const ResolvedScenario &resolved);

/// Cost and power of a compiled scenario whose evaluation gave `stats` and `analysis`, with the
/// scenario's cost assumptions (defaults and `cost.*` overrides).
[[nodiscard]] model::CostResult scenarioCost(const CompiledScenario &compiled, const model::Stats &stats,
                                             const model::Analysis &analysis);

/// The goodput of a compiled scenario under failures (model/goodput.h), with its effective figures:
/// the parts that fail are those `cost`'s bill of materials counts, the checkpoint is the state
/// the evaluation's memory figures hold, and the assumptions are the scenario's (defaults and
/// `reliability.*` overrides).
[[nodiscard]] model::GoodputResult scenarioGoodput(const CompiledScenario &compiled,
                                                   const model::Stats &stats, const model::Analysis &analysis,
                                                   const model::CostResult &cost);

/// The goodput of the design `compiled` run with `exe` instead of its own layout (another layout
/// or GPU count: the parts that fail are those of a cluster of exe.numProcs GPUs with the design's
/// blocks), whose evaluation is `evaluation`, with its effective MFU, tokens/s and days (no $
/// figures: the cluster has no cost here). With the design's own layout and evaluation its goodput
/// is scenarioGoodput's.
[[nodiscard]] model::GoodputResult scenarioGoodputAt(const CompiledScenario &compiled,
                                                     const model::Execution &exe,
                                                     const model::Evaluation &evaluation);

} // namespace gapstudio::scenario
