// Layout search and GPU-count sweeps judged by cost (costsearch.h).
#include "gapstudio/scenario/costsearch.h"

#include "gapstudio/model/search_bounded.h"

#include <algorithm>
#include <array>
#include <exception>

namespace gapstudio::scenario {

namespace {

constexpr std::array<const char *, 5> kRankNames = { "sample_rate", "mfu", "usd_per_million_tokens",
                                                     "joules_per_token", "effective_usd_per_million_tokens" };

bool lowerIsBetter(LayoutRank rank) noexcept
{
    return rank == LayoutRank::UsdPerMillionTokens || rank == LayoutRank::JoulesPerToken
           || rank == LayoutRank::EffectiveUsdPerMillionTokens;
}

double scoreOf(LayoutRank rank, const CostSearchHit &hit) noexcept
{
    switch (rank) {
    case LayoutRank::SampleRate:
        return hit.stats.sample_rate;
    case LayoutRank::Mfu:
        return hit.stats.total_efficiency;
    case LayoutRank::UsdPerMillionTokens:
        return hit.cost.usdPerMillionTokens;
    case LayoutRank::EffectiveUsdPerMillionTokens:
        return hit.goodput.effectiveUsdPerMillionTokens;
    case LayoutRank::JoulesPerToken:
        break;
    }
    return hit.cost.joulesPerToken;
}

/// The best score a layout slower than `cost`'s could reach: its cluster at zero GPU activity
/// (the lowest cost per hour and power) at `cost`'s token rate. Its effective $/million tokens is
/// at least its $/million tokens (a goodput is at most 1), which bounds it.
double costLowerBound(LayoutRank rank, const model::CostResult &cost, double tokensPerSecond,
                      double boardPower_W)
{
    model::CostActivity idle;
    idle.tokensPerSecond = tokensPerSecond;
    CostSearchHit floor;
    floor.cost = model::costOf(cost.bom, idle, cost.assumptions, boardPower_W);
    return scoreOf(rank == LayoutRank::EffectiveUsdPerMillionTokens ? LayoutRank::UsdPerMillionTokens : rank,
                   floor);
}

} // namespace

const char *rankName(LayoutRank rank) noexcept
{
    return kRankNames[static_cast<std::size_t>(rank)];
}

std::optional<LayoutRank> rankFromName(const std::string &name) noexcept
{
    for (std::size_t i = 0; i < kRankNames.size(); ++i)
        if (name == kRankNames[i])
            return static_cast<LayoutRank>(i);
    return std::nullopt;
}

model::SearchSpace scenarioSearchSpace(const CompiledScenario &compiled, bool widen)
{
    model::SearchSpace space = model::designSearchSpace(compiled.execution);
    if (widen) {
        space.tpOverlap.reset();
        space.tpOverlapVariants = true;
        space.dpOverlap = model::OverlapChoice::Both;
    }
    return space;
}

CostSearchResult searchByCost(const CompiledScenario &compiled, const CostSearchOptions &options)
{
    CostSearchResult out;
    // The design's context parallelism is kept (model::designSearchSpace): the search lays out
    // num_procs / context_par GPUs.
    const std::int64_t contextPar = std::max<std::int64_t>(1, compiled.execution.contextPar);
    if (compiled.execution.numProcs % contextPar != 0) {
        out.note = std::to_string(compiled.execution.numProcs) + " GPUs do not split into context_par "
                   + std::to_string(contextPar);
        return out;
    }
    const model::SearchSpace space = [&] {
        model::SearchSpace s = scenarioSearchSpace(compiled, options.widen);
        s.rankBy = options.rank == LayoutRank::Mfu ? model::RankBy::Mfu : model::RankBy::SampleRate;
        return s;
    }();
    out.note = "layouts of " + std::to_string(compiled.execution.numProcs) + " GPUs, "
               + model::describeSearchSpace(space) + ", ranked by " + rankName(options.rank);
    model::SearchOptions search = model::designSearchOptions(compiled.evaluateOptions());
    const bool byCost = lowerIsBetter(options.rank);
    search.topN
        = std::max<std::size_t>(1, byCost ? std::max(options.candidates, options.topN) : options.topN);
    search.threads = options.threads;
    search.cancel = options.cancel;
    search.progress = options.progress;
    model::BoundedSearchResult bounded;
    if (options.exhaustive) {
        bounded.search = model::searchLayouts(compiled.application, compiled.system, space, search);
        bounded.evaluated = bounded.search.configurations;
    } else {
        bounded = model::searchLayoutsBounded(compiled.application, compiled.system, space, search);
    }
    const model::SearchResult &found = bounded.search;
    out.configurations = found.configurations;
    out.valid = found.valid;
    out.evaluated = bounded.evaluated;
    out.skipped = bounded.skipped;
    out.cancelled = found.cancelled;

    CompiledScenario layout = compiled;
    for (const model::SearchHit &hit : found.top) {
        layout.execution = hit.execution;
        model::Evaluation evaluation;
        evaluation.ok = true;
        evaluation.stats = hit.stats;
        const model::Analysis analysis
            = model::analyze(layout.application, layout.execution, layout.system, evaluation);
        CostSearchHit ranked { hit.execution, hit.stats, scenarioCost(layout, hit.stats, analysis), {}, 0 };
        ranked.goodput = scenarioGoodput(layout, hit.stats, analysis, ranked.cost);
        ranked.score = scoreOf(options.rank, ranked);
        out.hits.push_back(std::move(ranked));
    }
    if (byCost) {
        std::stable_sort(out.hits.begin(), out.hits.end(),
                         [](const CostSearchHit &a, const CostSearchHit &b) { return a.score < b.score; });
        // Every layout not kept is at most as fast as the slowest kept one.
        if (found.top.size() == search.topN && !out.hits.empty()) {
            const model::SearchHit &slowest = found.top.back();
            const double tokensPerSecond
                = slowest.stats.sample_rate * static_cast<double>(compiled.application.seqSize);
            const double bound = costLowerBound(options.rank, out.hits.front().cost, tokensPerSecond,
                                                compiled.resolved.gpu.boardPower_W);
            out.exact = bound >= out.hits.front().score;
        }
    }
    if (out.hits.size() > options.topN)
        out.hits.resize(options.topN);
    return out;
}

void markParetoFront(std::vector<CostSweepPoint> &points)
{
    for (CostSweepPoint &p : points) {
        p.pareto = p.ok;
        for (const CostSweepPoint &q : points) {
            if (!p.pareto)
                break;
            const bool noWorse = q.timeToTrain_s <= p.timeToTrain_s && q.costToTrain_USD <= p.costToTrain_USD;
            const bool better = q.timeToTrain_s < p.timeToTrain_s || q.costToTrain_USD < p.costToTrain_USD;
            if (&q != &p && q.ok && noWorse && better)
                p.pareto = false;
        }
    }
}

std::vector<CostSweepPoint> sweepCostByGpuCount(const Scenario &scenario, const PresetLibrary &library,
                                                const std::vector<std::int64_t> &gpuCounts,
                                                const CostSearchOptions &options)
{
    std::vector<CostSweepPoint> points;
    CostSearchOptions one = options;
    one.topN = 1;
    for (const std::int64_t gpus : gpuCounts) {
        CostSweepPoint point;
        point.gpus = gpus;
        // The scenario at this count; the search replaces its layout, so layout overrides go.
        Scenario at = scenario;
        at.gpuCount = gpus;
        std::erase_if(at.overrides, [](const auto &o) {
            return o.first == "gpu_count" || o.first.rfind("layout.", 0) == 0;
        });
        try {
            const CompileResult compiled = compile(at, library);
            if (!compiled.compiled) {
                point.why = compiled.diagnostics.empty() ? "cannot be compiled"
                                                         : compiled.diagnostics.front().message;
            } else {
                CostSearchResult found = searchByCost(*compiled.compiled, one);
                if (found.hits.empty()) {
                    point.why = found.configurations == 0 ? found.note
                                                          : "no feasible layout among "
                                                                + std::to_string(found.configurations);
                } else {
                    point.ok = true;
                    point.best = std::move(found.hits.front());
                    point.timeToTrain_s = point.best->cost.runSeconds;
                    point.costToTrain_USD = point.best->cost.runUsd;
                }
            }
        } catch (const std::exception &error) {
            point.why = std::string("internal error: ") + error.what();
        }
        points.push_back(std::move(point));
        if (options.cancel && options.cancel->load())
            break;
    }
    markParetoFront(points);
    return points;
}

} // namespace gapstudio::scenario
