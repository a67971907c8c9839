// The bounded layout search under the corrected model (search_bound.cpp, points 6 and 7) on
// shipped designs: a dense FP8 model, an MoE with context parallelism, the default design (MoE on
// a projected GPU and FullFlat) and DeepSeek-V3 (dense blocks, multi-token prediction and pinned
// uneven stages, whose stage terms can be negative). Two independent checks:
//  - every valid layout of the space, evaluated one by one, scores at most the bound the search
//    skips with (the proof's claim itself, not only its consequence);
//  - the bounded search returns the exhaustive search's top N exactly (layouts, scores, ties and
//    enumeration positions), ranked by sample rate, by MFU and, through the cost search, by
//    $ per million tokens (with the same proof of exactness).
#include "gapstudio/io/measurement_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/search_bounded.h"
#include "gapstudio/scenario/costsearch.h"

#include "search/search_bound.h"

#include <QTest>

#include <algorithm>
#include <map>
#include <vector>

using namespace gapstudio;

Q_DECLARE_METATYPE(model::RankBy)

namespace {

/// A design of the shipped presets and the space its Best layout tab searches, with optional
/// pins, widened (every TP overlap, DP overlap on and off) where the space is small.
struct Case {
    scenario::CompiledScenario compiled;
    model::SearchSpace space;
};

scenario::Scenario loadDesign(const QString &file)
{
    const std::string path = std::string(PRESETS_DIR "/") + file.toStdString();
    if (file.startsWith("measurements/"))
        return io::loadMeasurement(path).scenario;
    return io::loadScenario(path);
}

model::SearchOptions searchOptions(const scenario::CompiledScenario &c, std::size_t topN)
{
    model::SearchOptions options = model::designSearchOptions(c.evaluateOptions());
    options.topN = topN;
    options.threads = 2;
    return options;
}

/// Every valid layout's score against the bound of its group (search_bound.h): the number of
/// valid layouts, or a failure message naming the first layout above its bound. The layouts come
/// from an exhaustive search that keeps them all (the test includes no inline code of the search,
/// whose copy would stand in for a mutated one at link time).
std::string checkEveryLayout(const Case &k, model::SearchOptions options, std::uint64_t &valid)
{
    const model::Application &app = k.compiled.application;
    const model::System &sys = k.compiled.system;
    options.topN = 1;
    options.topN = std::max<std::size_t>(1, model::searchLayouts(app, sys, k.space, options).valid);
    const model::SearchResult all = model::searchLayouts(app, sys, k.space, options);
    valid = all.top.size();
    model::EvaluateOptions evalOptions;
    evalOptions.quirks = options.quirks;
    evalOptions.features = options.features;
    evalOptions.calibration = options.calibration;
    // One bound per group: the fields the search varies outside the innermost loops.
    std::map<std::vector<std::int64_t>, std::vector<double>> bounds;
    for (const model::SearchHit &hit : all.top) {
        const model::Execution &e = hit.execution;
        std::vector<double> &bound
            = bounds[{ e.tensorPar, e.pipelinePar, e.dataPar, e.pipelineInterleaving,
                       static_cast<std::int64_t>(e.activationRecompute), e.optimizerSharding,
                       static_cast<std::int64_t>(e.tensorParCommType), e.seqParAgRedo,
                       static_cast<std::int64_t>(e.tensorParOverlap), e.fusedActivation, e.microbatchSize,
                       e.expertPar, e.expertSlice, e.dataParExp }];
        if (bound.empty()) {
            // The bound holds for the whole group whichever member stands for it: here the first
            // one kept, with every field the search varies innermost (all tiers but TP's, DP
            // overlap, offloading) moved away from its own values.
            model::Execution other = e;
            const auto next = [&sys](std::int64_t tier) {
                return (tier + 1) % static_cast<std::int64_t>(sys.networks.size());
            };
            other.pipelineParNet = next(e.pipelineParNet);
            other.dataParNet = next(e.dataParNet);
            other.dataParExpNet = next(e.dataParExpNet);
            other.expertParNet = next(e.expertParNet);
            other.expertSliceNet = next(e.expertSliceNet);
            other.dataParOverlap = !e.dataParOverlap;
            other.weightOffload = !e.weightOffload;
            other.activationsOffload = !e.activationsOffload;
            other.optimizerOffload = !e.optimizerOffload;
            bound.resize(sys.networks.size());
            model::detail::scoreUpperBounds(app, other, sys, evalOptions, k.space.rankBy, bound.data());
        }
        const double limit = bound[static_cast<std::size_t>(e.tensorParNet)];
        if (hit.score > limit)
            return "TP " + std::to_string(e.tensorPar) + " PP " + std::to_string(e.pipelinePar) + " DP "
                   + std::to_string(e.dataPar) + " mbs " + std::to_string(e.microbatchSize) + " TP tier "
                   + std::to_string(e.tensorParNet) + ": score " + std::to_string(hit.score)
                   + " above its bound " + std::to_string(limit);
    }
    return {};
}

} // namespace

