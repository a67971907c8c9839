#pragma once
/**
 * @file resultstable.h
 * A two-column table (quantity, value) of one design's key results, by its status: for Ok the
 * summary (step time, throughput, efficiencies, memory, the calibration that produced them) and every
 * component of the step from model::Analysis::step (rows that sum to the step time); over memory capacity
 * only the memory numbers and why; otherwise the diagnostics. It reads the pipeline's result; it computes no
 * formula.
 */

#include "results/scenarioresults.h"

#include <QTableWidget>

namespace gapstudio::views {

class ResultsTable : public QTableWidget {
    Q_OBJECT

public:
    /// Item data role of the step-component rows' value cells: the component in seconds (double).
    static constexpr int kSecondsRole = Qt::UserRole + 1;

    explicit ResultsTable(QWidget *parent = nullptr);

    /// Shows the key results of `results` as its status allows (see the file comment).
    void showResults(const ScenarioResults &results);

    /// Appends "Best layout" ("judge at best layout"): the best layout next to `own`'s, their
    /// throughput and MFU, and the layout-choice loss (scenario::layoutChoiceLoss). Call after
    /// showResults(own).
    void addBestLayout(const ScenarioResults &own, const ScenarioResults &best);

    /// Shows one error (e.g. unreadable input) in place of results.
    void showError(const QString &message);

private:
    void addSection(const QString &title);
    QTableWidgetItem *addRow(const QString &quantity, const QString &value, const QString &toolTip = {},
                             Qt::Alignment valueAlignment = Qt::AlignLeft);
};

} // namespace gapstudio::views
