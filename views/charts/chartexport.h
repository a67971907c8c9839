#pragma once
/**
 * @file chartexport.h
 * One export path for every chart: PNG, PDF, SVG or CSV by file suffix, each carrying the
 * scenario it was made from (provenance) so that a figure can be traced back to its inputs:
 * - .png: text chunks "gapstudio.scenario" (the JSON), "gapstudio.version" and
 *   "gapstudio.calibration";
 * - .pdf: vector (QPdfWriter), creator and title in the info dictionary, the JSON in the XMP
 *   metadata (element gapstudio:scenario), the calibration as gapstudio:calibration;
 * - .svg: vector (QSvgGenerator), the JSON as the document's <desc>, the calibration after the
 *   headline in its <title>;
 * - .csv: the chart's csvRows() after a first line "# gapstudio <version> scenario: <JSON>" and,
 *   when the chart shows results, a second line "# calibration: <calibration in words>".
 * The calibration is the one that produced the results (calibrationtext.h).
 */

#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>

class QCustomPlot;

namespace gapstudio::views {

class ChartView;

/// What an export needs of any plot: the plot, its export size, a headline (document title), its
/// data as CSV rows, header first, and the calibration that produced it (empty: not written).
struct ExportSource {
    QCustomPlot *plot = nullptr;
    QSize size;
    QString headline;
    QList<QStringList> rows;
    QString calibration;
};

/// The GapStudio version written into exports.
[[nodiscard]] QString gapstudioVersion();

/// Writes `chart` to `path` in the format given by its suffix (png, pdf, svg, csv; case-
/// insensitive) with `provenanceJson` and the calibration of its results embedded. `scale` multiplies the
/// PNG's pixel size. Returns false with a reason in `error` (if given) for an unknown suffix or a write
/// error.
bool exportChart(const ChartView &chart, const QString &path, const QString &provenanceJson,
                 double scale = 1.0, QString *error = nullptr);

/// exportChart for any plot (e.g. the explore charts).
bool exportPlot(const ExportSource &source, const QString &path, const QString &provenanceJson, double scale = 1.0,
                QString *error = nullptr);

/// The scenario JSON embedded by exportChart in a PNG, SVG, PDF or CSV file; empty if none.
[[nodiscard]] QString readProvenance(const QString &path);

} // namespace gapstudio::views
