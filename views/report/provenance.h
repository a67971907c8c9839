#pragma once
/**
 * @file provenance.h
 * The scenario as provenance text, and back: every export (charts, report) embeds the scenario's
 * file text, and a scenario can be restored from any such file. The studio calls
 * restoreScenario() when a PNG, SVG, PDF or CSV export (or a *.gapstudio.json) is dropped onto
 * the app or opened.
 */

#include "gapstudio/scenario/scenario.h"

#include <QString>

#include <optional>

namespace gapstudio::views {

/// The scenario's file text (io::toText(io::toJson(scenario))): what exports embed.
[[nodiscard]] QString scenarioProvenance(const scenario::Scenario &scenario);

/// Parses provenance text (a scenario file's JSON; migrated like a file). `origin` names the
/// file in error messages. Errors ("origin: /json/pointer: message") come back in `error`.
[[nodiscard]] std::optional<scenario::Scenario>
scenarioFromProvenance(const QString &json, const QString &origin, QString *error = nullptr);

/// The scenario stored in `path`: a scenario file (`*.gapstudio.json`), or the provenance of a
/// PNG, SVG, PDF or CSV written by exportChart() or writeReport(). Never throws.
[[nodiscard]] std::optional<scenario::Scenario> restoreScenario(const QString &path,
                                                                QString *error = nullptr);

} // namespace gapstudio::views
