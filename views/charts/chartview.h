#pragma once
/**
 * @file chartview.h
 * The common base of the studio's charts: one QCustomPlot showing one set of results, optionally
 * beside every pinned design (an overlay of the pins), with a title, a legend below the plot, hover
 * tool tips and CSV rows of exactly what is plotted. With one pin the chart calls it "baseline";
 * with several, "pin 1", "pin 2", ... in pin order. The headline and the current run's labels give
 * the difference from the first pin; the current run's tool tips give it from every pin. Charts read
 * views::ScenarioResults (model::Analysis); they compute no model formula. They go by the results' status: a
 * design that is not Ok is never drawn as a result; the chart shows the reason instead (except the memory
 * chart for OverCapacity).
 */

#include "results/pinnedscenarios.h"
#include "results/scenarioresults.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QPointF>
#include <QSize>
#include <QStringList>
#include <QWidget>

#include "charts/chartexport.h"

#include <functional>
#include <vector>

class QCustomPlot;
class QCPAbstractPlottable;
class QBrush;
class QCPAxis;
class QCPTextElement;
class QCPItemText;
class QMouseEvent;
class QResizeEvent;

namespace gapstudio::views {

class ChartInteraction;

/// A run a chart draws: the current design, or a pinned one drawn beside it.
struct ChartRun {
    /// What CSV rows, axis labels and tool tips call it: "current"; "baseline" when it is the only
    /// pin; else "pin K", K counting the pins from 1 in pin order.
    QString run;
    QString name; ///< the pin's own name ("GPT-3 175B on 4096 H100"); empty for the current run
    const model::Analysis *analysis = nullptr;
    const ScenarioResults *results = nullptr;
    int pin = 0; ///< K for pin K, 0 for the current run
    [[nodiscard]] bool isPin() const { return pin > 0; }
    /// The run and, for a pin, its name: "pin 2 (GPT-3 175B on 4096 H100)"; for tool tips.
    [[nodiscard]] QString longName() const;
};

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
    /// The headline shown above the plot (title plus the key number), or the title alone; drawn
    /// wrapped to the plot's width.
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
    /// Draws every pin beside the current results, in pin order, with the differences; an empty
    /// list clears the comparison. A pin this chart cannot show (not Ok) is left out; the others
    /// keep their numbers.
    void setPins(QList<PinnedScenario> pins);
    /// The one-pin case: compares with `baseline` alone ("baseline"); nullptr clears it.
    void setBaseline(ResultsPtr baseline);
    [[nodiscard]] ResultsPtr results() const { return mCurrent; }
    [[nodiscard]] const QList<PinnedScenario> &pins() const { return mPins; }
    /// The first pin's results (the one differences are taken from); nullptr without pins.
    [[nodiscard]] ResultsPtr baseline() const { return mPins.isEmpty() ? nullptr : mPins.front().results; }

protected:
    ChartView(QString id, QString title, QWidget *parent);

    /// Draws the current analysis (never null here) and the pins it shows (pinRuns(), maybe none)
    /// into the cleared plot. Called after every setResults / setPins.
    virtual void rebuild(const model::Analysis &current, const std::vector<ChartRun> &pins) = 0;

    /// The current analysis when this chart may show it (shows()), else nullptr.
    [[nodiscard]] const model::Analysis *currentAnalysis() const;
    /// The pins this chart shows, in pin order (empty without a current analysis).
    [[nodiscard]] std::vector<ChartRun> pinRuns() const;
    /// The current run (its analysis null when the chart does not show it).
    [[nodiscard]] ChartRun currentRun() const;
    /// With several pins, one legend entry per pin saying which design "pin K" is, its key
    /// `brushOf(pin)` (Qt::NoBrush when the axis labels tell the runs apart). Nothing with one pin.
    void addPinKeys(const std::vector<ChartRun> &pins,
                    const std::function<QBrush(const ChartRun &)> &brushOf);
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
    /// Wraps the headline to the plot's width as laid out (on screen or for an export) and lays
    /// the plot out again when that changed its lines.
    void wrapHeadline();

    QString mId;
    QString mTitle;
    QString mMessage;
    QCustomPlot *mPlot = nullptr;
    ChartInteraction *mInteraction = nullptr;
    QCPTextElement *mHeadline = nullptr;
    QString mHeadlineText; ///< the headline, unwrapped
    QCPItemText *mMessageItem = nullptr;
    ResultsPtr mCurrent;
    QList<PinnedScenario> mPins;
    QHash<QCPAbstractPlottable *, QMap<double, QString>> mToolTips;
};

} // namespace gapstudio::views
