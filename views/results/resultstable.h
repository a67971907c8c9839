#pragma once
/**
 * @file resultstable.h
 * A two-column table (quantity, value) of one design's key results, by its status: for Ok the
 * summary (step time, throughput, efficiencies, memory, the calibration that produced them) and every
 * component of the step from model::Analysis::step (rows that sum to the step time); over memory capacity
 * only the memory numbers and why; otherwise the diagnostics. It reads the pipeline's result; it computes no
 * formula. With designs pinned for comparison (pinnedscenarios.h), one value column per design: the current
 * one first, then each pin with its own results.
 */

#include "results/pinnedscenarios.h"
#include "results/scenarioresults.h"

#include <QPair>

#include <functional>

#include <QTableWidget>

namespace gapstudio::views {

class WhenSeen;

class ResultsTable : public QTableWidget {
    Q_OBJECT

public:
    /// Item data role of the step-component rows' value cells: the component in seconds (double).
    static constexpr int kSecondsRole = Qt::UserRole + 1;

    explicit ResultsTable(QWidget *parent = nullptr);

    /// Words for one diagnostic of a design that cannot be evaluated, given its layout when it
    /// has one; by default the model's own message.
    using DiagnosticWording = std::function<QString(const model::Diagnostic &, const model::Execution *)>;
    /// The main window gives the Layout panel's words (studio/layoutrules.h diagnosticInWords), so
    /// that Key results and the Layout panel say a problem the same way. Applies from the next
    /// showResults() or setPinned().
    void setDiagnosticWording(DiagnosticWording wording);

    /// Shows the key results of `results` as its status allows (see the file comment) in the
    /// current design's column.
    void showResults(const ScenarioResults &results);
    /// One more column per pinned design, after the current one; empty: the current design alone.
    void setPinned(const QList<PinnedScenario> &pinned);

    /// Appends "Best layout" ("judge at best layout") to the current design's column: the best
    /// layout next to `own`'s, their throughput and MFU, and the layout-choice loss
    /// (scenario::layoutChoiceLoss). Call after showResults(own).
    void addBestLayout(const ScenarioResults &own, const ScenarioResults &best);

    /// Shows one error (e.g. unreadable input) in place of results.
    void showError(const QString &message);

private:
    struct Row {
        QString quantity; ///< or a section's title
        QString value;
        QString toolTip;
        Qt::Alignment alignment;
        QVariant seconds; ///< a step component's seconds, for kSecondsRole
        bool section = false;
    };
    [[nodiscard]] QList<Row> rowsOf(const ScenarioResults &results) const;
    /// The rows of a design that does not run (over capacity, infeasible, malformed); none if it runs.
    [[nodiscard]] QList<Row> problemRows(const ScenarioResults &results) const;
    /// The likely ranges of the step time and MFU (PipelineResult::interval), if any.
    static void addIntervalRows(QList<Row> &rows, const ScenarioResults &results);
    /// Shows the rows: now if the table is seen, else when it is (whenseen.h).
    void render();
    void renderNow();
    void addSection(const QString &title);

    WhenSeen *mWhenSeen;
    DiagnosticWording mWording;
    QList<Row> mCurrent;
    QList<QPair<QString, QList<Row>>> mPinned; ///< name and rows of each pinned design
};

} // namespace gapstudio::views
