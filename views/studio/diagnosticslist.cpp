#include "studio/diagnosticslist.h"

#include "studio/layoutrules.h"
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
    const model::Execution *execution = results->compiled ? &results->compiled->execution : nullptr;
    for (const model::Diagnostic &d : results->diagnostics) {
        const bool capacity = d.code == model::DiagnosticCode::Tier1CapacityExceeded
                              || d.code == model::DiagnosticCode::Tier2CapacityExceeded;
        auto *item = new QListWidgetItem(
            style()->standardIcon(capacity ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxCritical),
            diagnosticInWords(d, execution), this);
        // The model's own words, with its key, as detail for those who know them.
        const QString detail
            = QString::fromStdString(d.field.empty() ? d.message : d.field + ": " + d.message);
        item->setToolTip((capacity ? tr("Does not fit in GPU memory: the Memory chart shows the overflow")
                                   : tr("Cannot run as it is: change the field named here"))
                         + QStringLiteral("\n") + tr("Model message: %1").arg(detail));
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
