#pragma once
/**
 * @file tornadochart.h
 * "What buys the most": the elasticity of step time with respect to each hardware parameter
 * (model::sensitivity: d ln T / d ln p by central differences around the design), one horizontal
 * bar per parameter, largest |elasticity| at the top. A bar of -0.6 means 1 % more of the parameter
 * gives a 0.6 % shorter step. Each bar is named on the left axis by its parameter and, where a row
 * has room for a second line, the design's value of it; in a low chart the value stays in the bar's
 * tooltip, so that no name is drawn over another.
 */

#include "explore/explorechart.h"

#include "gapstudio/model/sweep.h"

#include <optional>
#include <vector>

namespace gapstudio::views {

class TornadoChart final : public ExploreChart {
    Q_OBJECT

public:
    explicit TornadoChart(QWidget *parent = nullptr);

    /// Shows `elasticities` (any order; shown by decreasing |step-time elasticity|, parameters
    /// whose perturbed design was infeasible last). With `design`, the labels show each
    /// parameter's current value; with `designStats` (the design's own evaluation) the subtitle
    /// says which step the elasticities are taken around.
    void setData(std::vector<model::Elasticity> elasticities, const std::optional<model::Design> &design = {},
                 const std::optional<model::Stats> &designStats = {});
    /// The bars from top to bottom.
    [[nodiscard]] const std::vector<model::Elasticity> &bars() const
    {
        updateData();
        return mBars;
    }
    /// "This design": the evaluation the elasticities are taken around, when given.
    [[nodiscard]] const std::optional<model::Stats> &designStats() const
    {
        updateData();
        return mDesignStats;
    }

    [[nodiscard]] QList<QStringList> csvRows() const override;

private:
    void rebuild(const std::optional<model::Design> &design);
    /// Names the rows with one or two lines, whichever the laid-out rows have room for (after
    /// every layout of the plot; a change redraws).
    void fitLabels();
    void setTickLabels();

    struct RowLabel {
        QString name, value;
    };
    std::vector<RowLabel> mLabels; ///< per bar, top to bottom
    bool mTwoLines = true;
    std::vector<model::Elasticity> mBars;
    std::optional<model::Stats> mDesignStats;
};

/// The parameter's current value with its unit ("989.4 TFLOP/s", "80.0 GiB", "8 GPUs").
[[nodiscard]] QString parameterValueText(const model::Design &design, model::HardwareParameter parameter);

} // namespace gapstudio::views
