#pragma once
/**
 * @file reportcontent.h
 * What the report says, as plain tables of display strings (no painting): the design's blocks
 * and every parameter they resolve to, the key results, the diagnostics and the comparison with
 * a baseline. Values come from ScenarioResults and model/trainingtime.h; nothing is recomputed here.
 */

#include "results/scenarioresults.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace gapstudio::views::report {

struct Table {
    QString title;            ///< caption above the table; may be empty
    QStringList headers;      ///< empty: no header row
    QList<QStringList> rows;  ///< each as long as `weights`
    QList<double> weights;    ///< relative column widths
    QList<bool> rightAligned; ///< per column (numbers); missing entries = left
    double widthFraction = 1; ///< of the text width
};

/// One key result in display units.
struct Metric {
    QString name; ///< e.g. "Step time"
    QString unit; ///< e.g. "s"; empty for counts
    double value = 0;
    bool available = false; ///< false: not computed (no stats)
};

/// Block | Preset | Name | Source, one row per block of the scenario.
[[nodiscard]] Table blocksTable(const ScenarioResults &results);

/// One parameter table per resolved block (GPU, scale-up, scale-out, topology, LLM, layout with
/// the GPU count), plus the overrides; keys are the preset files' JSON keys (units in the names).
/// Empty when the scenario did not compile.
[[nodiscard]] QList<Table> parameterTables(const ScenarioResults &results);

/// Step time, throughput, MFU, memory against capacity and the time and GPU-hours to train
/// `tokenBudget` tokens: the performance only for a design that runs (status Ok), the memory also
/// over capacity.
[[nodiscard]] QList<Metric> keyMetrics(const ScenarioResults &results, double tokenBudget);
/// The status in words, the calibration that produced the results (calibrationtext.h), then the
/// available key metrics.
[[nodiscard]] Table keyResultsTable(const ScenarioResults &results, double tokenBudget);

/// The Cost and power section's tables: the Cost and power panel's figures (costfigures.h), then
/// the bill of materials (count, unit price and power, price, per part); none without a cost.
[[nodiscard]] QList<Table> costTables(const ScenarioResults &results);

/// Metric | Baseline | Current | Change | Change %.
[[nodiscard]] Table comparisonTable(const ScenarioResults &baseline, const ScenarioResults &current,
                                    double tokenBudget);

/// Metric | Pinned 1 | Pinned 2 | ... | Current: the N-way comparison of the pinned designs (in pin
/// order) with the current one, each column its own design's key metrics.
[[nodiscard]] Table comparisonTable(const std::vector<const ScenarioResults *> &pinned,
                                    const ScenarioResults &current, double tokenBudget);

/// One line per diagnostic ("field: message"), empty when there are none.
[[nodiscard]] QStringList diagnosticLines(const ScenarioResults &results);

} // namespace gapstudio::views::report
