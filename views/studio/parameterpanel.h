#pragma once
/**
 * @file parameterpanel.h
 * Live sliders for what designers sweep by hand: GPU peak FLOPS, HBM bandwidth and capacity,
 * scale-up and scale-out bandwidth, network latency, scale-up domain size, GPU count, global
 * batch and sequence length. Moving a slider writes a scenario override (or the GPU count)
 * through the document at once, so the charts redraw while dragging; one drag is one undo step.
 */

#include "results/scenarioresults.h"

#include <QWidget>

#include <functional>
#include <string>
#include <vector>

class QSlider;
class QLabel;

namespace gapstudio::views {

class ScenarioDocument;

class ParameterPanel : public QWidget {
    Q_OBJECT

public:
    explicit ParameterPanel(ScenarioDocument *document, QWidget *parent = nullptr);

    /// Moves the sliders to the values the results were computed with (not while dragging).
    void setResults(ResultsPtr results);
    /// The slider of an override key (or "gpu_count"), for tests.
    [[nodiscard]] QSlider *slider(const std::string &key) const;

private:
    struct Row {
        std::string key;          ///< override key, or "gpu_count"
        std::vector<double> values; ///< the value at each slider position (ascending)
        QString unit;
        std::function<double(const ScenarioResults &)> current;
        QSlider *slider = nullptr;
        QLabel *value = nullptr;
    };
    void addRow(const QString &label, Row row);
    void commit(const Row &row, int position);
    void showValue(const Row &row, double value);

    ScenarioDocument *mDocument;
    std::vector<Row> mRows;
};

} // namespace gapstudio::views
