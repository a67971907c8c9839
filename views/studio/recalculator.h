#pragma once
/**
 * @file recalculator.h
 * Turns document changes into results through the scenario pipeline (scenario::runScenario:
 * compile, evaluate with the corrected model, analyze, status), then resultsReady(ResultsPtr). Throttled to
 * at most one run per kIntervalMs (PlotJuggler's DelayedCallback, with a leading edge: the first change after
 * a quiet period runs at once, later ones wait for the end of the interval). Never throws: an infeasible
 * design is a result with diagnostics.
 */

#include "results/scenarioresults.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace gapstudio::views {

class ScenarioDocument;

/// The results for `scenario` (scenario::runScenario with the studio's options; used by the
/// recalculator, the headless report and tools that need results synchronously).
[[nodiscard]] ResultsPtr computeResults(const scenario::Scenario &scenario, const scenario::PresetLibrary &library);

class Recalculator : public QObject {
    Q_OBJECT

public:
    static constexpr int kIntervalMs = 16; ///< about one frame

    explicit Recalculator(ScenarioDocument *document, QObject *parent = nullptr);

    [[nodiscard]] ResultsPtr latest() const { return mLatest; }
    /// Computes now (skipping the throttle) and emits resultsReady.
    void recalculateNow();

signals:
    void resultsReady(gapstudio::views::ResultsPtr results);

private:
    void schedule();

    ScenarioDocument *mDocument;
    QTimer mTimer;
    QElapsedTimer mSinceLast;
    ResultsPtr mLatest;
};

} // namespace gapstudio::views
