#pragma once
/**
 * @file efficiencygapchart.h
 * The efficiency gap as a waterfall (model::Analysis::gap): from 100% of peak, each loss is a
 * floating bar down to the next level, and the last bar is the achieved MFU. The losses and the
 * MFU add up to 100%. With a baseline, each step shows both runs and the difference.
 */

#include "charts/chartview.h"

namespace gapstudio::views {

class EfficiencyGapChart final : public ChartView {
    Q_OBJECT

public:
    explicit EfficiencyGapChart(QWidget *parent = nullptr);

    [[nodiscard]] QList<QStringList> csvRows() const override;

protected:
    void rebuild(const model::Analysis &current, const model::Analysis *baseline) override;
};

} // namespace gapstudio::views
