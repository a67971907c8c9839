#pragma once
/**
 * @file variantschart.h
 * "What if it were built differently": the design's categorical variants side by side
 * (model::sweepVariants: the same GPUs, LLM and layout with one thing changed), one horizontal
 * bar per variant in groups (fabric, collectives, overlap, datatype), a reference line at the
 * design as it is, value labels on the bars, infeasible variants as an empty row with the model's
 * diagnostic.
 */

#include "explore/explorechart.h"

#include "gapstudio/model/sweep.h"

#include <optional>
#include <vector>

class QCPAxisTickerText;

namespace gapstudio::views {

class VariantsChart final : public ExploreChart {
    Q_OBJECT

public:
    /// What the bars measure.
    enum class Metric {
        SampleRate, ///< samples/s (longer is better)
        StepTime,   ///< seconds per step (shorter is better)
    };

    explicit VariantsChart(QWidget *parent = nullptr);

    /// Shows `points` as model::sweepVariants returns them for a design on `system` (its labels
    /// select the groups; unknown labels go to "Other"). The fabric is named after the system's
    /// (full-flat, two-tier, N-tier); on a full-flat system the "full-flat fabric" variant is the
    /// design itself and gets no bar of its own (it stays in csvRows()).
    void setData(std::vector<model::SweepPoint> points, const model::System &system);
    void setMetric(Metric metric);
    [[nodiscard]] Metric metric() const { return mMetric; }
    /// The variants in the model's order (the order of csvRows()).
    [[nodiscard]] const std::vector<model::SweepPoint> &points() const
    {
        updateData();
        return mPoints;
    }
    /// "This design": the variant "as designed", if any.
    [[nodiscard]] const model::SweepPoint *designPoint() const;
    /// The bar key (left-axis coordinate) of the variant labelled `label`, if shown.
    [[nodiscard]] std::optional<double> keyOf(const QString &label) const;

    /// label, samples_per_s, step_time_s, mfu, ok (values empty when not ok), in the model's order.
    [[nodiscard]] QList<QStringList> csvRows() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild();
    /// A bar's name on the axis: "as designed" names the fabric, the designed datatype says so.
    [[nodiscard]] QString tickText(const model::SweepPoint &point, bool designedDatatype) const;
    /// The variants down the left axis (first group on top), their values along the bottom.
    void setAxes(const QSharedPointer<QCPAxisTickerText> &ticker, double lastKey, bool rate);
    /// Widens the value axis so that every value label beside its bar stays inside the plot
    /// (a narrow dock once cut them off).
    void fitLabels();

    std::vector<model::SweepPoint> mPoints;
    QString mFabric;    ///< the design's fabric in words ("full-flat", "two-tier"); empty: one tier
    bool mFlat = false; ///< the design is full-flat (model::isFullFlat)
    QMap<QString, double> mKeys;
    double mExtent = 0; ///< the value axis' range before fitLabels()
    Metric mMetric = Metric::SampleRate;
};

} // namespace gapstudio::views
