#pragma once
/**
 * @file memorychart.h
 * Memory per GPU against capacity (model::Analysis::memory): a stacked bar of the tier-1 (HBM)
 * components in GiB under a capacity line, the overflow in red with "needs X GiB, has Y GiB",
 * and tier 2 when the system has it. With pins, every pin and the current run side by side.
 */

#include "charts/chartview.h"

namespace gapstudio::views {

class MemoryChart final : public ChartView {
    Q_OBJECT

public:
    explicit MemoryChart(QWidget *parent = nullptr);

    [[nodiscard]] QList<QStringList> csvRows() const override;

protected:
    [[nodiscard]] bool showsOverCapacity() const override { return true; }
    void rebuild(const model::Analysis &current, const std::vector<ChartRun> &pins) override;
};

} // namespace gapstudio::views
