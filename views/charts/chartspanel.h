#pragma once
/**
 * @file chartspanel.h
 * The studio's four charts in tabs (step time, bandwidth, efficiency gap, memory), all showing
 * the same results and the same pins. The tab bar's corner names the calibration that produced
 * the results (calibrationtext.h), shortened with "…" to the room the tabs leave (every tab stays
 * in view; the whole text is its tooltip and the status bar's).
 */

#include "results/pinnedscenarios.h"
#include "results/scenarioresults.h"

#include <QList>
#include <QPointer>
#include <QWidget>

class QTabWidget;

namespace gapstudio::views {

class ChartView;
class CornerNote;

class ChartsPanel final : public QWidget {
    Q_OBJECT

public:
    explicit ChartsPanel(QWidget *parent = nullptr);

    void setResults(ResultsPtr results);
    /// Draws every pin in every chart beside the current results (ChartView::setPins).
    void setPins(const QList<PinnedScenario> &pins);
    /// Compares every chart with `baseline` alone; nullptr clears the comparison.
    void setBaseline(ResultsPtr baseline);
    /// The design `own` at its best layout ("judge at best layout"): the efficiency gap gains the
    /// layout-choice loss; nullptr clears it.
    void setBestLayout(ResultsPtr own, ResultsPtr best);

    /// The charts in tab order.
    [[nodiscard]] QList<ChartView *> charts() const { return mCharts; }
    /// The chart with id `id` ("step_time", "bandwidth", "efficiency_gap", "memory"), or nullptr.
    [[nodiscard]] ChartView *chart(const QString &id) const;
    [[nodiscard]] ChartView *currentChart() const;
    /// Opens the chart shown in a window of its own ("Enlarge"), over the studio's window and at
    /// its size, which the window manager can maximise; it shows the same results, pins and
    /// best layout as the docked charts and follows their changes. Returns its chart.
    ChartView *enlargeCurrentChart();
    /// The calibration shown in the tab bar's corner (empty before results that were evaluated).
    [[nodiscard]] QString calibrationNote() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    /// Shows the calibration note in the width the tabs and the $ toggle leave.
    void fitCorner();
    /// A new chart of kind `id` in `parent` (the efficiency gap follows the $ toggle).
    ChartView *makeChart(const QString &id, QWidget *parent);
    /// The docked charts and the enlarged ones still open.
    [[nodiscard]] QList<ChartView *> allCharts() const;

    QTabWidget *mTabs = nullptr;
    CornerNote *mCalibration = nullptr;
    QWidget *mDollars = nullptr;
    QWidget *mEnlarge = nullptr;
    QList<QPointer<ChartView>> mEnlarged;
    ResultsPtr mResults, mBestOwn, mBestLayout; ///< what an enlarged chart opens with
    QList<PinnedScenario> mPins;
    QList<ChartView *> mCharts;
};

} // namespace gapstudio::views
