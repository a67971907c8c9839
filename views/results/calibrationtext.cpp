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

QString accuracyText(const ScenarioResults &results)
{
    if (!results.compiled || !results.compiled->features.calibrated || !results.compiled->calibrationAccuracy)
        return {};
    const scenario::CalibrationAccuracy &a = *results.compiled->calibrationAccuracy;
    const auto percent = [](double fraction) { return QString::number(100 * fraction, 'f', 0); };
    const auto tr = [](const char *text) { return QCoreApplication::translate("CalibrationText", text); };
    const QString unseen = a.leaveOneFamilyOutMeanAbsError > 0
                               ? tr("about ±%1 % on software stacks left out of the fit")
                                     .arg(percent(a.leaveOneFamilyOutMeanAbsError))
                               : tr("its error on software stacks it has not seen was not estimated");
    if (!a.gpuHasEntry && a.unseenGenerationMeanAbsError > 0)
        return tr("No published run on this GPU: about ±%1 % (the mean error on %2 GPUs of a fit without "
                  "their runs, the worst GPU generation)")
            .arg(percent(a.unseenGenerationMeanAbsError), QString::fromStdString(a.unseenGeneration));
    if (!a.gpuHasEntry)
        return tr("Unknown: no published run on this GPU (%1)").arg(unseen);
    if (!a.softwareHasEntry)
        return tr("The software stack is not in the calibration: %1").arg(unseen);
    return tr("About ±%1 % (its mean error on the %2 published runs it was fitted to)")
        .arg(percent(a.fittedMeanAbsError))
        .arg(a.runs);
}

} // namespace gapstudio::views
