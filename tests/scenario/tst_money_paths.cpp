// The money paths against numbers computed by hand or by exhaustion: IT power and cost per hour
// from a hand-counted bill of materials of a small fat tree, the cost search's ranking and its
// exactness against every layout of a small space evaluated and costed, roadmap gains as ratios
// of step times, and the best layout of a design with context parallelism and uneven pipeline
// stages against every layout of a subset of its space, and the same design's GPU-count sweep.
#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/cost.h"
#include "gapstudio/model/sweep.h"
#include "gapstudio/scenario/best_layout.h"
#include "gapstudio/scenario/cost.h"
#include "gapstudio/scenario/costsearch.h"
#include "gapstudio/scenario/roadmap.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace gapstudio;

namespace {

/// Megatron 22B on A100s (Calculon validation case 01) on `gpus` GPUs.
scenario::Scenario val01(std::int64_t gpus)
{
    scenario::Scenario s = io::loadScenario(PRESETS_DIR "/scenarios/val01-megatron-22b-a100.gapstudio.json");
    s.gpuCount = gpus;
    return s;
}

/// A 32-GPU cluster: 4 servers of 8, an 8-GPU scale-up domain per server, one scale-out plane.
model::ClusterSpec smallCluster()
{
    model::ClusterSpec spec;
    spec.gpus = 32;
    spec.gpu = { 10000, 700, 8, 50000, 2000, "test" };
    spec.gpuHasCost = true;
    spec.scaleUpDomainSize = 8;
    // Scale-up: 300 GB/s per GPU = 2400 Gb/s over 800 Gb/s ports: 3 ports per GPU; 32-port
    // switches, copper (no optics, no NICs).
    spec.scaleUp.bandwidthPerGpu_Bps = 300e9;
    spec.scaleUp.hasCost = true;
    spec.scaleUp.cost.portSpeed_bps = 800e9;
    spec.scaleUp.cost.switchRadix = 32;
    spec.scaleUp.cost.switchPrice_USD = 20000;
    spec.scaleUp.cost.switchPower_W = 500;
    // Scale-out: 50 GB/s = 400 Gb/s per GPU over 400 Gb/s ports: one plane of 16-port switches.
    spec.scaleOut.bandwidthPerGpu_Bps = 50e9;
    spec.scaleOut.hasCost = true;
    spec.scaleOut.cost = { 400e9, 16, 30000, 1000, 1500, 20, 800, 15, 100, "test" };
    return spec;
}

double lineCount(const model::BillOfMaterials &bom, const char *key)
{
    const model::BomLine *line = bom.line(key);
    return line ? line->count : 0;
}

} // namespace

class tst_MoneyPaths : public QObject {
    Q_OBJECT

private:
    scenario::PresetLibrary mLibrary;

private slots:
    void initTestCase() { mLibrary = io::loadPresetLibrary(PRESETS_DIR); }

    void itPowerFromAHandCountedBom()
    {
        const model::BillOfMaterials bom = model::billOfMaterials(smallCluster());
        // By hand. Scale-up, per domain of 8 GPUs: 8 x 3 = 24 ports fit one 32-port switch (one
        // level), 24 GPU-switch links; 4 domains: 4 switches, 96 links, copper.
        QCOMPARE(lineCount(bom, "scale_up_switches"), 4.0);
        QCOMPARE(lineCount(bom, "scale_up_optics"), 0.0);
        // Scale-out over 32 GPUs with 16-port switches (a two-level folded Clos holds
        // 2 x 8^2 = 128, Al-Fares et al. 2008): 32 / 8 = 4 leaves (8 ports down, 8 up), their
        // 32 uplinks into 32 / 16 = 2 spines: 6 switches; 32 GPU-leaf + 32 leaf-spine = 64
        // links and cables, 2 x 64 = 128 optics (one per link end), 32 NICs.
        QCOMPARE(lineCount(bom, "scale_out_switches"), 6.0);
        QCOMPARE(lineCount(bom, "scale_out_nics"), 32.0);
        QCOMPARE(lineCount(bom, "scale_out_optics"), 128.0);
        QCOMPARE(lineCount(bom, "scale_out_cables"), 64.0);
        // Capital: GPUs 320 000, servers 4 x 50 000 = 200 000, scale-up switches 80 000,
        // scale-out switches 180 000, NICs 48 000, optics 102 400, cables 6 400: 936 800 USD.
        QCOMPARE(bom.capex_USD(), 936800.0);

        model::CostAssumptions assumptions; // PUE 1.2, 0.08 USD/kWh, 5 years, GPU idle 0.4
        assumptions.pue = 1.2;
        assumptions.usdPerKWh = 0.08;
        assumptions.gpuIdlePowerFraction = 0.4;
        model::CostActivity activity;
        activity.gpuActivity = 0.5;
        activity.tokensPerSecond = 100000;
        const model::CostResult cost = model::costOf(bom, activity, assumptions, 700);
        // IT power: GPUs 32 x 700 x (0.4 + 0.6 x 0.5) = 15 680 W; servers 4 x 2000 = 8000 W;
        // scale-up switches 4 x 500 = 2000 W; scale-out switches 6 x 1000 = 6000 W, NICs
        // 32 x 20 = 640 W, optics 128 x 15 = 1920 W: 34 240 W; facility x 1.2 = 41 088 W.
        QCOMPARE(cost.itPower_W, 34240.0);
        QCOMPARE(cost.facilityPower_W, 41088.0);
        // Per hour: capital 936 800 / (5 x 365.25 x 24 = 43 830 h); energy 41.088 kW x 0.08.
        QVERIFY(std::fabs(cost.capexUsdPerHour - 936800.0 / 43830.0) < 1e-9);
        QVERIFY(std::fabs(cost.energyUsdPerHour - 41.088 * 0.08) < 1e-12);
        // Per token: (capital + energy per hour) / (100 000 x 3600 tokens) x 1e6; J/token: W / tok/s.
        const double perHour = 936800.0 / 43830.0 + 41.088 * 0.08;
        QVERIFY(std::fabs(cost.usdPerMillionTokens - perHour / 3.6e8 * 1e6) < 1e-12);
        QVERIFY(std::fabs(cost.joulesPerToken - 41088.0 / 100000) < 1e-12);
    }

