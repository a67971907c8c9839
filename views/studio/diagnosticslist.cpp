#include "studio/diagnosticslist.h"

#include "studio/layoutrules.h"
#include "studio/studioformat.h"

#include <QStyle>

namespace gapstudio::views {

DiagnosticsList::DiagnosticsList(QWidget *parent)
    : QListWidget(parent)
    , mWarning(style()->standardIcon(QStyle::SP_MessageBoxWarning))
    , mCritical(style()->standardIcon(QStyle::SP_MessageBoxCritical))
    , mFeasible(style()->standardIcon(QStyle::SP_DialogApplyButton))
{
    setObjectName(QStringLiteral("diagnosticsList"));
    setWordWrap(true);
    setAlternatingRowColors(true);
}

QList<DiagnosticsList::Line> DiagnosticsList::linesOf(const ResultsPtr &results) const
{
    QList<Line> lines;
    if (!results)
        return lines;
    const model::Execution *execution = results->compiled ? &results->compiled->execution : nullptr;
    for (const model::Diagnostic &d : results->diagnostics) {
        const bool capacity = d.code == model::DiagnosticCode::Tier1CapacityExceeded
                              || d.code == model::DiagnosticCode::Tier2CapacityExceeded;
        // The model's own words, with its key, as detail for those who know them.
        const QString detail
            = QString::fromStdString(d.field.empty() ? d.message : d.field + ": " + d.message);
        lines.append({ capacity ? mWarning : mCritical, diagnosticInWords(d, execution),
                       (capacity ? tr("Does not fit in GPU memory: the Memory chart shows the overflow")
                                 : tr("Cannot run as it is: change the field named here"))
                           + QStringLiteral("\n") + tr("Model message: %1").arg(detail) });
    }
    if (results->ok()) {
        const model::Analysis &a = *results->analysis;
        lines.append({ mFeasible,
                       tr("Feasible: step %1, MFU %2, %3 tokens/s")
                           .arg(format::seconds(a.step.total_s), format::percent(a.gap.mfu),
                                format::si(a.tokensPerSecond)),
                       QString() });
    }
    return lines;
}

void DiagnosticsList::setResults(const ResultsPtr &results)
{
    mProblems = results ? static_cast<int>(results->diagnostics.size()) : 0;
    const QList<Line> lines = linesOf(results);
    if (lines.size() != count()) {
        clear();
        for (const Line &line : lines)
            (new QListWidgetItem(line.icon, line.text, this))->setToolTip(line.toolTip);
        return;
    }
    // As many lines as shown: each is rewritten in place, and only where it differs (a slider
    // step changes the figures of the "feasible" line, not the list's rows).
    for (int row = 0; row < count(); ++row) {
        QListWidgetItem *shown = item(row);
        const Line &line = lines[row];
        if (shown->icon().cacheKey() != line.icon.cacheKey())
            shown->setIcon(line.icon);
        if (shown->text() != line.text)
            shown->setText(line.text);
        if (shown->toolTip() != line.toolTip)
            shown->setToolTip(line.toolTip);
    }
}

} // namespace gapstudio::views
