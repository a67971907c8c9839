#pragma once
/**
 * @file efficiencygapchart.h
 * The efficiency gap as a waterfall (model::Analysis::gap): from 100% of peak, each loss is a
 * floating bar down to the next level, down to the achieved MFU. The losses and the MFU add up to
 * 100%. In percent, a run with a goodput (failures, checkpoints and restarts, model/goodput.h)
 * goes on: "Failures and checkpoints" takes model::EfficiencyGap::failures off the MFU, and the
 * last bar is the effective MFU over the wall time. With pins, each step shows every pin beside the
 * current run (pin 1 lighter, later pins hatched) and the difference. In "judge at
 * best layout" mode the losses are those of the design at its best layout, followed by the
 * "layout choice" loss (scenario::layoutChoiceLoss) down to your layout's MFU (in percent only).
 * In dollars (setInDollars), the waterfall starts at the cost of one training run of the token
 * budget and each loss is what it costs of that run (model::gapInDollars); the current run only.
 */

#include "charts/chartview.h"
#include "gapstudio/model/cost.h"

#include <vector>

namespace gapstudio::views {

class EfficiencyGapChart final : public ChartView {
    Q_OBJECT

public:
    explicit EfficiencyGapChart(QWidget *parent = nullptr);

    [[nodiscard]] QList<QStringList> csvRows() const override;
    /// The design at its best layout for the results `own` (used while they are the chart's
    /// current results); nullptr clears it.
    void setBestLayout(ResultsPtr own, ResultsPtr best);

    /// Shows the gap in dollars of a training run (when the results have a cost) or in percent of peak.
    void setInDollars(bool dollars);
    [[nodiscard]] bool inDollars() const { return mInDollars; }

    /// What the waterfall is measured in: percent of peak, or dollars of one training run.
    struct Scale {
        /// The first bar: 100 % of peak, or the run's cost (with failures: over the wall time).
        double total = 100;
        std::vector<model::CostShare> amounts; ///< "useful" (the MFU) first, then each loss (gapInDollars' shape)
        bool dollars = false;
        QString totalLabel; ///< the first bar's name
    };

protected:
    void rebuild(const model::Analysis &current, const std::vector<ChartRun> &pinned) override;

private:
    /// The best layout's results when they belong to the current results and both are Ok.
    [[nodiscard]] const ScenarioResults *bestLayout() const;
    [[nodiscard]] Scale currentScale(const model::Analysis &current) const;

    ResultsPtr mBestFor, mBest;
    bool mInDollars = false;
};

} // namespace gapstudio::views
