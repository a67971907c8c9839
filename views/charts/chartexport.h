#pragma once
/**
 * @file chartexport.h
 * One export path for every chart: PNG, PDF, SVG or CSV by file suffix, each carrying the
 * scenario it was made from (provenance) so that a figure can be traced back to its inputs:
 * - .png: text chunks "gapstudio.scenario" (the JSON), "gapstudio.version",
 *   "gapstudio.calibration" and "Title" (the headline and the design's name);
 * - .pdf: vector (QPdfWriter), creator and title in the info dictionary, the JSON in the XMP
 *   metadata (element gapstudio:scenario), the calibration as gapstudio:calibration;
 * - .svg: vector (QSvgGenerator), the JSON as the document's <desc>, the calibration after the
 *   headline in its <title>;
 * - .csv: the chart's csvRows() after a first line "# gapstudio <version> scenario: <JSON>" and,
 *   when the chart shows results, a second line "# calibration: <calibration in words>".
 * The calibration is the one that produced the results (calibrationtext.h).
 */

#include <QImage>
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

class QCustomPlot;

namespace gapstudio::views {

class ChartView;

/// What an export needs of any plot: the plot, its export size, a headline (document title) and
/// its data as CSV rows, header first; the calibration that produced it (empty: not written);
/// optionally the design's name (Scenario properties), which PNG, PDF and SVG carry as their
/// title next to the headline.
struct ExportSource {
    QCustomPlot *plot = nullptr;
    QSize size;
    QString headline;
    QList<QStringList> rows;
    QString calibration;
    QString design;
};

/// The GapStudio version written into exports.
[[nodiscard]] QString gapstudioVersion();

/// Writes `chart` to `path` in the format given by its suffix (png, pdf, svg, csv; case-
/// insensitive) with `provenanceJson` and the calibration of its results embedded. `scale`
/// multiplies the PNG's pixel size. The file is made in memory and written safely
/// (common/safewrite.h): complete, or untouched. Returns false with a reason in `error` (if
/// given: "path: OS reason") for an unknown suffix or a write error.
bool exportChart(const ChartView &chart, const QString &path, const QString &provenanceJson,
                 double scale = 1.0, QString *error = nullptr);

/// exportChart for any plot (e.g. the explore charts).
bool exportPlot(const ExportSource &source, const QString &path, const QString &provenanceJson, double scale = 1.0,
                QString *error = nullptr);

/// The scenario JSON embedded by exportChart in a PNG, SVG, PDF or CSV file; empty if none.
/// Reads only a regular file of at most io::kMaxInputBytes and XML nested at most 256 deep;
/// `problem` (if given) says why a file could not be read.
[[nodiscard]] QString readProvenance(const QString &path, QString *problem = nullptr);
/// readProvenance on a file's content (the fuzz harness feeds it mutated exports).
[[nodiscard]] QString provenanceFromBytes(const QByteArray &content, QString *problem = nullptr);

/// Writes `image` (a screenshot of the studio's window) to `path` as a PNG with the design's
/// provenance, as exportChart does, and the step time the picture shows (text chunk
/// "gapstudio.step_time_s", when the design has one): a picture in the documentation can then be
/// checked against the app that would make it now. Written safely; false with a reason in `error`.
bool exportScreenshot(QImage image, const QString &path, const QString &provenanceJson,
                      std::optional<double> stepTime_s, QString *error = nullptr);
/// The step time a PNG written by exportScreenshot says it shows; empty if it says none.
[[nodiscard]] std::optional<double> screenshotStepTime(const QString &path);

} // namespace gapstudio::views
