#pragma once
/**
 * @file roadmapheadless.h
 * The roadmap's headless export (report/headless.h):
 *
 *   gapstudio --roadmap FILE.gapstudio-roadmap.json --export-roadmap OUT.{png,svg,pdf,csv}
 *
 * writes the Roadmap view's chart (RoadmapChart) without a window; with --export-report the
 * report gains a roadmap section. The chart embeds the roadmap's first step as its scenario
 * provenance (exports carry a scenario, and the first step is the whole design the others change).
 */

#include "roadmap/roadmapdata.h"

#include <QString>
#include <QStringList>

namespace gapstudio::views {

/// Reads `file` for a headless export: nullptr after a message on stderr (a file that cannot be
/// read, or a step that is not a valid design: "file: /steps/i: reason").
[[nodiscard]] RoadmapPtr loadRoadmapHeadless(const QString &file, const scenario::PresetLibrary &library);

/// Writes the roadmap chart of `roadmap` to `out` (format by suffix). Exit codes as headless.h:
/// 0 written, 1 written but a step does not run, 2 `out` is one of `inputs`, 3 not written.
[[nodiscard]] int exportRoadmapHeadless(const RoadmapData &roadmap, const QString &out,
                                        const QStringList &inputs);

} // namespace gapstudio::views
