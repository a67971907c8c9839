#pragma once
/**
 * @file headlessstatus.h
 * The exit status of the GUI's headless runs (--export-report, --export-charts, --screenshot),
 * the same contract and messages as gapstudio-cli (scenario/locate.h): 0 ok, 1 infeasible
 * design (outputs still written: they show why), 2 malformed input (nothing written), 3 an
 * output or standard output could not be written. Messages go to stderr as the CLI's do: one
 * line per cause, "error: ...".
 */

#include "results/scenarioresults.h"

#include <QString>

namespace gapstudio::views {

/// The one way a headless run reports a failure: "error: MESSAGE" on one line of stderr, as
/// gapstudio-cli does (README, Exit status).
void printHeadlessError(const QString &message);

/// 2 with a message naming the scenario file and the JSON pointer if `results` come from a
/// malformed scenario (it does not compile, or holds numbers the model cannot compute with),
/// else 0.
[[nodiscard]] int headlessInputStatus(const ScenarioResults &results, const QString &scenarioFile);

/// The final status once every output is written: 3 if standard output lost data, 1 with the
/// diagnostics (in the scenario's terms) if the design is infeasible, else 0.
[[nodiscard]] int headlessFinish(const ScenarioResults &results, const QString &scenarioFile);

} // namespace gapstudio::views
