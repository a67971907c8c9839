#pragma once
/**
 * @file heatmapchart.h
 * Throughput over the TP x PP plane at the design's GPU count (QCPColorMap): each cell is the
 * sample rate of the best layout the search finds with that TP and PP (explore::computeHeatmap:
 * the best of the search's top hits per cell; DP = N / (TP*PP) follows). Empty cells have no
 * valid layout. The best cell is outlined, and so is this design's own cell.
 */

#include "explore/explorechart.h"
#include "explore/explorecompute.h"

#include <optional>
#include <utility>

class QCPColorGradient;
class QCPColorScale;
class QCustomPlot;

namespace gapstudio::views {

/// Viridis (perceptually uniform, readable in grey) with empty (NaN) cells transparent: the colour
/// scale of the heatmaps.
[[nodiscard]] QCPColorGradient viridisGradient();
/// A colour scale for a heatmap in `plot`: right of the axis rect and exactly as tall. Its
/// constructor does not put it in the plot's layout: a chart adds it while data is shown, and
/// takes it out again with takeColorScale() when cleared.
[[nodiscard]] QCPColorScale *newColorScale(QCustomPlot *plot);
void takeColorScale(QCustomPlot *plot, QCPColorScale *scale);

class HeatmapChart final : public ExploreChart {
    Q_OBJECT

public:
    explicit HeatmapChart(QWidget *parent = nullptr);

    /// Shows `data`; `design` is the design's own evaluation ("this design": its (TP, PP) cell is
    /// outlined and its own throughput named, next to the best layout of that cell).
    void setData(explore::HeatmapData data, std::optional<model::SweepPoint> design = {});
    [[nodiscard]] const explore::HeatmapData &data() const { return mData; }
    /// "This design", as given to setData.
    [[nodiscard]] const std::optional<model::SweepPoint> &designPoint() const { return mDesign; }
    /// (TP, PP) of the outlined best cell, if any cell is filled.
    [[nodiscard]] std::optional<std::pair<std::int64_t, std::int64_t>> bestTpPp() const;

    [[nodiscard]] QList<QStringList> csvRows() const override;
    [[nodiscard]] QString toolTipAt(const QPointF &pos) const override;

protected:
    void onCleared() override;

private:
    /// The map of each (TP, PP) cell's best samples/s, then the parts below on it.
    void rebuild();
    /// Each cell's value as text (small grids), dark on light colours.
    void labelCells(double lo, double hi, double rangeSize);
    /// Without an exhaustive search, the cells with no layout among the hits kept, greyed: their
    /// layouts, if any, are at most as fast as the last hit kept.
    void greyCellsNotKept();
    /// The best cell (row, column), outlined, with its legend entry.
    void outlineBest(const std::pair<std::size_t, std::size_t> &best);
    /// This design's own cell, dashed, with its own throughput in the legend.
    void markDesign();
    /// TP across, PP up, labelled with the degrees.
    void setAxes();
    /// The GPU count, the best cell's layout and what the search covered.
    [[nodiscard]] QString subtitleText(const std::pair<std::size_t, std::size_t> &best) const;

    explore::HeatmapData mData;
    std::optional<model::SweepPoint> mDesign;
    QCPColorScale *mScale = nullptr;
};

} // namespace gapstudio::views
