#pragma once
/**
 * @file runfiles.h
 * The user's own measured runs for "Calibrate to my runs": measurement files
 * (gapstudio.measurement, io::loadMeasurements; a folder is searched for them) and CSV tables of
 * runs (io::parseRunsCsv; the keyword "current" is the design open in the studio).
 */

#include "gapstudio/io/measurement_json.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace gapstudio::views {

struct LoadedRuns {
    std::vector<io::Measurement> runs;
    QString error; ///< the first error, one line naming the file and the place in it; empty if none
};

/// Reads every run of `paths` (`*.csv` as CSV tables, anything else as measurement files or
/// folders), in order; at the first error, no runs and the error. Run ids must be unique across the files and
/// `existing`.
[[nodiscard]] LoadedRuns loadRunFiles(const QStringList &paths, const scenario::Scenario &current,
                                      const std::vector<io::Measurement> &existing = {});

} // namespace gapstudio::views
