#pragma once
/**
 * @file chartview.h
 * The result charts' base: a PlotChart (plotchart.h) showing one design's results, optionally
 * beside every pinned design (an overlay of the pins). With one pin the chart calls it "baseline";
 * with several, "pin 1", "pin 2", ... in pin order. The headline and the current run's labels give
 * the difference from the first pin; the current run's tool tips give it from every pin. Charts
 * read views::ScenarioResults (model::Analysis); they compute no model formula. They go by the
 * results' status: a design that is not Ok is never drawn as a result; the chart shows the reason
 * instead (except the memory chart for OverCapacity).
 */

#include "charts/plotchart.h"
#include "results/pinnedscenarios.h"
#include "results/scenarioresults.h"

#include <QList>

#include <functional>
#include <vector>

class QBrush;

namespace gapstudio::views {

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

class ChartView : public PlotChart {
    Q_OBJECT

public:
    void setResults(ResultsPtr current);
    /// Draws every pin beside the current results, in pin order, with the differences; an empty
    /// list clears the comparison. A pin this chart cannot show (not Ok) is left out; the others
    /// keep their numbers.
    void setPins(QList<PinnedScenario> pins);
    /// The one-pin case: compares with `baseline` alone ("baseline"); nullptr clears it.
    void setBaseline(ResultsPtr baseline);
    [[nodiscard]] ResultsPtr results() const { return mCurrent; }
    [[nodiscard]] const QList<PinnedScenario> &pins() const { return mPins; }
    /// Whether the pins are numbered ("pin 1", "pin 2", ...: several) rather than one "baseline".
    [[nodiscard]] bool numbersPins() const { return mPins.size() > 1; }
    /// The first pin's results (the one differences are taken from); nullptr without pins.
    [[nodiscard]] ResultsPtr baseline() const { return mPins.isEmpty() ? nullptr : mPins.front().results; }

protected:
    ChartView(QString id, QString title, QWidget *parent);

    /// Draws the current analysis (never null here) and the pins it shows (pinRuns(), maybe none)
    /// into the cleared plot. Called after every setResults / setPins (once the chart is shown).
    virtual void rebuild(const model::Analysis &current, const std::vector<ChartRun> &pins) = 0;

    /// The current analysis when this chart may show it (shows()), else nullptr.
    [[nodiscard]] const model::Analysis *currentAnalysis() const;
    /// The pins this chart shows, in pin order (empty without a current analysis).
    [[nodiscard]] std::vector<ChartRun> pinRuns() const;
    /// The current run (its analysis null when the chart does not show it).
    [[nodiscard]] ChartRun currentRun() const;
    /// With several pins, one legend entry per pin saying which design "pin K" is, its key
    /// `brushOf(pin)`; without brushOf, no key fill (the axis labels tell the runs apart). Nothing
    /// with one pin.
    void addPinKeys(const std::vector<ChartRun> &pins,
                    const std::function<QBrush(const ChartRun &)> &brushOf = {});
    /// Whether the chart draws a design over memory capacity (the memory chart does: the overflow
    /// is its point). The others show why not instead: such a design never runs, so its times,
    /// bandwidths and MFU are not results.
    [[nodiscard]] virtual bool showsOverCapacity() const { return false; }
    /// Clears the plot and draws the current results and pins (or why there are none).
    void draw() override;

private:
    [[nodiscard]] bool shows(const ResultsPtr &results) const;

    ResultsPtr mCurrent;
    QList<PinnedScenario> mPins;
};

} // namespace gapstudio::views
