#pragma once
/**
 * @file errortable.h
 * Error per family of measured runs, as scenario::summarize() computes it: one row for all runs
 * and one per family; for each set of results shown (e.g. before and after a calibration) the
 * mean and the largest |error| (error = measured / predicted - 1). Runs counts rows with a
 * prediction. Cells carry the fractions in kValueRole, so that tests read what is shown.
 */

#include "gapstudio/scenario/validation.h"

#include <QList>
#include <QTableWidget>

namespace gapstudio::views {

class ErrorTable final : public QTableWidget {
    Q_OBJECT

public:
    /// Item data role of the error cells: the fraction (double); of the Runs cells: the count.
    static constexpr int kValueRole = Qt::UserRole + 1;
    /// Item data role of column 0: the family (empty for the row of all runs).
    static constexpr int kFamilyRole = Qt::UserRole + 2;

    /// One set of results: its label ("" for a single set, "Before", "After", ...) and summary.
    struct Set {
        QString label;
        scenario::ValidationSummary summary;
    };

    explicit ErrorTable(QWidget *parent = nullptr);

    /// Shows `sets` side by side; the families are those of the first set (Runs counts its rows).
    void showSets(const QList<Set> &sets);
    /// The row of `family` ("" = all runs), or -1.
    [[nodiscard]] int rowOf(const QString &family) const;
};

} // namespace gapstudio::views
