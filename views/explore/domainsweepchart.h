#pragma once
/**
 * @file domainsweepchart.h
 * Step time and MFU of the design against the scale-up domain size (8 to 512 GPUs and the
 * design's own; network tier 0 size, model::sweepParameter with
 * HardwareParameter::ScaleUpDomainSize). The layout is kept, so
 * some sizes are infeasible (e.g. a domain smaller than TP must be filled): those are gaps,
 * marked on the axis with the model's diagnostic in the tool tip.
 */

#include "explore/explorechart.h"

#include "gapstudio/model/sweep.h"

#include <vector>

namespace gapstudio::views {

class DomainSweepChart final : public ExploreChart {
    Q_OBJECT

public:
    explicit DomainSweepChart(QWidget *parent = nullptr);

    /// Shows `points` (x = domain size in GPUs); `currentSize` > 0 marks the design's own size.
    void setData(std::vector<model::SweepPoint> points, std::int64_t currentSize = 0);
    [[nodiscard]] const std::vector<model::SweepPoint> &points() const
    {
        updateData();
        return mPoints;
    }
    /// "This design": the point at the design's own domain size, if among the points.
    [[nodiscard]] const model::SweepPoint *designPoint() const;

    [[nodiscard]] QList<QStringList> csvRows() const override;

private:
    void rebuild();

    std::vector<model::SweepPoint> mPoints;
    std::int64_t mCurrentSize = 0;
};

} // namespace gapstudio::views
