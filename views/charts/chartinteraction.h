#pragma once
/**
 * @file chartinteraction.h
 * What every chart of the studio does with the mouse: zoom with the wheel, pan by dragging, and
 * a right-click menu with Copy image, Export… and Reset zoom. The chart base (PlotChart,
 * plotchart.h) owns one per chart and calls rememberHome() after drawing, so Reset zoom returns to
 * what they drew. Export… is a request: ChartExporter (chartexporter.h) answers it with the
 * design's provenance and a file dialog. Zoomed or panned, a value label whose data point left the
 * view is hidden, and the others are cut at the plot area's edge: drawn beside the view, a label
 * once showed as a stray character ("s" of "ms") over the axis or at the plot's edge, on screen and
 * in the exported image. At the home view every label is drawn as its chart placed it.
 */

#include "charts/chartexport.h"

#include <QObject>

#include <functional>

class QCustomPlot;
class QMenu;
class QWidget;

namespace gapstudio::views {

class ChartInteraction : public QObject {
    Q_OBJECT

public:
    /// `source` gives the chart's export source (plot, size, headline, CSV rows).
    ChartInteraction(QCustomPlot *plot, std::function<ExportSource()> source, QObject *parent = nullptr);

    [[nodiscard]] QCustomPlot *plot() const { return mPlot; }
    /// The plot as a widget (for code that does not include qcustomplot.h).
    [[nodiscard]] QWidget *plotWidget() const;
    [[nodiscard]] ExportSource exportSource() const { return mSource(); }

    /// The axes' current ranges become the ones Reset zoom returns to.
    void rememberHome();
    /// Back to the ranges of the last rememberHome().
    void resetZoom();
    /// Whether an axis' range differs from its home (the user zoomed or panned).
    [[nodiscard]] bool isZoomed() const;
    /// Puts the chart as an image on the clipboard.
    void copyImage() const;
    /// The right-click menu (the caller owns it; tests trigger its actions).
    [[nodiscard]] QMenu *createMenu(QWidget *parent);

signals:
    /// The user chose Export… in the menu.
    void exportRequested();

private:
    /// Shows the data-anchored text labels that are in view (after every layout of the plot).
    void keepLabelsInView();

    QCustomPlot *mPlot;
    std::function<ExportSource()> mSource;
};

} // namespace gapstudio::views
