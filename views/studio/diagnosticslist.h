#pragma once
/**
 * @file diagnosticslist.h
 * The diagnostics of the latest results (compile, configuration, capacity), one line each with
 * the field at fault; a single "feasible" line when there are none.
 */

#include "results/scenarioresults.h"

#include <QIcon>
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
    /// One line: its icon, text and tool tip.
    struct Line {
        QIcon icon;
        QString text;
        QString toolTip;
    };
    [[nodiscard]] QList<Line> linesOf(const ResultsPtr &results) const;

    int mProblems = 0;
    // The style's icons, read once: standardIcon() decodes its pictures at every call.
    QIcon mWarning;
    QIcon mCritical;
    QIcon mFeasible;
};

} // namespace gapstudio::views
