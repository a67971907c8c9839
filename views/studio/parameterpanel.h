#pragma once
/**
 * @file parameterpanel.h
 * Live sliders for what designers sweep by hand, in three foldable groups: the GPU (peak compute,
 * HBM bandwidth and capacity), the network (scale-up and scale-out bandwidth, latency and
 * efficiency, scale-up domain size) and the workload (GPU count, global batch, sequence length).
 * Each shows its value with its unit; double-click the value to type one. Moving a slider writes
 * a scenario override (or the GPU count) through the document at once, so the charts redraw
 * while dragging; one drag is one undo step. The GPU-count slider offers only counts the layout
 * can fill (layoutrules.h), so DP and expert DP follow it and the design stays valid.
 */

#include "results/scenarioresults.h"

#include <QWidget>

#include <functional>
#include <string>
#include <vector>

class QGridLayout;
class QSlider;

namespace gapstudio::views {

class CollapsibleSection;
class ScenarioDocument;
class ValueField;

class ParameterPanel : public QWidget {
    Q_OBJECT

public:
    explicit ParameterPanel(ScenarioDocument *document, QWidget *parent = nullptr);

    /// Moves the sliders to the values the results were computed with (not while dragging).
    void setResults(ResultsPtr results);
    /// The slider of an override key (or "gpu_count"), for tests.
    [[nodiscard]] QSlider *slider(const std::string &key) const;
    /// The value shown next to a slider (double-click it to type), for tests.
    [[nodiscard]] ValueField *valueField(const std::string &key) const;
    /// The GPU counts the GPU-count slider offers now.
    [[nodiscard]] std::vector<double> gpuCountChoices() const;
    /// The row label of a slider ("Scale-out latency").
    [[nodiscard]] QString label(const std::string &key) const;

private:
    struct Row {
        std::string key;            ///< override key, or "gpu_count"
        std::vector<double> values; ///< the override value at each slider position (ascending)
        /// The value the results were computed with, in override units.
        std::function<double(const ScenarioResults &)> current;
        /// Display text of an override value (with its unit); null: number and the key's unit.
        std::function<QString(double)> display;
        /// The override value for a typed display value; null: the same number.
        std::function<double(double)> fromTyped;
        QString label;
        QSlider *slider = nullptr;
        ValueField *value = nullptr;
    };
    /// Adds a slider and its value field (see Row for the arguments).
    void addRow(QGridLayout *grid, std::string key, std::vector<double> values,
                std::function<double(const ScenarioResults &)> current,
                std::function<QString(double)> display = {}, std::function<double(double)> fromTyped = {});
    void commit(const Row &row, double value);
    void showValue(const Row &row, double value) const;
    [[nodiscard]] QString displayText(const Row &row, double value) const;
    /// The GPU's datasheet peak in the design's datatype (before the compute scale), 0 if unknown.
    [[nodiscard]] double basePeak() const;
    /// The GPU counts the current layout can fill (plus the current count).
    void updateGpuCountChoices(Row &row, const ScenarioResults &results) const;

    ScenarioDocument *mDocument;
    std::vector<Row> mRows;
    ResultsPtr mResults;
};

} // namespace gapstudio::views
