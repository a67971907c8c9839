// Scenario -> resolved blocks: presets looked up by id, then the designer's overrides applied
// (the table below is the single list of override keys; scenario.h documents the contract).
#include "gapstudio/scenario/scenario.h"

#include "gapstudio/model/cost.h"
#include "gapstudio/model/limits.h"
#include "gapstudio/model/units.h"
#include "gapstudio/scenario/cost.h"
#include "gapstudio/scenario/override_keys.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>

namespace gapstudio::scenario {

namespace {

using model::Diagnostic;
using model::DiagnosticCode;
using model::Diagnostics;

// The JSON units of the keys below (the same factors as io/preset_json.cpp uses).
using units::kBpsPerGBps;
using units::kBytesPerGiB;
using units::kUsPerSecond;
// The overrides' upper bounds: model/limits.h in the keys' units.
constexpr double kMaxCapacity_GiB = model::limits::kCapacity.high / kBytesPerGiB;
constexpr double kMaxBandwidth_GBps = model::limits::kBandwidth.high / kBpsPerGBps;
constexpr double kMaxLatency_us = model::limits::kLatency.high * kUsPerSecond;
constexpr double kMaxInteger = 9007199254740992.0; // 2^53: exact in a double, as in every reader

void invalid(Diagnostics &diagnostics, std::string field, std::string message)
{
    diagnostics.push_back(
        Diagnostic { DiagnosticCode::InvalidScenario, std::move(field), std::move(message) });
}

std::string number(double value)
{
    std::ostringstream out;
    out.precision(15);
    out << value;
    return out.str();
}

/// One override key, how it changes the resolved blocks (value already range-checked) and how
/// the compiled design's value reads in the key's unit (none for a scale factor).
struct OverrideRule {
    OverrideKey key;
    std::function<void(ResolvedScenario &, double)> apply;
    std::function<double(const CompiledScenario &)> read;
};

void scalePeaks(Gpu &gpu, double factor)
{
    for (auto *peaks : { &gpu.matrixPeak_flops, &gpu.vectorPeak_flops })
        for (auto &peak : *peaks)
            if (peak)
                *peak *= factor;
}

/// The cost blocks an override of a price writes into (created empty when the preset has none:
/// then the part is still not counted, as the preset gives no switch radix or port speed).
GpuCost &serverCost(Gpu &gpu)
{
    if (!gpu.cost)
        gpu.cost.emplace();
    return *gpu.cost;
}
model::LinkCost &linkCost(Interconnect &link)
{
    if (!link.cost)
        link.cost.emplace();
    return *link.cost;
}

// Upper bounds of the cost keys: far beyond any real price, power or period, so that every product
// the cost model forms stays finite.
constexpr double kMaxPrice = 1e15; // $ (also $ per kWh and per MW-year)
constexpr double kMaxPower_W = 1e9;
constexpr double kMaxPue = 100;
constexpr double kMaxYears = 1000;
constexpr double kMaxSeconds = 1e9; // about 32 years
constexpr double kMaxCount = model::limits::kMaxCount;

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

/// The overrides of the design: memory, compute, links, topology, GPU count, layout and sequence.
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

/// The cost model's assumptions and prices (model/cost.h; units in the key names).
std::vector<OverrideRule> costRules()
{
    using R = ResolvedScenario;
    using C = CompiledScenario;
    const auto switchPrice
        = [](const Interconnect &link) { return link.cost ? link.cost->switchPrice_USD : 0.0; };
    return {
        { { "cost.usd_per_kWh", "Electricity price", "$/kWh", "Price of electricity at the meter", false, 0,
            true, kMaxPrice, true },
          [](R &r, double v) { r.costAssumptions.usdPerKWh = v; },
          [](const C &c) { return c.resolved.costAssumptions.usdPerKWh; } },
        { { "cost.pue", "PUE (facility / IT power)", "",
            "Power usage effectiveness: the facility's power over the IT load's", false, 1, true, kMaxPue,
            true },
          [](R &r, double v) { r.costAssumptions.pue = v; },
          [](const C &c) { return c.resolved.costAssumptions.pue; } },
        { { "cost.depreciation_years", "Depreciation", "years", "Years the hardware's price is spread over",
            false, 0, false, kMaxYears, true },
          [](R &r, double v) { r.costAssumptions.depreciationYears = v; },
          [](const C &c) { return c.resolved.costAssumptions.depreciationYears; } },
        { { "cost.facility_usd_per_MW_year", "Facility charge", "$ per MW-year",
            "Facility charge per MW of IT load and year (0 = none)", false, 0, true, kMaxPrice, true },
          [](R &r, double v) { r.costAssumptions.facilityUsdPerMWYear = v; },
          [](const C &c) { return c.resolved.costAssumptions.facilityUsdPerMWYear; } },
        { { "cost.gpu_idle_power_fraction", "GPU idle power", "",
            "GPU power while not computing, as a fraction of board power (0-1)", false, 0, true, 1, true },
          [](R &r, double v) { r.costAssumptions.gpuIdlePowerFraction = std::min(v, 1.0); },
          [](const C &c) { return c.resolved.costAssumptions.gpuIdlePowerFraction; } },
        { { "cost.token_budget", "Token budget of a training run", "tokens", "Tokens of one training run",
            false, 0, false, kMaxCount, true },
          [](R &r, double v) { r.costAssumptions.tokenBudget = v; },
          [](const C &c) { return c.resolved.costAssumptions.tokenBudget; } },
        { { "gpu.price_USD", "GPU price", "$", "Price of one GPU", false, 0, true, kMaxPrice, true },
          [](R &r, double v) { r.gpu.price_USD = v; },
          [](const C &c) { return c.resolved.gpu.price_USD.value_or(0); } },
        { { "gpu.board_power_W", "GPU board power", "W", "Power of one GPU at full activity", false, 0, true,
            kMaxPower_W, true },
          [](R &r, double v) { r.gpu.boardPower_W = v; },
          [](const C &c) { return c.resolved.gpu.boardPower_W; } },
        { { "gpu.server_price_USD", "Server price (without GPUs)", "$",
            "Price of one server without GPUs and network", false, 0, true, kMaxPrice, true },
          [](R &r, double v) { serverCost(r.gpu).serverPrice_USD = v; },
          [](const C &c) { return c.resolved.gpu.cost ? c.resolved.gpu.cost->serverPrice_USD : 0.0; } },
        { { "scale_up.switch_price_USD", "Scale-up switch price", "$", "Price of one scale-up switch", false,
            0, true, kMaxPrice, true },
          [](R &r, double v) { linkCost(r.scaleUp).switchPrice_USD = v; },
          [switchPrice](const C &c) { return switchPrice(c.resolved.scaleUp); } },
        { { "scale_out.switch_price_USD", "Scale-out switch price", "$", "Price of one scale-out switch",
            false, 0, true, kMaxPrice, true },
          [](R &r, double v) { linkCost(r.scaleOut).switchPrice_USD = v; },
          [switchPrice](const C &c) { return switchPrice(c.resolved.scaleOut); } },
        { { "scale_out.optics_price_USD", "Scale-out optics price (per link end)", "$",
            "Price of one scale-out optical link end", false, 0, true, kMaxPrice, true },
          [](R &r, double v) { linkCost(r.scaleOut).opticsPrice_USD = v; },
          [](const C &c) {
              return c.resolved.scaleOut.cost ? c.resolved.scaleOut.cost->opticsPrice_USD : 0.0;
          } },
    };
}

/// The design's interruptions per GPU-hour: the given rate, else the sum over its parts.
double interruptionsPerGpuHour(const CompiledScenario &c)
{
    const model::ReliabilityAssumptions &a = c.resolved.reliability;
    if (a.interruptionsPerGpuHour)
        return *a.interruptionsPerGpuHour;
    const model::ReliabilityParts parts
        = model::reliabilityParts(model::billOfMaterials(clusterSpec(c.resolved)));
    return parts.gpus > 0 ? model::interruptionsPerHour(a, parts) / parts.gpus : 0;
}

/// The goodput model's assumptions (model/goodput.h; units in the key names).
std::vector<OverrideRule> reliabilityRules()
{
    using R = ResolvedScenario;
    using C = CompiledScenario;
    using A = model::ReliabilityAssumptions;
    // A part's interruption rate in FIT (per 10^9 part-hours), at most one per part-hour.
    constexpr double kMaxFit = 1e9;
    const auto fitRule = [](const char *key, const char *label, const char *description, double A::*field) {
        return OverrideRule { { key, label, "FIT", description, false, 0, true, kMaxFit, true },
                              [field](R &r, double v) { r.reliability.*field = v; },
                              [field](const C &c) { return c.resolved.reliability.*field; } };
    };
    return {
        { { "reliability.interruptions_per_gpu_hour", "Interruptions per GPU-hour", "per GPU-hour",
            "Unexpected job interruptions per GPU-hour of the job, all causes (replaces the part rates)",
            false, 0, true, 1, true },
          [](R &r, double v) { r.reliability.interruptionsPerGpuHour = v; },
          [](const C &c) { return interruptionsPerGpuHour(c); } },
        { { "reliability.storage_GBps", "Checkpoint storage bandwidth", "GB/s",
            "Sustained storage bandwidth the job writes checkpoints at and reads them back", false, 0, false,
            kMaxBandwidth_GBps, true },
          [](R &r, double v) { r.reliability.storage_Bps = v * kBpsPerGBps; },
          [](const C &c) { return c.resolved.reliability.storage_Bps / kBpsPerGBps; } },
        { { "reliability.job_restart_s", "Job restart time", "s",
            "Detection, rescheduling and start-up after an interruption, before the checkpoint is read",
            false, 0, true, kMaxSeconds, true },
          [](R &r, double v) { r.reliability.jobRestart_s = v; },
          [](const C &c) { return c.resolved.reliability.jobRestart_s; } },
        { { "reliability.checkpoint_interval_s", "Checkpoint interval", "s",
            "Work between checkpoints (0 = Young's optimum)", false, 0, true, kMaxSeconds, true },
          [](R &r, double v) { r.reliability.checkpointInterval_s = v; },
          [](const C &c) { return c.resolved.reliability.checkpointInterval_s; } },
        { { "reliability.async_checkpoint", "Asynchronous checkpoints", "",
            "1: snapshot the checkpoint to host memory and train on while it is written; 0: stop until it "
            "is written",
            true, 0, true, 1, true },
          [](R &r, double v) { r.reliability.asyncCheckpoint = v != 0; },
          [](const C &c) { return c.resolved.reliability.asyncCheckpoint ? 1.0 : 0.0; } },
        { { "reliability.snapshot_GBps", "Snapshot bandwidth", "GB/s",
            "One GPU's copy bandwidth to host memory for an asynchronous checkpoint", false, 0, false,
            kMaxBandwidth_GBps, true },
          [](R &r, double v) { r.reliability.snapshot_Bps = v * kBpsPerGBps; },
          [](const C &c) { return c.resolved.reliability.snapshot_Bps / kBpsPerGBps; } },
        fitRule("reliability.gpu_fit", "GPU interruption rate",
                "Job interruptions per 10^9 hours of one GPU (die, SRAM, NVLink, thermal)", &A::gpuFit),
        fitRule("reliability.hbm_fit", "HBM interruption rate",
                "Job interruptions per 10^9 hours of one GPU's HBM", &A::hbmFit),
        fitRule("reliability.server_fit", "Server interruption rate",
                "Job interruptions per 10^9 hours of one server without GPUs (CPUs, memory, SSDs, power, "
                "host maintenance)",
                &A::serverFit),
        fitRule("reliability.nic_fit", "Adapter interruption rate",
                "Job interruptions per 10^9 hours of one scale-out adapter", &A::nicFit),
        fitRule("reliability.link_fit", "Link interruption rate",
                "Job interruptions per 10^9 hours of one scale-out link (cable, optics, switch ports)",
                &A::linkFit),
        fitRule(
            "reliability.software_fit", "Software interruption rate",
            "Job interruptions per 10^9 GPU-hours from software (bugs, collective time-outs, dependencies)",
            &A::softwareFit),
    };
}

/// Every override key, the design's first.
const std::vector<OverrideRule> &rules()
{
    static const std::vector<OverrideRule> table = [] {
        std::vector<OverrideRule> all = designRules();
        for (OverrideRule &rule : costRules())
            all.push_back(std::move(rule));
        for (OverrideRule &rule : reliabilityRules())
            all.push_back(std::move(rule));
        return all;
    }();
    return table;
}

template <typename Block>
std::optional<Block> resolveRef(const BlockRef<Block> &ref, const std::map<std::string, Block> &presets,
                                const char *field, const char *kind, Diagnostics &diagnostics)
{
    if (ref.inlineBlock)
        return ref.inlineBlock;
    if (ref.presetId.empty()) {
        invalid(diagnostics, field, std::string("no ") + kind + " given");
        return std::nullopt;
    }
    const auto it = presets.find(ref.presetId);
    if (it == presets.end()) {
        invalid(diagnostics, field, std::string("no ") + kind + " preset with id \"" + ref.presetId + "\"");
        return std::nullopt;
    }
    return it->second;
}

/// An optional block: the scenario's, else the library's default preset (if any). A named
/// preset that does not exist is an error.
template <typename Block>
std::optional<Block> resolveOptionalRef(const BlockRef<Block> &ref,
                                        const std::map<std::string, Block> &presets, const char *defaultId,
                                        const char *field, const char *kind, Diagnostics &diagnostics)
{
    if (ref.inlineBlock || !ref.presetId.empty())
        return resolveRef(ref, presets, field, kind, diagnostics);
    const auto it = presets.find(defaultId);
    return it == presets.end() ? std::nullopt : std::optional<Block>(it->second);
}

/// The default software stack when the library has no preset of that id.
Software builtinSoftware()
{
    Software software;
    software.info = { kDefaultSoftwareId, "Megatron-Core with Transformer Engine",
                      "Built-in default: FP32 gradient reduction, as Megatron-LM with --bf16 "
                      "(arguments.py sets accumulate_allreduce_grads_in_fp32)." };
    software.framework = "Megatron-Core with Transformer Engine";
    software.gradientReduceBytes = 4;
    return software;
}

} // namespace

const std::vector<OverrideKey> &overrideKeys() noexcept
{
    static const std::vector<OverrideKey> keys = [] {
        std::vector<OverrideKey> out;
        for (const OverrideRule &rule : rules())
            out.push_back(rule.key);
        return out;
    }();
    return keys;
}

const OverrideKey *findOverrideKey(const std::string &key) noexcept
{
    const auto it = std::find_if(overrideKeys().begin(), overrideKeys().end(),
                                 [&](const OverrideKey &k) { return key == k.key; });
    return it == overrideKeys().end() ? nullptr : &*it;
}

std::optional<double> overrideKeyValue(const CompiledScenario &compiled, const std::string &key)
{
    const auto rule = std::find_if(rules().begin(), rules().end(),
                                   [&](const OverrideRule &r) { return key == r.key.key; });
    if (rule == rules().end() || !rule->read)
        return std::nullopt;
    return rule->read(compiled);
}

std::optional<std::string> overrideProblem(const std::string &key, double value)
{
    const auto rule = std::find_if(rules().begin(), rules().end(),
                                   [&](const OverrideRule &r) { return key == r.key.key; });
    if (rule == rules().end()) {
        std::string known;
        for (const OverrideRule &r : rules())
            known += (known.empty() ? "" : ", ") + std::string(r.key.key);
        return "unknown override \"" + key + "\" (known: " + known + ")";
    }
    const OverrideKey &k = rule->key;
    const model::Range range { k.minimum, k.minimumIncluded, k.maximum, k.maximumIncluded };
    if (!std::isfinite(value) || !range.contains(value))
        return "expected a number in " + range.text() + ", got " + number(value);
    if (k.integer && std::trunc(value) != value)
        return "expected a whole number, got " + number(value);
    return std::nullopt;
}

std::optional<std::string> overrideTextProblem(const std::string &key, const std::string &text, double &value)
{
    char *end = nullptr;
    value = std::strtod(text.c_str(), &end);
    const bool parsed = !text.empty() && *end == '\0';
    const std::optional<std::string> problem = overrideProblem(key, parsed ? value : HUGE_VAL);
    const auto k = std::find_if(overrideKeys().begin(), overrideKeys().end(),
                                [&](const OverrideKey &o) { return key == o.key; });
    if (k == overrideKeys().end())
        return problem;
    // Plain digits of a whole key must be the very number evaluated: 2^53 + 1 would round to 2^53.
    std::uint64_t digits = 0;
    const char *first = text.c_str() + (text.rfind('+', 0) == 0 ? 1 : 0);
    const auto [last, error] = std::from_chars(first, text.c_str() + text.size(), digits);
    const bool inexact = k->integer && last == text.c_str() + text.size()
                         && (error != std::errc() || !(value < 0x1p64) // the cast below needs < 2^64
                             || static_cast<double>(digits) != value
                             || digits != static_cast<std::uint64_t>(value));
    if (!problem && !inexact)
        return std::nullopt;
    const model::Range range { k->minimum, k->minimumIncluded, k->maximum, k->maximumIncluded };
    // Whole bounds in full (2^53 is 9007199254740992, not 9.0072e+15).
    const std::string bounds = k->integer ? std::string(range.lowIncluded ? "[" : "(")
                                                + std::to_string(static_cast<std::int64_t>(range.low)) + ", "
                                                + std::to_string(static_cast<std::int64_t>(range.high))
                                                + (range.highIncluded ? "]" : ")")
                                          : range.text();
    return std::string("expected ") + (k->integer ? "a whole number" : "a number") + " in " + bounds + ", got \""
           + text + "\"";
}

std::optional<ResolvedScenario> resolve(const Scenario &scenario, const PresetLibrary &library,
                                        Diagnostics &diagnostics)
{
    const std::size_t before = diagnostics.size();
    const auto gpu = resolveRef(scenario.gpu, library.gpus, "gpu", "GPU", diagnostics);
    const auto scaleUp
        = resolveRef(scenario.scaleUp, library.interconnects, "scale_up", "interconnect", diagnostics);
    const auto topology
        = resolveRef(scenario.topology, library.topologies, "topology", "topology", diagnostics);
    // FullFlat may reuse the scale-up links for the whole fabric when no scale-out is given.
    const bool reuseScaleUp = scenario.scaleOut.presetId.empty() && !scenario.scaleOut.inlineBlock && topology
                              && topology->kind == TopologyKind::FullFlat;
    const auto scaleOut = reuseScaleUp ? scaleUp
                                       : resolveRef(scenario.scaleOut, library.interconnects, "scale_out",
                                                    "interconnect", diagnostics);
    const auto llm = resolveRef(scenario.llm, library.llms, "llm", "LLM", diagnostics);
    const auto layout = resolveRef(scenario.layout, library.layouts, "layout", "layout", diagnostics);
    const auto software = resolveOptionalRef(scenario.software, library.software, kDefaultSoftwareId,
                                             "software", "software", diagnostics);
    const auto calibration
        = resolveOptionalRef(scenario.calibration, library.calibrations, kDefaultCalibrationId, "calibration",
                             "calibration", diagnostics);
    if (diagnostics.size() != before)
        return std::nullopt;

    ResolvedScenario resolved { *gpu,
                                *scaleUp,
                                *scaleOut,
                                *topology,
                                *llm,
                                *layout,
                                scenario.gpuCount,
                                software ? *software : builtinSoftware(),
                                calibration,
                                model::CostAssumptions {},
                                model::ReliabilityAssumptions {} };
    for (const auto &[key, value] : scenario.overrides) {
        const std::string field = "overrides/" + key;
        if (const std::optional<std::string> problem = overrideProblem(key, value)) {
            invalid(diagnostics, field, *problem);
            continue;
        }
        const auto rule = std::find_if(rules().begin(), rules().end(),
                                       [&](const OverrideRule &r) { return key == r.key.key; });
        rule->apply(resolved, value);
    }
    if (resolved.gpuCount < 1)
        invalid(diagnostics, "gpu_count",
                "expected at least 1 GPU, got " + std::to_string(resolved.gpuCount));
    if (diagnostics.size() != before)
        return std::nullopt;
    return resolved;
}

} // namespace gapstudio::scenario
