#include "report/headlessstatus.h"

#include "common/safewrite.h"
#include "report/headless.h"

#include "gapstudio/scenario/locate.h"

#include <QObject>

#include <cstdio>

namespace gapstudio::views {

namespace {

QString text(const ScenarioResults &results, const QString &file, const model::Diagnostic &d)
{
    return QString::fromStdString(scenario::scenarioDiagnosticText(file.toStdString(), results.scenario, d));
}

} // namespace

void printHeadlessError(const QString &message)
{
    std::fprintf(stderr, "error: %s\n", qPrintable(message));
}

int headlessInputStatus(const ScenarioResults &results, const QString &scenarioFile)
{
    if (results.compiled && !scenario::isMalformedScenario(results.diagnostics))
        return kHeadlessOk;
    for (const model::Diagnostic &d : results.diagnostics) {
        if (scenario::isMalformedScenario({ d })) {
            printHeadlessError(text(results, scenarioFile, d));
            return kHeadlessBadInput;
        }
    }
    printHeadlessError(QObject::tr("%1: the scenario cannot be compiled").arg(scenarioFile));
    return kHeadlessBadInput;
}

int headlessFinish(const ScenarioResults &results, const QString &scenarioFile)
{
    QString error;
    if (!flushStandardOutput(&error)) {
        printHeadlessError(error);
        return kHeadlessWriteFailed;
    }
    if (results.ok())
        return kHeadlessOk;
    // One line per cause, as the CLI prints them (the status text only if there is no diagnostic).
    if (results.diagnostics.empty())
        printHeadlessError(
            QObject::tr("%1: %2").arg(scenarioFile, QString::fromStdString(results.statusText)));
    for (const model::Diagnostic &d : results.diagnostics)
        printHeadlessError(text(results, scenarioFile, d));
    return kHeadlessInfeasible;
}

} // namespace gapstudio::views
