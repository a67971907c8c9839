#include "studio/recalculator.h"

#include "studio/scenariodocument.h"

#include <algorithm>

namespace gapstudio::views {

ResultsPtr computeResults(const scenario::Scenario &scenario, const scenario::PresetLibrary &library)
{
    auto results = std::make_shared<ScenarioResults>();
    results->scenario = scenario;
    try {
        scenario::CompileResult compiled = compileScenario(scenario, library);
        results->diagnostics = std::move(compiled.diagnostics);
        results->compiled = std::move(compiled.compiled);
        if (results->compiled) {
            const scenario::CompiledScenario &c = *results->compiled;
            model::EvaluateOptions options;
            options.quirks = scenario::scenarioQuirks(false, c.resolved.llm.isMoe());
            results->evaluation = model::evaluate(c.application, c.execution, c.system, options);
            const model::Diagnostics &d = results->evaluation.diagnostics;
            results->diagnostics.insert(results->diagnostics.end(), d.begin(), d.end());
            // Over capacity the stats are still meaningful: the memory chart shows the overflow.
            const bool capacityOnly = std::all_of(d.begin(), d.end(), [](const model::Diagnostic &x) {
                return x.code == model::DiagnosticCode::Tier1CapacityExceeded ||
                       x.code == model::DiagnosticCode::Tier2CapacityExceeded;
            });
            if (results->evaluation.ok || (!d.empty() && capacityOnly))
                results->analysis = model::analyze(c.application, c.execution, c.system, results->evaluation);
        }
    } catch (const std::exception &error) { // a model bug must not take the GUI down
        results->analysis.reset();
        results->diagnostics.push_back({model::DiagnosticCode::InvalidScenario, "", error.what()});
    }
    return results;
}

Recalculator::Recalculator(ScenarioDocument *document, QObject *parent)
    : QObject(parent)
    , mDocument(document)
{
    mTimer.setSingleShot(true);
    connect(document, &ScenarioDocument::changed, this, &Recalculator::schedule);
    connect(&mTimer, &QTimer::timeout, this, &Recalculator::recalculateNow);
}

void Recalculator::schedule()
{
    if (mTimer.isActive())
        return; // throttle: the pending run will see this change too
    const qint64 since = mSinceLast.isValid() ? mSinceLast.elapsed() : kIntervalMs;
    mTimer.start(static_cast<int>(std::max<qint64>(0, kIntervalMs - since)));
}

void Recalculator::recalculateNow()
{
    mTimer.stop();
    mSinceLast.start();
    mLatest = computeResults(mDocument->scenario(), mDocument->library());
    emit resultsReady(mLatest);
}

} // namespace gapstudio::views
