#pragma once
/**
 * @file gridheatmapchart.h
 * One metric of a hardware-grid result file (gridfile.h) over two of its knobs as a heatmap
 * (QCPColorMap, the colours of the layout heatmap): one cell per pair of knob values, the other
 * knobs held at chosen values. A cell whose point was not evaluated ok is empty and says why in
 * its tool tip. The chart plots the file's numbers; it computes nothing.
 */

#include "designspace/gridfile.h"
#include "explore/explorechart.h"

#include <memory>

class QCPColorScale;

namespace gapstudio::views {

/// Which plane of the grid to draw.
struct GridSlice {
    std::size_t across = 0, up = 1; ///< knob indexes of the x and y axes
    std::string metric = "sample_rate";
    std::vector<double> held; ///< a value per knob; those of `across` and `up` are ignored
};

/// The display name of a results key ("sample_rate" -> "Throughput (samples/s)").
[[nodiscard]] QString gridMetricLabel(const std::string &metric);

class GridHeatmapChart final : public ExploreChart {
    Q_OBJECT

public:
    explicit GridHeatmapChart(QWidget *parent = nullptr);

    void setGrid(std::shared_ptr<const GridFile> file, GridSlice slice);
    /// The point drawn in cell (column, row), if any.
    [[nodiscard]] const GridPoint *cell(std::size_t column, std::size_t row) const;

    [[nodiscard]] QList<QStringList> csvRows() const override;
    [[nodiscard]] QString toolTipAt(const QPointF &pos) const override;

protected:
    void onCleared() override;

private:
    void rebuild();
    /// The metric of `point`, NaN when it was not evaluated ok.
    [[nodiscard]] double cellValue(const GridPoint *point) const;
    /// Each cell's value written on it (small grids only), dark on light colours.
    void labelCells(double lo, double hi);
    /// The two knobs' values along the axes.
    void setKnobAxes();
    /// How many points the slice shows and the values of the knobs it holds.
    [[nodiscard]] QString sliceSubtitle() const;
    [[nodiscard]] std::size_t columns() const;
    [[nodiscard]] std::size_t rows() const;

    std::shared_ptr<const GridFile> mFile;
    GridSlice mSlice;
    std::vector<const GridPoint *> mCells; ///< row-major, rows() x columns()
    QCPColorScale *mScale = nullptr;
};

} // namespace gapstudio::views