class tst_SearchCorrected : public QObject {
    Q_OBJECT

    scenario::PresetLibrary mLibrary;

    /// The design of `file`, on `gpus` GPUs if not 0, with context parallelism `cp` and the
    /// pipeline (and stage sizes `first`/`last`, uneven) pinned at `pp` if not 0; its space widened
    /// if `widen` is not 0.
    Case makeCase(const QString &file, model::RankBy rankBy, const QList<qint64> &tweak = {}) const
    {
        const qint64 widen = tweak.value(0), gpus = tweak.value(1), cp = tweak.value(2), pp = tweak.value(3),
                     first = tweak.value(4), last = tweak.value(5);
        scenario::Scenario design = loadDesign(file);
        if (gpus > 0)
            design.gpuCount = gpus;
        const scenario::CompileResult compiled = scenario::compile(design, mLibrary);
        if (!compiled.compiled)
            qFatal("%s does not compile", qPrintable(file));
        Case k { *compiled.compiled, {} };
        model::Execution &e = k.compiled.execution;
        if (cp > 0) {
            e.contextPar = cp;
            e.contextParNet = 0;
        }
        model::LayoutPins pins;
        if (pp > 0) {
            e.pipelinePar = pp;
            pins.pipelinePar = pp;
        }
        if (first > 0) {
            e.firstStageBlocks = first;
            e.lastStageBlocks = last;
        }
        k.space = model::designSearchSpace(e, pins);
        if (widen) {
            k.space.tpOverlap.reset();
            k.space.tpOverlapVariants = true;
            k.space.dpOverlap = model::OverlapChoice::Both;
        }
        k.space.rankBy = rankBy;
        return k;
    }

private slots:
    void initTestCase() { mLibrary = io::loadPresetLibrary(PRESETS_DIR); }

    void designs_data()
    {
        QTest::addColumn<QString>("file");
        // Widened, GPUs, CP, pinned PP, first and last stage (0: as designed).
        QTest::addColumn<QList<qint64>>("tweak");
        QTest::addColumn<model::RankBy>("rankBy");
        // With -m (the design's space) a group the bound skips is still evaluated until one of
        // its layouts is valid: where few are, nothing can be skipped.
        QTest::addColumn<bool>("skips");
        const struct {
            const char *name, *file;
            QList<qint64> tweak;
            bool skips;
        } designs[] = {
            { "dense fp8 (Llama 2 13B, 16 H100)",
              "measurements/nemo-24.07-h100-fp8-dense/nemo2407-h100-llama2-13b-16gpu.json",
              {},
              true },
            { "dense, cp 2, stages 23/25 pinned (Megatron 22B, 16 A100)",
              "scenarios/val01-megatron-22b-a100.gapstudio.json",
              { 1, 16, 2, 2, 23, 25 },
              true },
            { "moe fp8, cp 2 (Grok-1 proxy, 128 GB200)",
              "measurements/dgxc-benchmarking-moe/dgxc-gb200-grok1proxy-128gpu-fp8.json",
              { 0, 0, 2 },
              true },
            { "default design (moe 1.8T, FullFlat)", "scenarios/default.gapstudio.json", {}, true },
            { "dense blocks, mtp (DeepSeek-V3, 1024 H100)",
              "measurements/dgxc-benchmarking-moe/dgxc-h100-deepseekv3-1024gpu-bf16.json",
              { 1 },
              false },
        };
        for (const auto &d : designs) {
            QTest::newRow(qPrintable(QString("%1, by sample rate").arg(d.name)))
                << d.file << d.tweak << model::RankBy::SampleRate << d.skips;
            QTest::newRow(qPrintable(QString("%1, by mfu").arg(d.name)))
                << d.file << d.tweak << model::RankBy::Mfu << d.skips;
        }
    }

