#pragma once
/**
 * @file roadmap.h
 * A roadmap's steps evaluated through the scenario pipeline (pipeline.h), with the cost model,
 * and the gain of each step over the one before it: what each change to the design buys.
 */

#include "gapstudio/scenario/pipeline.h"

#include <vector>

namespace gapstudio::scenario {

/// One step's result and its gains over the previous step (1 = no change; 0 = not comparable,
/// e.g. the first step or a step after one that did not evaluate).
struct RoadmapStepResult {
    PipelineResult result;
    double speedup = 0;     ///< samples/s over the previous step's
    double costRatio = 0;   ///< $/million tokens over the previous step's (< 1: cheaper)
    double energyRatio = 0; ///< J/token over the previous step's (< 1: less energy)
    /// Effective $/million tokens (failures, checkpoints and restarts counted: goodput.h) over the
    /// previous step's
    double effectiveCostRatio = 0;
};

/// Evaluates `steps` in order with `options` (runScenario each).
[[nodiscard]] std::vector<RoadmapStepResult> evaluateRoadmap(const std::vector<Scenario> &steps,
                                                             const PresetLibrary &library,
                                                             const PipelineOptions &options);

} // namespace gapstudio::scenario
