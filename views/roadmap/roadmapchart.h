#pragma once
/**
 * @file roadmapchart.h
 * A roadmap's steps as four small bar charts side by side: throughput (samples/s), MFU, $ per
 * million tokens and J per token, one bar per step that runs, each labelled with its value and
 * its gain over the step before (x1.8 faster, x0.6 the cost, ...). The values and gains are the
 * model's (RoadmapData, scenario::evaluateRoadmap). Clicking a bar emits stepClicked().
 */

#include "explore/explorechart.h"
#include "roadmap/roadmapdata.h"

#include <array>

class QCPAxisRect;
class QCPBars;

namespace gapstudio::views {

class RoadmapChart final : public ExploreChart {
    Q_OBJECT

public:
    explicit RoadmapChart(QWidget *parent = nullptr);

    /// Draws `roadmap` (nullptr: a message asking to open one).
    void setRoadmap(RoadmapPtr roadmap);
    [[nodiscard]] RoadmapPtr roadmap() const { return mRoadmap; }

    /// The bars of `metric` (their keys are step numbers from 1), or nullptr before a roadmap.
    [[nodiscard]] QCPBars *bars(RoadmapMetric metric) const;
    /// The value plotted for `metric` in display units: MFU in percent, the others as the model gives them.
    [[nodiscard]] static double displayValue(RoadmapMetric metric, double modelValue);
    /// The step (0-based) whose bar is under `pos` (plot widget pixels), or -1.
    [[nodiscard]] int stepAt(const QPointF &pos) const;

    [[nodiscard]] QList<QStringList> csvRows() const override;

signals:
    void stepClicked(int index);

protected:
    void onCleared() override;

private:
    void drawMetric(std::size_t panel, RoadmapMetric metric);

    RoadmapPtr mRoadmap;
    std::array<QCPAxisRect *, 4> mRects {};
    std::array<QCPBars *, 4> mBars {};
};

} // namespace gapstudio::views
