#pragma once
/**
 * @file diagnosticslist.h
 * The diagnostics of the latest results (compile, configuration, capacity), one line each with
 * the field at fault; a single "feasible" line when there are none.
 */

#include "results/scenarioresults.h"

#include <QListWidget>

namespace gapstudio::views {

class DiagnosticsList : public QListWidget {
    Q_OBJECT

public:
    explicit DiagnosticsList(QWidget *parent = nullptr);
    void setResults(const ResultsPtr &results);
    /// Number of problems shown (0 when feasible).
    [[nodiscard]] int problemCount() const { return mProblems; }

private:
    int mProblems = 0;
};

} // namespace gapstudio::views
