#pragma once
/**
 * @file chartview.h
 * The common base of the studio's charts: one QCustomPlot showing one set of results, optionally
 * against a baseline, with a title, a legend below the plot, hover tool tips and CSV rows of
 * exactly what is plotted. Charts read views::ScenarioResults (model::Analysis); they compute no
 * model formula. They go by the results' status: a design that is not Ok is never drawn as a
 * result; the chart shows the reason instead (except the memory chart for OverCapacity).
 */

#include "results/scenarioresults.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QPointF>
#include <QSize>
#include <QStringList>
#include <QWidget>

#include "charts/chartexport.h"

class QCustomPlot;
class QCPAbstractPlottable;
class QCPAxis;
class QCPTextElement;
class QCPItemText;
class QMouseEvent;
class QResizeEvent;

namespace gapstudio::views {

class ChartInteraction;

class ChartView : public QWidget {
    Q_OBJECT

public:
    /// Size used for export when the chart has not been laid out on screen yet (pixels).
    static constexpr QSize kDefaultExportSize{1000, 560};

    ~ChartView() override;

    [[nodiscard]] QCustomPlot *plot() const { return mPlot; }
    /// Stable id ("step_time", "bandwidth", "efficiency_gap", "memory"), used in file names.
    [[nodiscard]] QString id() const { return mId; }
    /// Human name of the chart, e.g. "Step time".
    [[nodiscard]] QString title() const { return mTitle; }
    /// The headline shown above the plot (title plus the key number), or the title alone.
    [[nodiscard]] QString headline() const;
    /// The centered message shown instead of data ("No results: ..."), empty when data is shown.
    [[nodiscard]] QString message() const { return mMessage; }

    /// The plotted data as CSV rows, header first; numbers are the plotted values, unrounded.
    [[nodiscard]] virtual QList<QStringList> csvRows() const = 0;

    /// The hover text at `pos` (plot widget pixels), empty if nothing is under it.
    [[nodiscard]] QString toolTipAt(const QPointF &pos) const;

    /// Size to export at: the on-screen size once laid out, else kDefaultExportSize.
    [[nodiscard]] QSize exportSize() const;
    /// What an export of this chart takes (plot, size, headline, CSV rows).
    [[nodiscard]] ExportSource exportSource() const;
    /// Zoom, pan and the right-click menu (Copy image, Export…, Reset zoom).
    [[nodiscard]] ChartInteraction *interaction() const { return mInteraction; }

    void setResults(ResultsPtr current);
    /// Shows `baseline` next to the current results with the differences; nullptr clears it.
    void setBaseline(ResultsPtr baseline);
    [[nodiscard]] ResultsPtr results() const { return mCurrent; }
    [[nodiscard]] ResultsPtr baseline() const { return mBaseline; }

protected:
    ChartView(QString id, QString title, QWidget *parent);

    /// Draws the current analysis (never null here) and the baseline (may be null) into the
    /// cleared plot. Called after every setResults / setBaseline.
    virtual void rebuild(const model::Analysis &current, const model::Analysis *baseline) = 0;

    /// Current and baseline analyses when this chart may show them (shows()), else nullptr.
    [[nodiscard]] const model::Analysis *currentAnalysis() const;
    [[nodiscard]] const model::Analysis *baselineAnalysis() const;
    /// Whether the chart draws a design over memory capacity (the memory chart does: the overflow
    /// is its point). The others show why not instead: such a design never runs, so its times,
    /// bandwidths and MFU are not results.
    [[nodiscard]] virtual bool showsOverCapacity() const { return false; }

    void setHeadline(const QString &text);
    /// Registers the hover text of the data point at `key` of `plottable`.
    void setToolTip(QCPAbstractPlottable *plottable, double key, const QString &text);
    /// A text label anchored at plot coordinates (x, y) of the bottom axis and `yAxis` (default:
    /// the left axis); `alignment` says which side of the text touches the anchor.
    QCPItemText *addLabel(double x, double y, const QString &text, Qt::Alignment alignment,
                          QCPAxis *yAxis = nullptr);

    void resizeEvent(QResizeEvent *event) override;

private:
    [[nodiscard]] bool shows(const ResultsPtr &results) const;
    void refresh();
    /// Wraps the legend into as many columns as fit in `width` pixels.
    void fitLegend(int width);
    void clearPlot();
    void showMessage(const QString &text);
    void onMouseMove(QMouseEvent *event);

    QString mId;
    QString mTitle;
    QString mMessage;
    QCustomPlot *mPlot = nullptr;
    ChartInteraction *mInteraction = nullptr;
    QCPTextElement *mHeadline = nullptr;
    QCPItemText *mMessageItem = nullptr;
    ResultsPtr mCurrent;
    ResultsPtr mBaseline;
    QHash<QCPAbstractPlottable *, QMap<double, QString>> mToolTips;
};

} // namespace gapstudio::views