    void costSearchAgainstEveryLayout();
    void roadmapGainsAreRatiosOfStepTimes();
    void bestLayoutWithContextParallelism();
    void gpuCountSweepKeepsContextParallelism();

private:
    /// Megatron 22B (48 blocks) on 16 GPUs as TP 4 x PP 2 x DP 1 x CP 2, stages of 23 and 25
    /// blocks, full recompute, microbatch 1.
    scenario::Scenario contextParallelDesign() const
    {
        scenario::Scenario design = val01(16);
        scenario::Layout layout = mLibrary.layouts.at("val01-megatron-22b-8gpu-full");
        model::Execution &e = layout.execution;
        e.tensorPar = 4;
        e.pipelinePar = 2;
        e.dataPar = 1;
        e.contextPar = 2;
        e.microbatchSize = 1;
        e.firstStageBlocks = 23;
        e.lastStageBlocks = 25;
        design.layout = { "", layout };
        return design;
    }
};

void tst_MoneyPaths::costSearchAgainstEveryLayout()
{
    // Every valid layout of Megatron 22B on 8 A100s (about 40 000) evaluated and costed one by
    // one: the cost search must return the cheapest per token, in order, and call its ranking
    // exact exactly when its pool of candidates proves it.
    const scenario::CompileResult compiled = scenario::compile(val01(8), mLibrary);
    QVERIFY(compiled.compiled.has_value());
    const scenario::CompiledScenario &c = *compiled.compiled;
    model::SearchOptions every;
    every.topN = 100000;
    every.threads = 2;
    every.quirks = every.moeQuirks = c.quirks;
    every.features = c.features;
    every.calibration = c.calibration;
    const model::SearchResult all
        = model::searchLayouts(c.application, c.system, scenario::scenarioSearchSpace(c), every);
    QVERIFY(all.valid > 3);
    QCOMPARE(all.top.size(), std::size_t(all.valid)); // every valid layout kept
    std::vector<double> scores, effectiveScores;
    double fastest = 0;
    double fastestScore = 0;
    scenario::CompiledScenario layout = c;
    for (const model::SearchHit &hit : all.top) {
        layout.execution = hit.execution;
        const scenario::PipelineResult r = scenario::runCompiled(layout);
        QVERIFY(r.cost.has_value() && r.goodput.has_value());
        scores.push_back(r.cost->usdPerMillionTokens);
        effectiveScores.push_back(r.goodput->effectiveUsdPerMillionTokens);
        if (r.evaluation.stats.sample_rate > fastest) {
            fastest = r.evaluation.stats.sample_rate;
            fastestScore = scores.back();
        }
    }
    std::sort(scores.begin(), scores.end());
    std::sort(effectiveScores.begin(), effectiveScores.end());

    // A pool of every valid layout: the slowest kept is the slowest of all, so nothing is left
    // out and the ranking is exact, whatever the top N asked for.
    scenario::CostSearchOptions options;
    options.rank = scenario::LayoutRank::UsdPerMillionTokens;
    options.threads = 2;
    options.candidates = all.valid;
    for (const std::size_t topN : { 3, 1 }) {
        options.topN = topN;
        const scenario::CostSearchResult top = scenario::searchByCost(c, options);
        QVERIFY(top.exact);
        QCOMPARE(top.hits.size(), topN);
        for (std::size_t i = 0; i < topN; ++i)
            QVERIFY2(std::fabs(top.hits[i].score / scores[i] - 1) < 1e-9, qPrintable(QString::number(i)));
    }
    // A pool of one candidate (the fastest layout) proves nothing: a slower layout is bounded
    // below by the idle cluster at the fastest layout's token rate, which costs less than the
    // fastest layout itself (its GPUs are active). Not exact, and the hit is the fastest's cost.
    options.candidates = 1;
    const scenario::CostSearchResult one = scenario::searchByCost(c, options);
    QVERIFY(!one.exact);
    QVERIFY(std::fabs(one.hits.front().score / fastestScore - 1) < 1e-9);
    qInfo("cheapest %.6g USD/Mtok, fastest layout's %.6g", scores.front(), fastestScore);

    // By the effective cost (failures, checkpoints and restarts counted): the layouts in the order
    // of the goodputs the design's own results give them, exact with every layout in the pool.
    options.rank = scenario::LayoutRank::EffectiveUsdPerMillionTokens;
    options.candidates = all.valid;
    options.topN = 3;
    const scenario::CostSearchResult effective = scenario::searchByCost(c, options);
    QVERIFY(effective.exact);
    QCOMPARE(effective.hits.size(), std::size_t(3));
    for (std::size_t i = 0; i < 3; ++i) {
        const scenario::CostSearchHit &hit = effective.hits[i];
        QVERIFY2(std::fabs(hit.score / effectiveScores[i] - 1) < 1e-9, qPrintable(QString::number(i)));
        QVERIFY(hit.goodput.goodput > 0 && hit.goodput.goodput < 1);
        QVERIFY(std::fabs(hit.score * hit.goodput.goodput / hit.cost.usdPerMillionTokens - 1) < 1e-12);
    }
}

