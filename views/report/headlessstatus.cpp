#include "report/headlessstatus.h"

#include "common/safewrite.h"
#include "report/headless.h"

#include "gapstudio/scenario/locate.h"

#include <QObject>

#include <cstdio>

namespace gapstudio::views {

namespace {

void printLine(const QString &message)
{
    std::fprintf(stderr, "gapstudio: %s\n", qPrintable(message));
}

QString text(const ScenarioResults &results, const QString &file, const model::Diagnostic &d)
{
    return QString::fromStdString(scenario::scenarioDiagnosticText(file.toStdString(), results.scenario, d));
}

} // namespace

int headlessInputStatus(const ScenarioResults &results, const QString &scenarioFile)
{
    if (results.compiled && !scenario::isMalformedScenario(results.diagnostics))
        return kHeadlessOk;
    for (const model::Diagnostic &d : results.diagnostics) {
        if (scenario::isMalformedScenario({ d })) {
            printLine(text(results, scenarioFile, d));
            return kHeadlessBadInput;
        }
    }
    printLine(QObject::tr("%1: the scenario cannot be compiled").arg(scenarioFile));
    return kHeadlessBadInput;
}

int headlessFinish(const ScenarioResults &results, const QString &scenarioFile)
{
    QString error;
    if (!flushStandardOutput(&error)) {
        printLine(error);
        return kHeadlessWriteFailed;
    }
    if (results.ok())
        return kHeadlessOk;
    printLine(QObject::tr("%1: %2; the outputs show why")
                  .arg(scenarioFile, QString::fromStdString(results.statusText)));
    for (const model::Diagnostic &d : results.diagnostics)
        printLine(text(results, scenarioFile, d));
    return kHeadlessInfeasible;
}

} // namespace gapstudio::views
