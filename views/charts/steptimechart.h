#pragma once
/**
 * @file steptimechart.h
 * Where one training step's time goes: a stacked horizontal bar of the exposed components of
 * model::Analysis::step (they add up to the step time) and a second bar of the communication
 * hidden behind compute. With pins, each bar is shown for every pin and the current run, with the
 * difference.
 */

#include "charts/chartview.h"

namespace gapstudio::views {

class StepTimeChart final : public ChartView {
    Q_OBJECT

public:
    explicit StepTimeChart(QWidget *parent = nullptr);

    [[nodiscard]] QList<QStringList> csvRows() const override;

protected:
    void rebuild(const model::Analysis &current, const std::vector<ChartRun> &pins) override;
};

} // namespace gapstudio::views