    void everyLayoutWithinItsBound_data() { designs_data(); }
    void everyLayoutWithinItsBound()
    {
        QFETCH(QString, file);
        QFETCH(QList<qint64>, tweak);
        QFETCH(model::RankBy, rankBy);
        const Case k = makeCase(file, rankBy, tweak);
        QVERIFY(k.compiled.features.any());
        std::uint64_t valid = 0;
        const std::string failure = checkEveryLayout(k, searchOptions(k.compiled, 1), valid);
        QVERIFY2(failure.empty(), failure.c_str());
        QVERIFY(valid > 10);
    }

    void boundedEqualsExhaustive_data() { designs_data(); }
    void boundedEqualsExhaustive()
    {
        QFETCH(QString, file);
        QFETCH(QList<qint64>, tweak);
        QFETCH(model::RankBy, rankBy);
        const Case k = makeCase(file, rankBy, tweak);
        const model::SearchOptions options = searchOptions(k.compiled, 20);
        const model::Application &app = k.compiled.application;
        const model::System &sys = k.compiled.system;
        const model::SearchResult all = model::searchLayouts(app, sys, k.space, options);
        const model::BoundedSearchResult bounded = model::searchLayoutsBounded(app, sys, k.space, options);
        QVERIFY(all.valid > 0);
        QCOMPARE(bounded.search.configurations, all.configurations);
        QCOMPARE(bounded.evaluated + bounded.skipped, all.configurations);
        QCOMPARE(bounded.search.top.size(), all.top.size());
        for (std::size_t i = 0; i < all.top.size(); ++i) {
            QCOMPARE(bounded.search.top[i].index, all.top[i].index);
            QCOMPARE(bounded.search.top[i].score, all.top[i].score);
            QCOMPARE(bounded.search.top[i].stats.total_time, all.top[i].stats.total_time);
        }
        // The bound bites: on one worker (whose order is fixed) and for the best layout alone (as
        // the Best layout tab searches) it skips some of the space.
        model::SearchOptions one = options;
        one.threads = 1;
        one.topN = 1;
        const model::BoundedSearchResult alone = model::searchLayoutsBounded(app, sys, k.space, one);
        qInfo("%llu of %llu layouts evaluated", static_cast<unsigned long long>(alone.evaluated),
              static_cast<unsigned long long>(alone.search.configurations));
        QFETCH(bool, skips);
        if (skips)
            QVERIFY(alone.skipped > 0);
    }

    void costSearchBoundedEqualsExhaustive_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("rank");
        for (const char *file :
             { "scenarios/default.gapstudio.json",
               "measurements/dgxc-benchmarking-moe/dgxc-gb200-grok1proxy-128gpu-fp8.json" })
            for (const scenario::LayoutRank rank :
                 { scenario::LayoutRank::UsdPerMillionTokens, scenario::LayoutRank::JoulesPerToken,
                   scenario::LayoutRank::Mfu })
                QTest::newRow(qPrintable(QString("%1 by %2").arg(file, scenario::rankName(rank))))
                    << QString(file) << static_cast<int>(rank);
    }
    void costSearchBoundedEqualsExhaustive()
    {
        // rank's path: the cost search keeps its candidates by sample rate (or ranks by MFU), then
        // costs them; bounded and exhaustive give the same hits, scores and exactness.
        QFETCH(QString, file);
        QFETCH(int, rank);
        const scenario::CompileResult compiled = scenario::compile(loadDesign(file), mLibrary);
        QVERIFY(compiled.compiled.has_value());
        scenario::CostSearchOptions options;
        options.rank = static_cast<scenario::LayoutRank>(rank);
        options.topN = 5;
        options.candidates = 200;
        options.threads = 2;
        options.exhaustive = true;
        const scenario::CostSearchResult all = scenario::searchByCost(*compiled.compiled, options);
        options.exhaustive = false;
        const scenario::CostSearchResult bounded = scenario::searchByCost(*compiled.compiled, options);
        QVERIFY(!all.hits.empty());
        QCOMPARE(all.skipped, std::uint64_t { 0 });
        QVERIFY(bounded.skipped > 0);
        QCOMPARE(bounded.configurations, all.configurations);
        QCOMPARE(bounded.exact, all.exact);
        QCOMPARE(bounded.hits.size(), all.hits.size());
        for (std::size_t i = 0; i < all.hits.size(); ++i) {
            QCOMPARE(bounded.hits[i].score, all.hits[i].score);
            QCOMPARE(bounded.hits[i].stats.total_time, all.hits[i].stats.total_time);
        }
    }
};

QTEST_GUILESS_MAIN(tst_SearchCorrected)
#include "tst_search_corrected.moc"
