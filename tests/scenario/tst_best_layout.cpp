// A design judged at its best layout (scenario/best_layout.h). The expectations are orderings a
// search must satisfy whatever the model's numbers: the best over a space is at least every layout
// in it (the design's own layout, a layout found for other hardware), a pinned search is a subset
// of the free one, and the layout reported is the one evaluated.
#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/best_layout.h"

#include <QTest>

using namespace gapstudio;

namespace {

/// GPT-3 175B on A100s (Calculon case 19), on `gpus` GPUs: 512 keeps each search about a second.
scenario::Scenario gpt3(std::int64_t gpus)
{
    scenario::Scenario s = io::loadScenario(PRESETS_DIR "/scenarios/gpt3-175b-4096-a100.gapstudio.json");
    s.gpuCount = gpus;
    return s;
}

double sampleRate(const scenario::PipelineResult &r)
{
    return r.evaluation.stats.sample_rate;
}

scenario::BestLayoutOptions twoThreads()
{
    scenario::BestLayoutOptions options;
    options.threads = 2;
    return options;
}

} // namespace

class tst_BestLayout : public QObject {
    Q_OBJECT

private:
    scenario::PresetLibrary mLibrary;

private slots:
    void initTestCase() { mLibrary = io::loadPresetLibrary(PRESETS_DIR); }

    /// On the design's own GPU count the best is at least the design's own layout; the layout
    /// written into the returned scenario evaluates to the same result.
    void neverWorseThanTheDesign()
    {
        const scenario::Scenario design = gpt3(4096);
        const scenario::PipelineResult own = scenario::runScenario(design, mLibrary);
        QVERIFY(own.ok());
        const scenario::BestLayoutResult best
            = scenario::runScenarioAtBestLayout(design, mLibrary, twoThreads());
        QVERIFY(best.found);
        QVERIFY(best.result.ok());
        QVERIFY(best.valid > 0 && best.valid <= best.configurations);
        QVERIFY(sampleRate(best.result) >= sampleRate(own));
        const scenario::PipelineResult again = scenario::runScenario(best.result.scenario, mLibrary);
        QVERIFY(again.ok());
        QCOMPARE(sampleRate(again), sampleRate(best.result));
        QCOMPARE(again.compiled->execution, best.result.compiled->execution);
    }

    /// A design whose layout no longer fits its GPU count is laid out anew on exactly that many.
    void gpuCountChangeReoptimises()
    {
        const scenario::Scenario design = gpt3(512);
        QVERIFY(!scenario::runScenario(design, mLibrary).ok()); // the layout is for 4096 GPUs
        const scenario::BestLayoutResult best
            = scenario::runScenarioAtBestLayout(design, mLibrary, twoThreads());
        QVERIFY(best.found);
        const model::Execution &e = best.result.compiled->execution;
        QCOMPARE(e.numProcs, std::int64_t { 512 });
        QCOMPARE(e.tensorPar * e.pipelinePar * e.dataPar, std::int64_t { 512 });
        QCOMPARE(e.batchSize, std::int64_t { 4096 }); // the design's global batch (case 19)
    }

    /// After a GPU change the layout found for the new GPU is at least the old GPU's best layout
    /// on the new GPU (the stale layout a design would otherwise be judged at).
    void gpuChangeBeatsTheStaleLayout()
    {
        const scenario::BestLayoutResult a100
            = scenario::runScenarioAtBestLayout(gpt3(512), mLibrary, twoThreads());
        QVERIFY(a100.found);
        scenario::Scenario stale = a100.result.scenario; // the A100's best layout, written inline
        stale.gpu.presetId = "nvidia-h100-sxm-80gb";
        const scenario::PipelineResult staleResult = scenario::runScenario(stale, mLibrary);
        QVERIFY(staleResult.ok());
        scenario::Scenario h100 = gpt3(512);
        h100.gpu.presetId = "nvidia-h100-sxm-80gb";
        const scenario::BestLayoutResult best
            = scenario::runScenarioAtBestLayout(h100, mLibrary, twoThreads());
        QVERIFY(best.found);
        QVERIFY(sampleRate(best.result) >= sampleRate(staleResult));
        QVERIFY(sampleRate(best.result) > sampleRate(a100.result)); // an H100 outruns an A100
    }

    /// Pins keep the user's choices; the pinned best is never better than the free one.
    void pinsAreKept()
    {
        const scenario::BestLayoutResult free
            = scenario::runScenarioAtBestLayout(gpt3(512), mLibrary, twoThreads());
        QVERIFY(free.found);
        const std::int64_t freeTp = free.result.compiled->execution.tensorPar;
        scenario::BestLayoutOptions pinned = twoThreads();
        pinned.pins.tensorPar = freeTp == 8 ? 4 : 8;
        pinned.pins.microbatchSize = 1;
        const scenario::BestLayoutResult kept
            = scenario::runScenarioAtBestLayout(gpt3(512), mLibrary, pinned);
        QVERIFY(kept.found);
        QCOMPARE(kept.result.compiled->execution.tensorPar, *pinned.pins.tensorPar);
        QCOMPARE(kept.result.compiled->execution.microbatchSize, std::int64_t { 1 });
        QVERIFY(kept.configurations < free.configurations);
        QVERIFY(sampleRate(kept.result) <= sampleRate(free.result));

        // A pin the space cannot satisfy (TP 3 does not divide 512): nothing found, the design
        // as given with its own status.
        scenario::BestLayoutOptions impossible = twoThreads();
        impossible.pins.tensorPar = 3;
        const scenario::BestLayoutResult none
            = scenario::runScenarioAtBestLayout(gpt3(512), mLibrary, impossible);
        QVERIFY(!none.found);
        QCOMPARE(none.configurations, std::uint64_t { 0 });
        QVERIFY(!none.result.ok());
    }
};

QTEST_GUILESS_MAIN(tst_BestLayout)
#include "tst_best_layout.moc"
