#include "studio/latencybench.h"

#include "studio/canvasscene.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"

#include "gapstudio/scenario/best_layout.h"
#include "gapstudio/scenario/override_keys.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <sys/resource.h>

#include <ctime>

#include <algorithm>
#include <numeric>
#include <vector>

namespace gapstudio::views {

namespace {
double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(index, values.size() - 1)];
}

double mean(const std::vector<double> &values)
{
    return values.empty()
               ? 0
               : std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

/// CPU time of this process so far (user + system, every thread), in milliseconds.
double processCpuMs()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    const auto ms = [](const timeval &t) {
        return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3;
    };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
}

/// CPU time of the calling thread so far, in milliseconds.
double threadCpuMs()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

/// CPU time of finding the design's best layout again on one thread (the Best layout tab's
/// search), or a negative value if the design does not compile.
double bestLayoutCpuMs(const ScenarioDocument &document)
{
    const scenario::CompileResult compiled = scenario::compile(document.scenario(), document.library());
    if (!compiled.compiled)
        return -1;
    scenario::BestLayoutOptions options;
    options.threads = 1;
    const double before = threadCpuMs();
    (void)scenario::findBestLayout(*compiled.compiled, options);
    return threadCpuMs() - before;
}
} // namespace

QString LatencyReport::text() const
{
    QString text
        = QStringLiteral("latency from parameter change to results in the views over %1 changes: "
                         "median %2 ms, p95 %3 ms, max %4 ms (compile+evaluate+analyze alone: median %5 ms); "
                         "CPU time per change (all threads, repaints included): median %6 ms, mean %7 ms")
              .arg(changes)
              .arg(median_ms, 0, 'f', 3)
              .arg(p95_ms, 0, 'f', 3)
              .arg(max_ms, 0, 'f', 3)
              .arg(computeMedian_ms, 0, 'f', 3)
              .arg(cpuMedian_ms, 0, 'f', 3)
              .arg(cpuMean_ms, 0, 'f', 3);
    if (hasCanvas) // a second line: the first stays as scripts read it
        text += QStringLiteral("\nof which the canvas (its item updates and repaints, CPU time per change): "
                               "median %1 ms, mean %2 ms")
                    .arg(canvasCpuMedian_ms, 0, 'f', 3)
                    .arg(canvasCpuMean_ms, 0, 'f', 3);
    if (bestLayoutSearches > 0)
        text += QStringLiteral(
                    "\nbest layout found again after a change (layout search on one core, CPU time): "
                    "median %1 ms, max %2 ms over %3 searches")
                    .arg(bestLayoutCpuMedian_ms, 0, 'f', 3)
                    .arg(bestLayoutCpuMax_ms, 0, 'f', 3)
                    .arg(bestLayoutSearches);
    return text;
}

LatencyReport runLatencyBench(ScenarioDocument *document, Recalculator *recalculator, int changes,
                              const CanvasView *canvas)
{
    std::vector<double> latencies, computes, cpus, canvasCpus, bestLayouts;
    const auto canvasCpuMs = [canvas] { return canvas ? canvas->canvasCpu_ms() : 0.0; };
    QElapsedTimer clock;
    QEventLoop loop;
    // Connected last, so it runs after every view's slot (direct connections run in order).
    const auto connection = QObject::connect(recalculator, &Recalculator::resultsReady, &loop, [&] {
        latencies.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
        loop.quit();
    });
    const double base = 50; // GB/s, stepping like a slider
    double cpuBefore = processCpuMs();
    double canvasBefore = canvasCpuMs();
    for (int i = 0; i < changes; ++i) {
        // The wait also runs what the previous change queued (repaints): counted in its CPU time.
        QTimer::singleShot(20, &loop, &QEventLoop::quit); // 50 Hz drag: throttle never delays
        loop.exec();
        clock.start();
        document->setOverride(scenario::keys::kScaleOutBandwidth, base * (1 + 0.01 * (i % 50)));
        QTimer guard;
        guard.setSingleShot(true);
        QObject::connect(&guard, &QTimer::timeout, &loop, &QEventLoop::quit);
        guard.start(1000);
        loop.exec();
        if (i > 0) {
            cpus.push_back(processCpuMs() - cpuBefore);
            canvasCpus.push_back(canvasCpuMs() - canvasBefore);
        }

        QElapsedTimer compute;
        compute.start();
        (void)computeResults(document->scenario(), document->library());
        computes.push_back(static_cast<double>(compute.nsecsElapsed()) / 1e6);
        if (i % 10 == 0)
            if (const double best = bestLayoutCpuMs(*document); best >= 0)
                bestLayouts.push_back(best);
        cpuBefore = processCpuMs(); // the extra computations above are not the GUI's
        canvasBefore = canvasCpuMs();
    }
    QObject::disconnect(connection);
    LatencyReport report;
    report.changes = static_cast<int>(latencies.size());
    report.median_ms = percentile(latencies, 0.5);
    report.p95_ms = percentile(latencies, 0.95);
    report.max_ms = percentile(latencies, 1.0);
    report.computeMedian_ms = percentile(computes, 0.5);
    report.cpuMedian_ms = percentile(cpus, 0.5);
    report.cpuMean_ms = mean(cpus);
    report.hasCanvas = canvas != nullptr;
    report.canvasCpuMedian_ms = percentile(canvasCpus, 0.5);
    report.canvasCpuMean_ms = mean(canvasCpus);
    report.bestLayoutSearches = static_cast<int>(bestLayouts.size());
    report.bestLayoutCpuMedian_ms = percentile(bestLayouts, 0.5);
    report.bestLayoutCpuMax_ms = percentile(bestLayouts, 1.0);
    return report;
}

} // namespace gapstudio::views
