#pragma once
/**
 * @file resultstable.h
 * A two-column table (quantity, value) of one evaluation's key results: step time, throughput,
 * efficiencies, tier-1 memory and the step-time breakdown. For an infeasible configuration it
 * lists the model's diagnostics instead. It only reads model::Stats; it computes no formula.
 */

#include "gapstudio/model/evaluate.h"

#include <QTableWidget>

namespace gapstudio::views {

class ResultsTable : public QTableWidget {
    Q_OBJECT

public:
    explicit ResultsTable(QWidget *parent = nullptr);

    /// Shows the key results of `evaluation`, or its diagnostics when `!evaluation.ok`.
    void showEvaluation(const model::Evaluation &evaluation);

    /// Shows one error (e.g. unreadable input) in place of results.
    void showError(const QString &message);

private:
    void addSection(const QString &title);
    void addRow(const QString &quantity, const QString &value, const QString &toolTip = {},
                Qt::Alignment valueAlignment = Qt::AlignLeft);
};

} // namespace gapstudio::views
