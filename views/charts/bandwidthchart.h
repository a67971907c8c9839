#pragma once
/**
 * @file bandwidthchart.h
 * How hard each network and memory tier works (model::Analysis::tiers): achieved against peak
 * bandwidth per tier (GB/s), how busy the tier is over the step, and the bandwidth that would
 * hide its communication fully (a marker). With pins, each tier shows every pin beside the current
 * run (pin 1 lighter, later pins hatched, each named in the legend).
 */

#include "charts/chartview.h"

namespace gapstudio::views {

class BandwidthChart final : public ChartView {
    Q_OBJECT

public:
    explicit BandwidthChart(QWidget *parent = nullptr);

    [[nodiscard]] QList<QStringList> csvRows() const override;

protected:
    void rebuild(const model::Analysis &current, const std::vector<ChartRun> &pins) override;
};

} // namespace gapstudio::views
