#pragma once
/**
 * @file scalingchart.h
 * Throughput (samples/s, and tokens/s on an outer axis) and MFU against GPU count, each point
 * being the best layout the search finds at that count (model::sweepGpuCount). Counts without any
 * valid layout are gaps, marked on the axis with the reason in the tool tip.
 */

#include "explore/explorechart.h"

#include "gapstudio/model/sweep.h"

#include <vector>

class QCPAxis;

namespace gapstudio::views {

class ScalingChart final : public ExploreChart {
    Q_OBJECT

public:
    explicit ScalingChart(QWidget *parent = nullptr);

    /**
     * Shows `points` (x = GPU count, layout = the best layout, as sweepGpuCount returns them).
     * `seqSize` (tokens per sample) converts samples/s to tokens/s; `currentGpus` > 0 marks the
     * design's own count; `note` says which search space was swept (shown as the subtitle).
     */
    void setData(std::vector<model::SweepPoint> points, std::int64_t seqSize, std::int64_t currentGpus = 0,
                 const QString &note = {});
    [[nodiscard]] const std::vector<model::SweepPoint> &points() const { return mPoints; }

    [[nodiscard]] QList<QStringList> csvRows() const override;

private:
    void rebuild();

    std::vector<model::SweepPoint> mPoints;
    std::int64_t mSeqSize = 1;
    std::int64_t mCurrentGpus = 0;
    QString mNote;
    QCPAxis *mTokensAxis = nullptr; ///< outer left axis: the samples/s axis times the sequence length
};

} // namespace gapstudio::views
