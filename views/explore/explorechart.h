#pragma once
/**
 * @file explorechart.h
 * The common base of the explore charts: one QCustomPlot with a title and a subtitle above the
 * plot, a legend below it, hover tool tips, a centered message when there is nothing to show,
 * and CSV rows of exactly what is plotted. The charts draw results computed by the model
 * (explorecompute.h); they compute nothing themselves. plot() is what chart export takes.
 */

#include "charts/chartexport.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QPointF>
#include <QStringList>
#include <QWidget>

class QCustomPlot;
class QCPAbstractPlottable;
class QCPGraph;
class QCPItemText;
class QCPTextElement;
class QMouseEvent;
class QResizeEvent;

namespace gapstudio::views {

class ChartInteraction;

class ExploreChart : public QWidget {
    Q_OBJECT

public:
    ~ExploreChart() override;

    [[nodiscard]] QCustomPlot *plot() const { return mPlot; }
    /// Stable id ("scaling", "domain_sweep", "tornado", "variants",
    /// "heatmap"), used in object and file names.
    [[nodiscard]] QString id() const { return mId; }
    [[nodiscard]] QString title() const { return mTitle; }
    [[nodiscard]] QString subtitle() const;
    /// The message shown instead of data, empty when data is shown.
    [[nodiscard]] QString message() const { return mMessage; }

    /// The plotted data as CSV rows, header first.
    [[nodiscard]] virtual QList<QStringList> csvRows() const = 0;
    /// The hover text at `pos` (plot widget pixels), empty if nothing is under it.
    [[nodiscard]] virtual QString toolTipAt(const QPointF &pos) const;

    /// Clears the chart and shows `text` (e.g. "Computing…", "Run sweeps to see …"), wrapped to
    /// the chart's width.
    void showMessage(const QString &text);
    /// Whether the chart shows data (not a message).
    [[nodiscard]] bool hasData() const { return mMessage.isEmpty(); }

    /// What an export of this chart takes: its plot at its on-screen size once laid out (else
    /// 1000 x 560), its title and its CSV rows.
    [[nodiscard]] ExportSource exportSource() const;
    /// Zoom, pan and the right-click menu (Copy image, Export…, Reset zoom).
    [[nodiscard]] ChartInteraction *interaction() const { return mInteraction; }

protected:
    ExploreChart(QString id, QString title, QWidget *parent);

    /// The MFU curve (percent, on the right axis), as every sweep chart draws it.
    QCPGraph *addMfuGraph();
    /// Crosses on the bottom axis for the points without a valid design, named `name` (hover
    /// gives the reason).
    QCPGraph *addInfeasibleGraph(const QString &name);
    /// Empties the plot (plottables, items, axis settings) before drawing new data.
    void clearPlot();
    /// Called at the end of clearPlot() for the chart's own layout elements.
    virtual void onCleared() { }
    void setSubtitle(const QString &text);
    /// Registers the hover text of the data point at `key` of `plottable`.
    void setToolTip(QCPAbstractPlottable *plottable, double key, const QString &text);
    /// A dotted vertical line at `x` of the bottom axis labelled "this design". Call after the
    /// bottom axis' range and scale are set.
    void markCurrent(double x);
    void replot();
    void resizeEvent(QResizeEvent *event) override;

private:
    void onMouseMove(QMouseEvent *event);
    [[nodiscard]] int messageWidth() const;
    /// Wraps the message (if shown) to messageWidth() and redraws.
    void rewrapMessage();

    QString mId;
    QString mTitle;
    QString mMessage;
    QCustomPlot *mPlot = nullptr;
    ChartInteraction *mInteraction = nullptr;
    QCPItemText *mMessageItem = nullptr;
    QCPTextElement *mTitleElement = nullptr;
    QCPTextElement *mSubtitleElement = nullptr;
    QHash<QCPAbstractPlottable *, QMap<double, QString>> mToolTips;
};

} // namespace gapstudio::views
