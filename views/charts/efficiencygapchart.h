#pragma once
/**
 * @file efficiencygapchart.h
 * The efficiency gap as a waterfall (model::Analysis::gap): from 100% of peak, each loss is a
 * floating bar down to the next level, and the last bar is the achieved MFU. The losses and the
 * MFU add up to 100%. With a baseline, each step shows both runs and the difference. In "judge at
 * best layout" mode the losses are those of the design at its best layout, followed by the
 * "layout choice" loss (scenario::layoutChoiceLoss) down to your layout's MFU.
 */

#include "charts/chartview.h"

namespace gapstudio::views {

class EfficiencyGapChart final : public ChartView {
    Q_OBJECT

public:
    explicit EfficiencyGapChart(QWidget *parent = nullptr);

    [[nodiscard]] QList<QStringList> csvRows() const override;
    /// The design at its best layout for the results `own` (used while they are the chart's
    /// current results); nullptr clears it.
    void setBestLayout(ResultsPtr own, ResultsPtr best);

protected:
    void rebuild(const model::Analysis &current, const model::Analysis *baseline) override;

private:
    /// The best layout's results when they belong to the current results and both are Ok.
    [[nodiscard]] const ScenarioResults *bestLayout() const;

    ResultsPtr mBestFor, mBest;
};

} // namespace gapstudio::views
