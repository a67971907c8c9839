#pragma once
// Results for the chart tests, as the studio computes them (the scenario pipeline on the shipped
// presets): a dense GPT-3 design, the MoE default, one over memory capacity and one without stats.

#include "shippedresults.h"

#include <QMetaType>

#include <cmath>
#include <memory>

namespace gapstudio::test {

inline views::ResultsPtr denseResults()
{
    return shippedResults(shippedScenario(kDenseScenario));
}

inline views::ResultsPtr moeResults()
{
    return shippedResults(shippedScenario(kMoeScenario));
}

inline views::ResultsPtr overCapacityResults()
{
    return shippedResults(overCapacityScenario());
}

/// The dense design made malformed (TP 3 divides neither the 96 heads nor the 4096 GPUs): no stats.
inline views::ResultsPtr resultsWithoutStats()
{
    scenario::Scenario s = shippedScenario(kDenseScenario);
    s.overrides["layout.tensor_par"] = 3;
    return shippedResults(s);
}

/// Relative comparison for plotted doubles.
inline bool fuzzy(double actual, double expected, double tolerance = 1e-12)
{
    return std::abs(actual - expected) <= tolerance * std::max({1.0, std::abs(actual), std::abs(expected)});
}

} // namespace gapstudio::test

Q_DECLARE_METATYPE(gapstudio::views::ResultsPtr)
