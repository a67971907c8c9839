#pragma once
/**
 * @file scalingchart.h
 * Throughput (samples/s, and tokens/s on an outer axis) and MFU against GPU count, each point
 * being the best layout the search finds at that count (model::sweepGpuCount). Counts without any
 * valid layout are gaps, marked on the axis with the reason in the tool tip. Given each point's
 * goodput under failures (scenario::scenarioGoodputAt), its effective throughput (the model's
 * GoodputResult::effectiveTokensPerSecond) is drawn too: where adding GPUs stops paying once
 * failures count.
 */

#include "explore/explorechart.h"

#include "gapstudio/model/goodput.h"
#include "gapstudio/model/sweep.h"

#include <optional>
#include <vector>

class QCPAxis;
class QCPAxisTickerText;

namespace gapstudio::views {

class ScalingChart final : public ExploreChart {
    Q_OBJECT

public:
    explicit ScalingChart(QWidget *parent = nullptr);

    /**
     * Shows `points` (x = GPU count, layout = the best layout, as sweepGpuCount returns them).
     * `seqSize` (tokens per sample) converts samples/s to tokens/s; `design` is the design's own
     * evaluation at its GPU count ("this design": marked, and drawn as its own point when feasible,
     * next to the best layout found at that count); `note` says which search space was swept
     * (shown as the subtitle). `goodput` holds each point's goodput under failures with its
     * effective throughput (not valid: none; empty: none known), `designGoodput` that of "this
     * design".
     */
    void setData(std::vector<model::SweepPoint> points, std::int64_t seqSize,
                 std::optional<model::SweepPoint> design = {}, const QString &note = {},
                 std::vector<model::GoodputResult> goodput = {}, model::GoodputResult designGoodput = {});
    [[nodiscard]] const std::vector<model::SweepPoint> &points() const { return mPoints; }
    /// "This design", as given to setData.
    [[nodiscard]] const std::optional<model::SweepPoint> &designPoint() const { return mDesign; }
    /// Point `i`'s goodput as given to setData (not valid: none).
    [[nodiscard]] const model::GoodputResult &goodput(std::size_t i) const { return mGoodput.at(i); }

    [[nodiscard]] QList<QStringList> csvRows() const override;

private:
    void rebuild();
    /// This design with its own layout (a star), when it evaluates; returns its samples/s (else 0).
    double addDesignPoint();
    /// GPU count on a log scale with a tick at each count; samples/s and tokens/s on the left (the
    /// outer axis is the inner one times the sequence length), MFU on the right.
    void setAxes(const QSharedPointer<QCPAxisTickerText> &ticker, double maxRate, double maxMfu);
    /// A goodput's effective throughput in samples/s (NaN: none).
    [[nodiscard]] double effectiveSamplesPerSecond(const model::GoodputResult &goodput) const;

    std::vector<model::SweepPoint> mPoints;
    std::int64_t mSeqSize = 1;
    std::optional<model::SweepPoint> mDesign;
    QString mNote;
    std::vector<model::GoodputResult> mGoodput; ///< per point, not valid where unknown
    model::GoodputResult mDesignGoodput;
    QCPAxis *mTokensAxis = nullptr; ///< outer left axis: the samples/s axis times the sequence length
};

} // namespace gapstudio::views
