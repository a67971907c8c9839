#include "studio/statusline.h"

#include "results/calibrationtext.h"
#include "studio/studioformat.h"

#include <QCoreApplication>

namespace gapstudio::views {

QString statusLine(const ScenarioResults &results)
{
    const auto tr = [](const char *text) { return QCoreApplication::translate("StatusLine", text); };
    const QString status = QString::fromStdString(results.statusText);
    switch (results.status) {
    case scenario::EvaluationStatus::Ok:
        return tr("Step time %1 · %2 tokens/s · MFU %3 · %4")
            .arg(format::seconds(results.analysis->step.total_s),
                 format::si(results.analysis->tokensPerSecond), format::percent(results.analysis->gap.mfu),
                 calibrationText(results));
    case scenario::EvaluationStatus::OverCapacity:
        return tr("%1 (see the Memory chart)").arg(status);
    case scenario::EvaluationStatus::Infeasible:
    case scenario::EvaluationStatus::Malformed:
        break;
    }
    return tr("%1 (see Diagnostics)").arg(status);
}

} // namespace gapstudio::views
