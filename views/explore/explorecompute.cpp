#include "explore/explorecompute.h"

#include <algorithm>
#include <cmath>

namespace gapstudio::views::explore {

namespace {

using I = std::int64_t;

using model::divisors;

} // namespace

model::EvaluateOptions defaultEvaluateOptions(const model::Design &design)
{
    model::EvaluateOptions options;
    options.quirks = design.execution.modelMoE ? model::Quirks::calculonMoe() : model::Quirks::calculon();
    return options;
}

model::SearchSpace searchSpaceFor(const model::Design &design)
{
    return model::designSearchSpace(design.execution);
}

std::string searchNote(const model::SearchSpace &space)
{
    return "Best layout per point: layout search over " + model::describeSearchSpace(space);
}

model::SearchOptions searchOptionsFor(const model::EvaluateOptions &evaluate, std::size_t topN)
{
    model::SearchOptions options = model::designSearchOptions(evaluate);
    options.topN = topN;
    return options;
}

std::vector<I> scalingGpuCounts(I numProcs)
{
    std::vector<I> counts;
    const I low = std::max<I>(8, numProcs / 8);
    for (I n = 8; n <= numProcs * 2; n *= 2)
        if (n >= low)
            counts.push_back(n);
    counts.push_back(numProcs);
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    return counts;
}

std::vector<I> domainSizes(I current)
{
    std::vector<I> sizes = { 8, 16, 32, 64, 128, 256, 512 };
    if (current > 0 && std::find(sizes.begin(), sizes.end(), current) == sizes.end()) {
        sizes.push_back(current);
        std::sort(sizes.begin(), sizes.end());
    }
    return sizes;
}

std::vector<model::SweepPoint> sweepDomainSize(const model::Design &design,
                                               const model::EvaluateOptions &options)
{
    const double current = model::parameterValue(design, model::HardwareParameter::ScaleUpDomainSize);
    if (current <= 0)
        return {};
    std::vector<double> factors;
    for (I size : domainSizes(std::llround(current)))
        factors.push_back(static_cast<double>(size) / current);
    return model::sweepParameter(design, model::HardwareParameter::ScaleUpDomainSize, factors, options);
}

std::optional<std::pair<std::size_t, std::size_t>> HeatmapData::bestCell() const
{
    std::optional<std::pair<std::size_t, std::size_t>> best;
    const model::SearchHit *bestHit = nullptr;
    for (std::size_t row = 0; row < pps.size(); ++row)
        for (std::size_t column = 0; column < tps.size(); ++column) {
            const auto &hit = cell(row, column);
            // Ties go to the earlier layout in the search's enumeration order, as the search ranks.
            if (hit
                && (!bestHit || hit->score > bestHit->score
                    || (hit->score == bestHit->score && hit->index < bestHit->index))) {
                bestHit = &*hit;
                best = { { row, column } };
            }
        }
    return best;
}

HeatmapData computeHeatmap(const model::Application &app, const model::System &sys,
                           const model::SearchSpace &space, model::SearchOptions options, std::size_t maxHits)
{
    HeatmapData data;
    data.numProcs = space.numProcs;
    const I n = space.numProcs;
    const I perExpertGroup = space.moeExperts > 0 && n % space.moeExperts == 0 ? n / space.moeExperts : n;
    // 1. The grid: TP and PP values the search can produce (its divisibility rules, search.h).
    for (I tp : divisors(perExpertGroup))
        if (app.hidden % tp == 0 && app.attnHeads % tp == 0)
            data.tps.push_back(tp);
    for (I pp : divisors(app.numBlocks))
        if (std::any_of(data.tps.begin(), data.tps.end(), [&](I tp) { return n % (tp * pp) == 0; }))
            data.pps.push_back(pp);
    data.cells.resize(data.tps.size() * data.pps.size());

    // 2. The search's global top `maxHits` by sample rate, best first.
    options.topN = maxHits;
    model::SearchSpace bySampleRate = space;
    bySampleRate.rankBy = model::RankBy::SampleRate;
    const model::SearchResult result = model::searchLayouts(app, sys, bySampleRate, options);
    data.configurations = result.configurations;
    data.valid = result.valid;
    data.hitsKept = result.top.size();
    data.cancelled = result.cancelled;
    data.exhaustive = !result.cancelled && result.valid <= maxHits;
    if (!data.exhaustive && !result.top.empty())
        data.threshold = result.top.back().stats.sample_rate;

    // 3. The first hit of each cell is its best.
    for (const model::SearchHit &hit : result.top) {
        const auto column = std::find(data.tps.begin(), data.tps.end(), hit.execution.tensorPar);
        const auto row = std::find(data.pps.begin(), data.pps.end(), hit.execution.pipelinePar);
        if (column == data.tps.end() || row == data.pps.end())
            continue;
        auto &cell = data.cells[static_cast<std::size_t>(row - data.pps.begin()) * data.tps.size()
                                + static_cast<std::size_t>(column - data.tps.begin())];
        if (!cell)
            cell = hit;
    }
    return data;
}

ExploreResults computeExplore(const model::Design &design, const model::EvaluateOptions &options,
                              const std::atomic<bool> *cancel, const std::function<void(double)> &progress)
{
    ExploreResults out;
    const auto report = [&](double fraction) {
        if (progress)
            progress(std::clamp(fraction, 0.0, 1.0));
    };
    const auto cancelled = [&] { return cancel && cancel->load(); };

    report(0.0);

    // 1. The scaling curve: one search per GPU count (the slow part), progress per count.
    const model::SearchSpace space = searchSpaceFor(design);
    model::SearchOptions search = searchOptionsFor(options, 1);
    search.cancel = cancel;
    const std::vector<I> counts = scalingGpuCounts(design.execution.numProcs);
    constexpr double kScalingShare = 0.6;
    for (std::size_t i = 0; i < counts.size() && !cancelled(); ++i) {
        search.progress = [&, i](std::size_t done, std::size_t total) {
            const double within = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
            report(kScalingShare * (static_cast<double>(i) + within) / static_cast<double>(counts.size()));
        };
        std::vector<model::SweepPoint> point
            = model::sweepGpuCount(design.application, design.system, space, { counts[i] }, search);
        if (!cancelled())
            out.scaling.insert(out.scaling.end(), point.begin(), point.end());
    }

    // 2. The TP x PP heatmap at the design's GPU count.
    if (!cancelled()) {
        search.progress = [&](std::size_t done, std::size_t total) {
            const double within = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
            report(kScalingShare + (1.0 - kScalingShare) * within);
        };
        out.heatmap = computeHeatmap(design.application, design.system, space, search);
    }
    out.cancelled = cancelled();
    report(1.0);
    return out;
}

} // namespace gapstudio::views::explore
