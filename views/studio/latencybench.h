#pragma once
/**
 * @file latencybench.h
 * The studio's latency benchmark (not a test): the time from a parameter change (a slider step,
 * pushed as a command) to the moment every view connected to resultsReady has taken the new
 * results, over N changes spaced like a 50 Hz slider drag, and the CPU time the process spends per
 * change (getrusage, every thread: the change, the model, the views and the repaints they queue
 * for the event loop, which the latency alone does not see). Given the canvas view, also the CPU
 * time the canvas itself takes per change (updating its items and repainting; cpumeter.h), on a
 * second line. On a third, the CPU time the best layout takes to be found again after a change (the
 * Best layout tab's search, model::searchLayoutsBounded, on one core) every tenth change. Run by
 * `gapstudio --bench-latency`.
 */

#include <QString>

namespace gapstudio::views {

class ScenarioDocument;
class Recalculator;
class CanvasView;

struct LatencyReport {
    int changes = 0;
    double median_ms = 0, p95_ms = 0, max_ms = 0;
    double computeMedian_ms = 0; ///< compile + evaluate + analyze alone
    /// Process CPU time per change, from one change to the next (including queued repaints).
    double cpuMedian_ms = 0, cpuMean_ms = 0;
    /// The canvas's share of it (item updates + repaints of the canvas view); only with a canvas.
    bool hasCanvas = false;
    double canvasCpuMedian_ms = 0, canvasCpuMean_ms = 0;
    /// CPU time of the best layout's search after a change, on one thread (every tenth change).
    int bestLayoutSearches = 0;
    double bestLayoutCpuMedian_ms = 0, bestLayoutCpuMax_ms = 0;
    [[nodiscard]] QString text() const;
};

/// Runs `changes` slider steps on `document` (alternating the scale-out bandwidth override) and
/// measures each change-to-results latency. Connect the views to the recalculator first; with
/// `canvas`, the canvas's own CPU time per change is measured too.
[[nodiscard]] LatencyReport runLatencyBench(ScenarioDocument *document, Recalculator *recalculator,
                                            int changes = 200, const CanvasView *canvas = nullptr);

} // namespace gapstudio::views
