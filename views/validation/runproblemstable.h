#pragma once
/**
 * @file runproblemstable.h
 * The measured runs the model could not predict cleanly, each with its cause in words: over
 * memory capacity in the model (predicted and plotted all the same: the run did fit), rejected
 * by the model (infeasible layout) or not evaluable (a missing preset, a bad key). None is
 * dropped silently.
 */

#include "gapstudio/scenario/validation.h"

#include <QTableWidget>

#include <vector>

namespace gapstudio::views {

class RunProblemsTable final : public QTableWidget {
    Q_OBJECT

public:
    /// Item data role of column 0: the row's index in the rows shown (int).
    static constexpr int kIndexRole = Qt::UserRole + 1;

    explicit RunProblemsTable(QWidget *parent = nullptr);

    /// Lists the rows of `rows` whose status is not Ok.
    void showRows(const std::vector<scenario::ValidationRow> &rows);

    /// What happened to a run, in words ("Rejected by the model: no prediction", ...).
    [[nodiscard]] static QString statusText(scenario::RunStatus status);
};

} // namespace gapstudio::views
