// A roadmap's steps through the pipeline and their gains (roadmap.h).
#include "gapstudio/scenario/roadmap.h"

namespace gapstudio::scenario {

namespace {

/// a / b when both are positive, else 0 (not comparable).
double ratio(double a, double b) noexcept
{
    return a > 0 && b > 0 ? a / b : 0.0;
}

} // namespace

std::vector<RoadmapStepResult> evaluateRoadmap(const std::vector<Scenario> &steps,
                                               const PresetLibrary &library, const PipelineOptions &options)
{
    std::vector<RoadmapStepResult> out;
    out.reserve(steps.size());
    for (const Scenario &step : steps) {
        RoadmapStepResult r;
        r.result = runScenario(step, library, options);
        if (!out.empty() && r.result.ok() && out.back().result.ok()) {
            const PipelineResult &before = out.back().result;
            r.speedup = ratio(r.result.evaluation.stats.sample_rate, before.evaluation.stats.sample_rate);
            if (r.result.cost && before.cost) {
                r.costRatio = ratio(r.result.cost->usdPerMillionTokens, before.cost->usdPerMillionTokens);
                r.energyRatio = ratio(r.result.cost->joulesPerToken, before.cost->joulesPerToken);
            }
            if (r.result.goodput && before.goodput)
                r.effectiveCostRatio = ratio(r.result.goodput->effectiveUsdPerMillionTokens,
                                             before.goodput->effectiveUsdPerMillionTokens);
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace gapstudio::scenario
