#pragma once
/**
 * @file report.h
 * File > Export Report: a multi-page A4 PDF of one design. Sections: title, date and how to
 * reproduce it; 1 key results (with the time and GPU-hours to train a token budget);
 * 2 diagnostics; 3 comparison with the baseline, or with every pinned design when there are several (only
 * when one is given); 4 the design (blocks
 * with their sources, then every parameter of each block, the layout and the GPU count);
 * 5 the roadmap, when one is given (its steps' table and chart); the four charts of the studio, as vectors,
 * every pinned design overlaid. The scenario JSON and the GapStudio version are in
 * the PDF's XMP metadata, where readProvenance() and restoreScenario() find them.
 *
 * Needs a QApplication (the charts are widgets); works under QT_QPA_PLATFORM=offscreen.
 */

#include "gapstudio/model/trainingtime.h"
#include "results/scenarioresults.h"
#include "roadmap/roadmapdata.h"

#include <QDateTime>
#include <QString>

#include <optional>
#include <vector>

namespace gapstudio::views {

struct ReportOptions {
    double tokenBudget = model::kDefaultTokenBudget; ///< tokens for "time to train"
    /// The scenario file to name in the "Reproduce" line; empty: the report itself (it embeds the design).
    QString scenarioFile;
    QString baselineFile; ///< named in the comparison section, if any
    QDateTime date = QDateTime::currentDateTime();
    RoadmapPtr roadmap; ///< when set, a Roadmap section (its steps' table and chart)
    /// The design the PDF embeds (File > Open restores it); default: `current.scenario`. The
    /// studio gives its self-contained design, with the user's own blocks written in.
    std::optional<scenario::Scenario> embedded;
};

/**
 * Writes the report of `current` (compared with `baseline` when not null) to `pdfPath`. An
 * infeasible design still gets a report: its diagnostics say why, and results it lacks show as
 * "—". Returns false with the reason in `error` (if given) when the file cannot be written.
 */
bool writeReport(const ScenarioResults &current, const ScenarioResults *baseline, const QString &pdfPath,
                 QString *error = nullptr, const ReportOptions &options = {});
/// The same, compared with every design in `pinned` (none, one: the baseline, or several side by side);
/// the charts compare with the first.
bool writeReport(const ScenarioResults &current, const std::vector<const ScenarioResults *> &pinned,
                 const QString &pdfPath, QString *error = nullptr, const ReportOptions &options = {});

} // namespace gapstudio::views
