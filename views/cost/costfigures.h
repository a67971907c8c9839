#pragma once
/**
 * @file costfigures.h
 * The Cost and power panel's key figures, read from the pipeline's cost result
 * (model::CostResult): $/hour, $/million tokens, J/token, MW, tokens/s per MW, and one training
 * run of the token budget (time, $, MWh, GPU-hours); then, from the goodput under failures
 * (model::GoodputResult), the goodput and the time and $/million tokens with failures. Nothing
 * is computed here but display units.
 */

#include "results/scenarioresults.h"

#include <QList>
#include <QString>

namespace gapstudio::views {

struct CostFigure {
    QString key;  ///< "usd_per_million_tokens", ... (the CLI's `cost` keys)
    QString name; ///< in words
    double value; ///< the model's number, in the unit of its key
    QString text; ///< for display, with its unit
};

/// A dollar amount as the figures show it: "$1,234", "$0.0775".
[[nodiscard]] QString money(double usd);

/// The figures of `results`: empty unless the design runs (status Ok) and has a cost; the
/// goodput's only when it has one.
[[nodiscard]] QList<CostFigure> costFigures(const ScenarioResults &results);
/// The figures' keys and names in order (values meaningless): the panel's layout.
[[nodiscard]] QList<CostFigure> costFigureNames();

} // namespace gapstudio::views
