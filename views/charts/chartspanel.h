#pragma once
/**
 * @file chartspanel.h
 * The studio's four charts in tabs (step time, bandwidth, efficiency gap, memory), all showing
 * the same results and the same baseline.
 */

#include "results/scenarioresults.h"

#include <QList>
#include <QWidget>

class QTabWidget;

namespace gapstudio::views {

class ChartView;

class ChartsPanel final : public QWidget {
    Q_OBJECT

public:
    explicit ChartsPanel(QWidget *parent = nullptr);

    void setResults(ResultsPtr results);
    /// Compares every chart with `baseline`; nullptr clears the comparison.
    void setBaseline(ResultsPtr baseline);

    /// The charts in tab order.
    [[nodiscard]] QList<ChartView *> charts() const { return mCharts; }
    /// The chart with id `id` ("step_time", "bandwidth", "efficiency_gap", "memory"), or nullptr.
    [[nodiscard]] ChartView *chart(const QString &id) const;
    [[nodiscard]] ChartView *currentChart() const;

private:
    QTabWidget *mTabs = nullptr;
    QList<ChartView *> mCharts;
};

} // namespace gapstudio::views
