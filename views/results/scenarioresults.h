#pragma once
// One immutable set of results for one state of the scenario document, shared by every view
// (std::shared_ptr<const ScenarioResults>). Views read it; nothing in views/ recomputes it.

#include "gapstudio/model/analysis.h"
#include "gapstudio/model/evaluate.h"
#include "gapstudio/scenario/scenario.h"

#include <memory>
#include <optional>

namespace gapstudio::views {

struct ScenarioResults {
    scenario::Scenario scenario;                   ///< the document state these results belong to
    std::optional<scenario::CompiledScenario> compiled; ///< empty if the scenario did not compile
    model::Evaluation evaluation;                  ///< ok == false: see evaluation.diagnostics
    std::optional<model::Analysis> analysis;       ///< present whenever the stats are meaningful
    model::Diagnostics diagnostics;                ///< compile diagnostics, then evaluation ones

    /// Stats are meaningful: compiled and evaluated (possibly over capacity: the memory chart
    /// then shows the overflow).
    [[nodiscard]] bool hasStats() const noexcept { return analysis.has_value(); }
};

using ResultsPtr = std::shared_ptr<const ScenarioResults>;

} // namespace gapstudio::views
