#pragma once
// One immutable set of results for one state of the scenario document, shared by every view
// (std::shared_ptr<const ScenarioResults>): the scenario pipeline's result (scenario/pipeline.h).
// Views read it and go by its status: performance numbers only when ok(), the memory chart also
// for OverCapacity; nothing in views/ recomputes it.

#include "gapstudio/scenario/pipeline.h"

#include <memory>

namespace gapstudio::views {

using ScenarioResults = scenario::PipelineResult;
using ResultsPtr = std::shared_ptr<const ScenarioResults>;

} // namespace gapstudio::views
