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
    switch (a.basis()) {
    case scenario::CalibrationAccuracy::Basis::UnseenGpu:
        return tr("No published run on this GPU: about ±%1 % (the mean error on %2 GPUs of a fit without "
                  "their runs, the worst GPU generation)")
            .arg(percent(a.meanAbsError()), QString::fromStdString(a.unseenGeneration));
    case scenario::CalibrationAccuracy::Basis::Unestimated:
        return tr("Unknown: no published run on this GPU (%1)").arg(unseen);
    case scenario::CalibrationAccuracy::Basis::UnseenSoftware:
        return tr("The software stack is not in the calibration: %1").arg(unseen);
    case scenario::CalibrationAccuracy::Basis::FittedRuns:
        break;
    }
    return tr("About ±%1 % (its mean error on the %2 published runs it was fitted to)")
        .arg(percent(a.meanAbsError()))
        .arg(a.runs);
}

QString intervalText(const ScenarioResults &results)
{
    if (!results.interval)
        return {};
    const scenario::PredictionInterval &i = *results.interval;
    const auto tr = [](const char *text) { return QCoreApplication::translate("CalibrationText", text); };
    const auto sigma = [](double value) { return QString::number(value, 'f', 2); };
    const QString largest
        = i.parameters.empty() ? tr("none") : QString::fromStdString(i.parameters.front().name);
    QString error;
    switch (i.basis) {
    case scenario::CalibrationAccuracy::Basis::FittedRuns:
        error = tr("the fitted runs' error");
        break;
    case scenario::CalibrationAccuracy::Basis::UnseenSoftware:
        error = tr("the error on software stacks left out of the fit");
        break;
    case scenario::CalibrationAccuracy::Basis::UnseenGpu:
    case scenario::CalibrationAccuracy::Basis::Unestimated:
        error = tr("the error on a GPU generation left out of the fit");
        break;
    }
    return tr("One standard deviation of the log step time, about 68 % of outcomes: %1 from the "
              "calibration's "
              "parameter errors (most from %2), %3 from %4; together %5")
        .arg(sigma(i.parameterSigma), largest, sigma(i.modelSigma), error, sigma(i.sigma));
}

} // namespace gapstudio::views