void tst_MoneyPaths::roadmapGainsAreRatiosOfStepTimes()
{
    // Three steps of the same training (same batch and sequence: the same tokens per step), each
    // evaluated on its own: the gains are ratios of step times, of cluster cost per step and of
    // facility energy per step.
    // A GPU price, so that the cost per step (capital and energy) differs from the energy.
    scenario::Scenario first = val01(8);
    first.overrides["gpu.price_USD"] = 15000;
    std::vector<scenario::Scenario> steps(3, first);
    steps[1].overrides["gpu.hbm_bandwidth_GBps"] = 4000;
    steps[2] = steps[1];
    steps[2].overrides["gpu.board_power_W"] = 300;
    steps[2].overrides["reliability.storage_GBps"] = 2; // slower checkpoints: a lower goodput
    const std::vector<scenario::RoadmapStepResult> road = scenario::evaluateRoadmap(steps, mLibrary, {});
    QCOMPARE(road.size(), std::size_t { 3 });
    QCOMPARE(road[0].speedup, 0.0); // nothing before the first step
    for (std::size_t i = 1; i < 3; ++i) {
        const scenario::PipelineResult before = scenario::runScenario(steps[i - 1], mLibrary);
        const scenario::PipelineResult after = scenario::runScenario(steps[i], mLibrary);
        QVERIFY(before.ok() && after.ok() && before.cost && after.cost);
        const double t0 = before.evaluation.stats.total_time;
        const double t1 = after.evaluation.stats.total_time;
        QVERIFY(std::fabs(road[i].speedup - t0 / t1) < 1e-9 * t0 / t1);
        const double cost = (after.cost->clusterUsdPerHour * t1) / (before.cost->clusterUsdPerHour * t0);
        QVERIFY2(std::fabs(road[i].costRatio - cost) < 1e-9 * cost,
                 qPrintable(QString::number(road[i].costRatio)));
        const double energy = (after.cost->facilityPower_W * t1) / (before.cost->facilityPower_W * t0);
        QVERIFY2(std::fabs(road[i].energyRatio - energy) < 1e-9 * energy,
                 qPrintable(QString::number(road[i].energyRatio)));
        // With failures, checkpoints and restarts: the cost per step over each step's goodput.
        QVERIFY(before.goodput && after.goodput);
        const double effective = cost * before.goodput->goodput / after.goodput->goodput;
        QVERIFY2(std::fabs(road[i].effectiveCostRatio - effective) < 1e-9 * effective,
                 qPrintable(QString::number(road[i].effectiveCostRatio)));
    }
    QVERIFY(road[1].speedup > 1.0);     // faster memory: a faster step
    QVERIFY(road[2].energyRatio < 1.0); // a lower board power: less energy per step
    QVERIFY(std::fabs(road[2].costRatio - road[2].energyRatio) > 0.01); // capital does not shrink
    QVERIFY(road[2].effectiveCostRatio > road[2].costRatio * 1.001);    // nor do failures
}

