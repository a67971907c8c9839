#pragma once
/**
 * @file parameterrangetable.h
 * Fitted parameters beyond their documented range: the parameters of the chosen calibration's fit
 * that lie at or beyond an end of their plausible range (FittedParameter::atBound; the ranges and
 * their sources in docs/references.md, "Calibration ranges"), each with its value and range. Such
 * a parameter stands for a mechanism the model lacks. Cells carry the numbers in kValueRole, so
 * that tests read what is shown.
 */

#include "gapstudio/scenario/blocks.h"

#include <QTableWidget>

namespace gapstudio::views {

class ParameterRangeTable final : public QTableWidget {
    Q_OBJECT

public:
    /// Item data role of the Value, Low and High cells: the number (double); of column 0: the name.
    static constexpr int kValueRole = Qt::UserRole + 1;
    enum Column { Parameter, Value, Low, High };

    explicit ParameterRangeTable(QWidget *parent = nullptr);

    /// Shows the parameters of `fit` beyond their range (none without a fit).
    void showFit(const scenario::FitSummary *fit);
    /// The row of parameter `name`, or -1.
    [[nodiscard]] int rowOf(const QString &name) const;
};

} // namespace gapstudio::views
