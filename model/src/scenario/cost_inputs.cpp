// A scenario's cost (scenario/cost.h): the resolved blocks become the cost model's inputs.
#include "gapstudio/scenario/cost.h"

#include "gapstudio/model/analysis.h"

namespace gapstudio::scenario {

namespace {

model::FabricSpec fabricOf(const Interconnect &link)
{
    model::FabricSpec fabric;
    fabric.bandwidthPerGpu_Bps = link.bandwidth_Bps;
    // An override may set a price on a link whose preset has no cost block: without a port speed
    // and a radix there is nothing to count, and the note says so.
    fabric.hasCost = link.cost && link.cost->portSpeed_bps > 0 && link.cost->switchRadix > 0;
    if (link.cost)
        fabric.cost = *link.cost;
    return fabric;
}

} // namespace

model::ClusterSpec clusterSpec(const ResolvedScenario &resolved)
{
    model::ClusterSpec spec;
    spec.gpus = resolved.gpuCount;
    spec.gpu.price_USD = resolved.gpu.price_USD.value_or(0);
    spec.gpu.boardPower_W = resolved.gpu.boardPower_W;
    if (resolved.gpu.cost) {
        spec.gpu.gpusPerServer = resolved.gpu.cost->gpusPerServer;
        spec.gpu.serverPrice_USD = resolved.gpu.cost->serverPrice_USD;
        spec.gpu.serverPower_W = resolved.gpu.cost->serverPower_W;
        spec.gpu.source = resolved.gpu.cost->source;
    }
    spec.gpuHasCost = resolved.gpu.cost.has_value();
    spec.scaleUpDomainSize = resolved.topology.scaleUpDomainSize;
    spec.scaleUp = fabricOf(resolved.scaleUp);
    spec.scaleOut = fabricOf(resolved.scaleOut);
    spec.spareServers = resolved.reliability.spareServers;
    if (resolved.storage) {
        spec.storage.present = true;
        spec.storage.priced = resolved.storage->price_USD.has_value();
        spec.storage.price_USD = resolved.storage->price_USD.value_or(0);
        spec.storage.power_W = resolved.storage->power_W;
        spec.storage.source = resolved.storage->info.source;
    }
    if (resolved.topology.kind == TopologyKind::ThreeTier) {
        // Leaf, spine and core levels; the oversubscription is the spine's (presets/README).
        spec.scaleOut.levels = 3;
        spec.scaleOut.oversubscription = resolved.topology.oversubscription;
    }
    return spec;
}

model::CostResult scenarioCost(const CompiledScenario &compiled, const model::Stats &stats,
                               const model::Analysis &analysis)
{
    const ResolvedScenario &r = compiled.resolved;
    model::CostActivity activity;
    activity.tokensPerSecond = analysis.tokensPerSecond;
    activity.stepTime_s = stats.total_time;
    activity.batchSamples = compiled.execution.batchSize;
    activity.seqSize = compiled.application.seqSize;
    activity.gpuActivity = stats.system_efficiency;
    return model::costOf(model::billOfMaterials(clusterSpec(r)), activity, r.costAssumptions,
                         r.gpu.boardPower_W);
}

model::GoodputResult scenarioGoodput(const CompiledScenario &compiled, const model::Stats &stats,
                                     const model::Analysis &analysis, const model::CostResult &cost)
{
    model::GoodputResult goodput
        = model::goodputOf(compiled.resolved.reliability, model::reliabilityParts(cost.bom),
                           model::checkpointBytes(compiled.execution, stats));
    model::addThroughput(goodput, analysis.gap.mfu, analysis.tokensPerSecond, cost.assumptions.tokenBudget,
                         cost.usdPerMillionTokens);
    return goodput;
}

model::GoodputResult scenarioGoodputAt(const CompiledScenario &compiled, const model::Execution &exe,
                                       const model::Evaluation &evaluation)
{
    model::ClusterSpec spec = clusterSpec(compiled.resolved);
    spec.gpus = exe.numProcs;
    model::GoodputResult goodput = model::goodputOf(compiled.resolved.reliability,
                                                    model::reliabilityParts(model::billOfMaterials(spec)),
                                                    model::checkpointBytes(exe, evaluation.stats));
    const model::Analysis analysis = model::analyze(compiled.application, exe, compiled.system, evaluation);
    model::addThroughput(goodput, analysis.gap.mfu, analysis.tokensPerSecond,
                         compiled.resolved.costAssumptions.tokenBudget, 0);
    return goodput;
}

} // namespace gapstudio::scenario