void tst_MoneyPaths::bestLayoutWithContextParallelism()
{
    // Megatron 22B (48 blocks) on 16 GPUs as TP 4 x PP 2 x DP 1 x CP 2, stages of 23 and 25
    // blocks, full recompute, microbatch 1. With PP pinned (so the uneven stages stay), the best
    // layout must keep CP 2 on 16 GPUs and be at least every layout of TP x DP x microbatch x
    // recompute evaluated here one by one.
    const scenario::CompileResult compiled = scenario::compile(contextParallelDesign(), mLibrary);
    QVERIFY(compiled.compiled.has_value());
    scenario::CompiledScenario variant = *compiled.compiled;
    double best = 0;
    for (const std::int64_t tp : { 1, 2, 4 }) {
        const std::int64_t dp = 4 / tp;
        for (std::int64_t mbs = 1; mbs <= 4 / dp; mbs *= 2) {
            for (const model::Recompute rc :
                 { model::Recompute::None, model::Recompute::AttnOnly, model::Recompute::Full }) {
                variant.execution = compiled.compiled->execution;
                variant.execution.tensorPar = tp;
                variant.execution.dataPar = dp;
                variant.execution.microbatchSize = mbs;
                variant.execution.activationRecompute = rc;
                const scenario::PipelineResult r = scenario::runCompiled(variant);
                if (r.ok())
                    best = std::max(best, r.evaluation.stats.sample_rate);
            }
        }
    }
    const scenario::PipelineResult own = scenario::runCompiled(*compiled.compiled);
    QVERIFY(own.ok());
    QVERIFY(best > own.evaluation.stats.sample_rate); // the design is not its own best
    scenario::BestLayoutOptions options;
    options.threads = 2;
    options.pins.pipelinePar = 2;
    const scenario::BestLayoutResult found = scenario::findBestLayout(*compiled.compiled, options, {});
    QVERIFY(found.found && found.result.ok());
    const model::Execution &x = found.result.compiled->execution;
    QCOMPARE(x.contextPar, std::int64_t { 2 });
    QCOMPARE(x.tensorPar * x.pipelinePar * x.dataPar * x.contextPar, std::int64_t { 16 });
    QCOMPARE(x.firstStageBlocks, std::int64_t { 23 });
    QCOMPARE(x.lastStageBlocks, std::int64_t { 25 });
    QVERIFY2(found.result.evaluation.stats.sample_rate >= best * (1 - 1e-12),
             qPrintable(QString("%1 < %2").arg(found.result.evaluation.stats.sample_rate).arg(best)));
}

void tst_MoneyPaths::gpuCountSweepKeepsContextParallelism()
{
    // The Explore scaling curve of a CP 2 design (the design's own search space and options): each
    // GPU count is every GPU of the point, CP 2 included, and each best layout is what the
    // pipeline gives for the design with that layout. An odd count has no layout.
    const scenario::CompileResult compiled = scenario::compile(contextParallelDesign(), mLibrary);
    QVERIFY(compiled.compiled.has_value());
    const scenario::CompiledScenario &design = *compiled.compiled;
    model::SearchOptions options = model::designSearchOptions(design.evaluateOptions());
    options.threads = 2;
    const std::vector<model::SweepPoint> points
        = model::sweepGpuCount(design.application, design.system, model::designSearchSpace(design.execution),
                               { 8, 16, 17, 32 }, options);
    QCOMPARE(points.size(), std::size_t { 4 });
    for (const model::SweepPoint &p : points) {
        if (p.x == 17) {
            QVERIFY(!p.evaluation.ok && !p.layout);
            QVERIFY(!p.evaluation.diagnostics.empty());
            continue;
        }
        QVERIFY2(p.evaluation.ok && p.layout, qPrintable(QString::number(p.x)));
        const model::Execution &x = *p.layout;
        QCOMPARE(x.contextPar, std::int64_t { 2 });
        QCOMPARE(static_cast<double>(x.numProcs), p.x);
        QCOMPARE(static_cast<double>(x.tensorPar * x.pipelinePar * x.dataPar * x.contextPar), p.x);
        scenario::CompiledScenario at = design;
        at.execution = x;
        const scenario::PipelineResult own = scenario::runCompiled(at);
        QVERIFY(own.ok());
        QCOMPARE(own.evaluation.stats.sample_rate, p.evaluation.stats.sample_rate);
    }
}

QTEST_GUILESS_MAIN(tst_MoneyPaths)
#include "tst_money_paths.moc"
