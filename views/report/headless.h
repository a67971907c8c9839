#pragma once
/**
 * @file headless.h
 * The app's command-line exports, run without showing a window (app/main.cpp calls these):
 *
 *   gapstudio [--scenario FILE] [--baseline FILE] [--token-budget N] [--presets DIR]
 *             --export-report OUT.pdf
 *   gapstudio [--scenario FILE] [--baseline FILE] [--presets DIR] --export-charts DIR
 *   gapstudio --roadmap FILE.gapstudio-roadmap.json [--presets DIR] --export-roadmap OUT.png
 *
 * (--roadmap with --export-report adds the roadmap's section to the report; report/roadmapheadless.h)
 * (both exports may be given at once). The presets are those of --presets DIR alone, else of the
 * search order of io/preset_locations.h. Without --scenario the default scenario
 * (scenarios/default.gapstudio.json of DIR, else of the first preset folder that has it) is used.
 * The results come from the studio's computeResults (the scenario pipeline). FILE may be a scenario file or
 * any GapStudio export that carries one (PNG, SVG, PDF, CSV, report PDF). --export-charts writes DIR/<chart
 * id>.{png,pdf,svg,csv} for each of the four charts, with the scenario embedded.
 *
 * Exit codes: 0 success; 1 the design is infeasible (the model rejects it or it exceeds memory:
 * the report and charts are written anyway, the report's diagnostics say why, because a report
 * of an infeasible design is useful); 2 bad arguments, or a scenario or preset folder that cannot
 * be read or compiled (one line on stderr: "file: /json/pointer: message"); 3 an output that
 * cannot be written.
 */

#include "results/scenarioresults.h"

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>

namespace gapstudio::views {

inline constexpr int kHeadlessOk = 0;
inline constexpr int kHeadlessInfeasible = 1;
inline constexpr int kHeadlessBadInput = 2;
inline constexpr int kHeadlessWriteFailed = 3;

/// Whether `arguments` ask for a headless export (--export-report or --export-charts).
[[nodiscard]] bool isHeadlessRequest(const QStringList &arguments);

/// Call before constructing the QApplication: for a headless export (or --help / --version)
/// without QT_QPA_PLATFORM set, selects the offscreen platform, so that no display is needed.
void preferOffscreenForHeadless(int argc, char **argv);

/// The headless options other than --scenario (which the GUI shares), for the GUI's --help.
[[nodiscard]] QList<QCommandLineOption> headlessOptions();

/// Runs the exports `arguments` ask for (arguments()[0] is the program). Needs a QApplication.
/// Returns the exit code (see above); messages go to stdout / stderr.
[[nodiscard]] int runHeadless(const QStringList &arguments);

} // namespace gapstudio::views
