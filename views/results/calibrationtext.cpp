#include "results/calibrationtext.h"

#include <QCoreApplication>

namespace gapstudio::views {

QString calibrationText(const std::string &note)
{
    QString text = QString::fromStdString(note);
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

QString calibrationText(const ScenarioResults &results)
{
    // The reference models (Calculon, calculon-MoE) have no calibrated kernel times: their
    // features are all off (model::Features::reference()), and compile() fills no note.
    const bool calibrated = results.compiled ? results.compiled->features.calibrated
                                             : results.evaluateOptions.features.calibrated;
    if (!results.compiled && results.status == scenario::EvaluationStatus::Malformed)
        return {};
    if (!calibrated)
        return QCoreApplication::translate("CalibrationText", "Reference model (no calibration)");
    if (!results.compiled) // a what-if of a design (runDesign): its calibration, not named here
        return QCoreApplication::translate("CalibrationText", "Calibrated as the design it varies");
    return calibrationText(results.compiled->calibrationNote);
}

} // namespace gapstudio::views
