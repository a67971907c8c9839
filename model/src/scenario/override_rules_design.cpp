// The design's override keys (override_rules.h): memory, compute, the links, the topology, the
// GPU count, the layout and the sequence.
#include "scenario/override_rules.h"

#include "gapstudio/scenario/override_keys.h"

#include <cstdint>

namespace gapstudio::scenario::detail {

namespace {

void scalePeaks(Gpu &gpu, double factor)
{
    for (auto *peaks : { &gpu.matrixPeak_flops, &gpu.vectorPeak_flops })
        for (auto &peak : *peaks)
            if (peak)
                *peak *= factor;
}

/// The network tier a link's efficiency and latency are read from: tier 0 (the scale-up domain)
/// for the scale-up link, tier 1 (the first built from the scale-out link) for the scale-out one,
/// as compiled, so with the calibration's values where it sets them (calibration_lookup.cpp).
const model::NetworkTier *linkTier(const CompiledScenario &c, bool scaleUp)
{
    const std::size_t tier = scaleUp ? 0 : 1;
    return tier < c.system.networks.size() ? &c.system.networks[tier] : nullptr;
}

double linkEfficiency(const CompiledScenario &c, bool scaleUp)
{
    const model::NetworkTier *tier = linkTier(c, scaleUp);
    return tier ? tier->efficiency : (scaleUp ? c.resolved.scaleUp : c.resolved.scaleOut).efficiency;
}

double linkLatency_us(const CompiledScenario &c, bool scaleUp)
{
    const model::NetworkTier *tier = linkTier(c, scaleUp);
    return (tier ? tier->latency_s : (scaleUp ? c.resolved.scaleUp : c.resolved.scaleOut).latency_s)
           * kUsPerSecond;
}

/// The overrides of one link, the scale-up or the scale-out one: bandwidth, latency, efficiency.
std::vector<OverrideRule> linkRules(bool scaleUp)
{
    using R = ResolvedScenario;
    using C = CompiledScenario;
    Interconnect R::*const link = scaleUp ? &R::scaleUp : &R::scaleOut;
    return {
        { { scaleUp ? keys::kScaleUpBandwidth : keys::kScaleOutBandwidth,
            scaleUp ? "Scale-up bandwidth" : "Scale-out bandwidth", "GB/s",
            scaleUp ? "Bandwidth per GPU, one direction, inside a scale-up domain (e.g. NVLink)"
                    : "Bandwidth per GPU, one direction, between scale-up domains (e.g. InfiniBand)",
            false, 0, false, kMaxBandwidth_GBps, true },
          [link](R &r, double v) { (r.*link).bandwidth_Bps = v * kBpsPerGBps; },
          [link](const C &c) { return (c.resolved.*link).bandwidth_Bps / kBpsPerGBps; } },
        { { scaleUp ? keys::kScaleUpLatency : keys::kScaleOutLatency,
            scaleUp ? "Scale-up latency" : "Scale-out latency", "µs",
            scaleUp ? "Latency of one communication operation inside a scale-up domain"
                    : "Latency of one communication operation between scale-up domains",
            false, 0, true, kMaxLatency_us, true },
          [link](R &r, double v) { (r.*link).latency_s = v / kUsPerSecond; },
          [scaleUp](const C &c) { return linkLatency_us(c, scaleUp); } },
        { { scaleUp ? keys::kScaleUpEfficiency : keys::kScaleOutEfficiency,
            scaleUp ? "Scale-up efficiency" : "Scale-out efficiency", "",
            scaleUp ? "Share of the scale-up bandwidth that collectives achieve (a fraction)"
                    : "Share of the scale-out bandwidth that collectives achieve (a fraction)",
            false, model::limits::kEfficiency.low, true, 1, true },
          [link](R &r, double v) { (r.*link).efficiency = v; },
          [scaleUp](const C &c) { return linkEfficiency(c, scaleUp); } },
    };
}

} // namespace

std::vector<OverrideRule> designRules()
{
    using R = ResolvedScenario;
    using C = CompiledScenario;
    const auto i64 = [](double v) { return static_cast<std::int64_t>(v); };
    const auto count = [](std::int64_t v) { return static_cast<double>(v); };
    std::vector<OverrideRule> rules {
        { { keys::kHbmCapacity, "HBM capacity", "GiB", "Memory capacity of one GPU's HBM", false, 0, false,
            kMaxCapacity_GiB, true },
          [](R &r, double v) { r.gpu.hbm.capacity_B = v * kBytesPerGiB; },
          [](const C &c) { return c.resolved.gpu.hbm.capacity_B / kBytesPerGiB; } },
        { { keys::kHbmBandwidth, "HBM bandwidth", "GB/s", "Memory bandwidth of one GPU's HBM", false, 0,
            false, kMaxBandwidth_GBps, true },
          [](R &r, double v) { r.gpu.hbm.bandwidth_Bps = v * kBpsPerGBps; },
          [](const C &c) { return c.resolved.gpu.hbm.bandwidth_Bps / kBpsPerGBps; } },
        { { "gpu.tier2_capacity_GiB", "Offload memory capacity", "GiB",
            "Host memory a GPU can offload to (0 = none)", false, 0, true, kMaxCapacity_GiB, true },
          [](R &r, double v) { r.gpu.tier2.capacity_B = v * kBytesPerGiB; },
          [](const C &c) { return c.resolved.gpu.tier2.capacity_B / kBytesPerGiB; } },
        { { "gpu.tier2_bandwidth_GBps", "Offload memory bandwidth", "GB/s", "Bandwidth to the offload memory",
            false, 0, true, kMaxBandwidth_GBps, true },
          [](R &r, double v) { r.gpu.tier2.bandwidth_Bps = v * kBpsPerGBps; },
          [](const C &c) { return c.resolved.gpu.tier2.bandwidth_Bps / kBpsPerGBps; } },
        { { keys::kComputeScale, "GPU compute scale", "×",
            "Multiplies every matrix and vector peak of the GPU", false, 0, false,
            model::limits::kSweepFactor.high, true },
          [](R &r, double v) { scalePeaks(r.gpu, v); },
          nullptr },
    };
    for (const bool scaleUp : { true, false })
        for (OverrideRule &rule : linkRules(scaleUp))
            rules.push_back(std::move(rule));
    std::vector<OverrideRule> rest {
        { { keys::kDomainSize, "Scale-up domain size", "GPUs", "GPUs joined by one scale-up domain", true, 1,
            true, kMaxInteger, true },
          [i64](R &r, double v) { r.topology.scaleUpDomainSize = i64(v); },
          [count](const C &c) { return count(c.resolved.topology.scaleUpDomainSize); } },
        { { keys::kGpuCount, "GPU count", "GPUs", "GPUs in the whole design", true, 1, true, kMaxInteger,
            true },
          [i64](R &r, double v) { r.gpuCount = i64(v); },
          [count](const C &c) { return count(c.resolved.gpuCount); } },
        { { "layout.tensor_par", "TP (tensor parallel)", "GPUs", "GPUs that split every layer's matrices",
            true, 1, true, kMaxInteger, true },
          [i64](R &r, double v) { r.layout.execution.tensorPar = i64(v); },
          [count](const C &c) { return count(c.resolved.layout.execution.tensorPar); } },
        { { "layout.pipeline_par", "PP (pipeline parallel)", "stages",
            "Pipeline stages the layers are split into", true, 1, true, kMaxInteger, true },
          [i64](R &r, double v) { r.layout.execution.pipelinePar = i64(v); },
          [count](const C &c) { return count(c.resolved.layout.execution.pipelinePar); } },
        { { "layout.data_par", "DP (data parallel)", "replicas",
            "Copies of the model that train on different samples", true, 1, true, kMaxInteger, true },
          [i64](R &r, double v) { r.layout.execution.dataPar = i64(v); },
          [count](const C &c) { return count(c.resolved.layout.execution.dataPar); } },
        { { keys::kBatchSize, "Global batch", "samples",
            "Samples per training step, over all data-parallel replicas", true, 1, true, kMaxInteger, true },
          [i64](R &r, double v) { r.layout.execution.batchSize = i64(v); },
          [count](const C &c) { return count(c.resolved.layout.execution.batchSize); } },
        { { "layout.microbatch_size", "Microbatch", "samples", "Samples per pipeline microbatch", true, 1,
            true, kMaxInteger, true },
          [i64](R &r, double v) { r.layout.execution.microbatchSize = i64(v); },
          [count](const C &c) { return count(c.resolved.layout.execution.microbatchSize); } },
        { { keys::kSeqSize, "Sequence length", "tokens", "Tokens per sample", true, 1, true, kMaxInteger,
            true },
          [i64](R &r, double v) { r.llm.seqSize = i64(v); },
          [count](const C &c) { return count(c.resolved.llm.seqSize); } },
    };
    for (OverrideRule &rule : rest)
        rules.push_back(std::move(rule));
    return rules;
}

} // namespace gapstudio::scenario::detail
