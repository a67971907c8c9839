#include "studio/recalculator.h"

#include "studio/scenariodocument.h"

#include <algorithm>

namespace gapstudio::views {

ResultsPtr computeResults(const scenario::Scenario &scenario, const scenario::PresetLibrary &library)
{
    // The corrected model for native scenarios; the pipeline never throws.
    return std::make_shared<const ScenarioResults>(scenario::runScenario(scenario, library));
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
