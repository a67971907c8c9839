#pragma once
/**
 * @file costinputs.h
 * The cost model's inputs the Cost and power panel edits: each a scenario override key (the ones
 * `eval --cost` and scenario files take, scenario/override_rules.h), its name in words, its display
 * unit and the value the design resolves to now.
 */

#include "gapstudio/scenario/scenario.h"

#include <QList>
#include <QString>

#include <functional>

namespace gapstudio::views {

struct CostInput {
    const char *key;     ///< override key, e.g. "cost.usd_per_kWh"
    QString name;        ///< "Electricity price"
    QString unit;        ///< display unit, e.g. "$/kWh", "billion tokens"
    double displayScale; ///< override value = display value x this
    double minimum, maximum;
    int decimals;
    /// The value the design has (overrides applied), in override units.
    std::function<double(const scenario::CompiledScenario &)> current;
};

/// Electricity price, PUE, depreciation, facility charge, token budget, the main prices, and the
/// goodput's storage bandwidth and job restart time.
[[nodiscard]] const QList<CostInput> &costInputs();

} // namespace gapstudio::views
