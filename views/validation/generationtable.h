#pragma once
/**
 * @file generationtable.h
 * Error per GPU generation: for each generation of the runs shown, the mean |error| with the
 * calibration chosen, and the mean |error| of a fit that had not seen the generation, as the
 * calibration's fit recorded it (FitSummary::leaveOneGenerationOutMeanAbsError). The second
 * column is what to expect of a GPU the calibration has no runs of, e.g. a projected part.
 * Cells carry the fractions in kValueRole, so that tests read what is shown.
 */

#include "gapstudio/scenario/blocks.h"
#include "gapstudio/scenario/validation.h"

#include <QTableWidget>

namespace gapstudio::views {

class GenerationTable final : public QTableWidget {
    Q_OBJECT

public:
    /// Item data role of the error cells: the fraction (double); of the Runs cells: the count.
    static constexpr int kValueRole = Qt::UserRole + 1;
    /// Item data role of column 0: the generation (GPU architecture).
    static constexpr int kGenerationRole = Qt::UserRole + 2;
    enum Column { Generation, Runs, MeanError, UnseenError };

    explicit GenerationTable(QWidget *parent = nullptr);

    /// Shows the generations of `summary` and of `fit` (the chosen calibration's, if it has one).
    void showGenerations(const scenario::ValidationSummary &summary, const scenario::FitSummary *fit);
    /// The row of `generation`, or -1.
    [[nodiscard]] int rowOf(const QString &generation) const;
};

} // namespace gapstudio::views
