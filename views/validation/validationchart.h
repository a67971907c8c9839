#pragma once
/**
 * @file validationchart.h
 * Predicted against measured iteration time of measured runs (scenario::ValidationRow), on
 * log-log axes: one colour and marker per family (legend), the line y = x and the band in which
 * |error| <= 10 % (error = measured / predicted - 1, as `gapstudio-cli validate` defines it, so
 * a point inside the band is within 10 %). A run without a prediction is not drawn (the
 * Validation view lists it with its cause). Hovering a point shows the run's id, name, source,
 * assumptions and calibration; clicking it emits runClicked().
 */

#include "explore/explorechart.h"

#include "gapstudio/scenario/validation.h"

#include <vector>

namespace gapstudio::views {

class ValidationChart final : public ExploreChart {
    Q_OBJECT

public:
    /// The band's half width: |error| <= 10 %.
    static constexpr double kBand = 0.10;

    explicit ValidationChart(QWidget *parent = nullptr);

    /// Draws `rows` (every one with a prediction); `subtitle` says which runs and calibration.
    void setRows(std::vector<scenario::ValidationRow> rows, const QString &subtitle);
    [[nodiscard]] const std::vector<scenario::ValidationRow> &rows() const { return mRows; }

    /// Number of points drawn (rows with a prediction).
    [[nodiscard]] int pointCount() const { return static_cast<int>(mPlotted.size()); }
    /// Where row `index` is drawn (plot widget pixels); nullopt if it is not drawn.
    [[nodiscard]] std::optional<QPointF> pointPosition(int index) const;
    /// The row drawn nearest to `pos` within the selection tolerance, or -1.
    [[nodiscard]] int rowAt(const QPointF &pos) const;

    [[nodiscard]] QString toolTipAt(const QPointF &pos) const override;
    [[nodiscard]] QList<QStringList> csvRows() const override;
    /// The hover text of row `index`.
    [[nodiscard]] QString toolTip(int index) const;

signals:
    /// A click on the point of row `index` (of rows()).
    void runClicked(int index);

private:
    void drawGuides(double low, double high);

    std::vector<scenario::ValidationRow> mRows;
    std::vector<int> mPlotted; ///< indices of rows with a prediction
};

} // namespace gapstudio::views
