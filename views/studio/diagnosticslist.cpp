#include "studio/diagnosticslist.h"

#include "studio/studioformat.h"

#include <QStyle>

namespace gapstudio::views {

DiagnosticsList::DiagnosticsList(QWidget *parent)
    : QListWidget(parent)
{
    setObjectName(QStringLiteral("diagnosticsList"));
    setWordWrap(true);
    setAlternatingRowColors(true);
}

void DiagnosticsList::setResults(const ResultsPtr &results)
{
    clear();
    mProblems = results ? static_cast<int>(results->diagnostics.size()) : 0;
    if (!results)
        return;
    for (const model::Diagnostic &d : results->diagnostics) {
        const bool capacity = d.code == model::DiagnosticCode::Tier1CapacityExceeded ||
                              d.code == model::DiagnosticCode::Tier2CapacityExceeded;
        const QString field = d.field.empty() ? QString() : QStringLiteral("%1: ").arg(QString::fromStdString(d.field));
        auto *item = new QListWidgetItem(
            style()->standardIcon(capacity ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxCritical),
            field + QString::fromStdString(d.message), this);
        item->setToolTip(capacity ? tr("Does not fit in GPU memory: the Memory chart shows the overflow")
                                  : tr("Infeasible: fix the field named here"));
    }
    if (results->ok()) {
        const model::Analysis &a = *results->analysis;
        new QListWidgetItem(style()->standardIcon(QStyle::SP_DialogApplyButton),
                            tr("Feasible: step %1, MFU %2, %3 tokens/s")
                                .arg(format::seconds(a.step.total_s), format::percent(a.gap.mfu),
                                     format::si(a.tokensPerSecond)),
                            this);
    }
}

} // namespace gapstudio::views
