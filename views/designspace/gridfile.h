#pragma once
/**
 * @file gridfile.h
 * A hardware-grid result file as `gapstudio-cli grid` writes it (README "Large design spaces"):
 * JSON lines, one per point, {"point", "overrides", "status", "message", "layout", "results"}.
 * Read whole for the studio's grid heatmap; a bad line is an error naming the file and the line.
 */

#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gapstudio::views {

struct GridPoint {
    std::uint64_t index = 0;               ///< "point"
    std::vector<double> knobs;             ///< the override values, in GridFile::knobs order
    std::string status;                    ///< "ok", "malformed", "infeasible", "over_capacity"
    std::string message;                   ///< why not ok
    std::map<std::string, double> results; ///< "results" (ok points only)
    std::map<std::string, double> layout;  ///< the numeric fields of "layout" (tensor_par, ...)
};

struct GridFile {
    QString path;
    std::vector<std::string> knobs;              ///< the override keys, as on the first line
    std::vector<std::vector<double>> knobValues; ///< each knob's distinct values, ascending
    std::vector<std::string> metrics;            ///< the numeric results keys, as on the first ok line
    std::vector<GridPoint> points;               ///< in file order
};

/// Parses the text of a grid file (`path` names it in errors). Blank lines are skipped; on the
/// first bad line returns nullopt with "FILE, line N: what is wrong" in `error`.
[[nodiscard]] std::optional<GridFile> parseGridFile(const QByteArray &text, const QString &path,
                                                    QString *error);

/// Reads and parses `path` (errors as parseGridFile, or why the file cannot be read).
[[nodiscard]] std::optional<GridFile> readGridFile(const QString &path, QString *error);

} // namespace gapstudio::views
