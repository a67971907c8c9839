#pragma once
/**
 * @file likelyrange.h
 * The likely range of a run's prediction (scenario::PipelineResult::interval) drawn as an error
 * bar along a chart's value axis: the step time's on the Step time chart, the MFU's on the
 * Efficiency gap chart. The range is the model's (PredictionInterval::range); the chart only
 * draws it.
 */

#include <QString>

#include <vector>

class QCPAxis;
class QCPErrorBars;

namespace gapstudio::views {

/// One error bar: the plotted value at `key` and the range around it, in the value axis' unit.
struct LikelyRange {
    double key = 0;
    double value = 0;
    double low = 0;
    double high = 0;
};

/// Error bars at `ranges` (keys ascending), listed in the legend as `name`; nullptr when `ranges`
/// is empty. The i-th data point of the bars is ranges[i] (for tool tips by key).
QCPErrorBars *addLikelyRanges(QCPAxis *keyAxis, QCPAxis *valueAxis, const std::vector<LikelyRange> &ranges,
                              const QString &name);

} // namespace gapstudio::views
