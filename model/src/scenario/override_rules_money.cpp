// The cost and goodput models' override keys (override_rules.h): economics, prices, failure
// rates, storage and restarts.
#include "scenario/override_rules.h"

#include "gapstudio/model/cost.h"
#include "gapstudio/model/goodput.h"
#include "gapstudio/scenario/cost.h"

namespace gapstudio::scenario::detail {

namespace {

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

} // namespace

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

/// The goodput model's assumptions (model/goodput.h; units in the key names).
namespace {

using R = ResolvedScenario;
using C = CompiledScenario;
using A = model::ReliabilityAssumptions;

/// Checkpoints: storage bandwidths, restart time, interval, asynchronous snapshots.
std::vector<OverrideRule> checkpointRules()
{
    return {
        { { "reliability.storage_GBps", "Checkpoint storage bandwidth", "GB/s",
            "Sustained storage bandwidth the job writes checkpoints at and reads them back", false, 0, false,
            kMaxBandwidth_GBps, true },
          [](R &r, double v) {
              r.reliability.storage_Bps = v * kBpsPerGBps;
              r.reliability.storageRead_Bps.reset();
          },
          [](const C &c) { return c.resolved.reliability.storage_Bps / kBpsPerGBps; } },
        { { "reliability.storage_read_GBps", "Checkpoint read bandwidth", "GB/s",
            "Sustained storage bandwidth a restart reads the checkpoint back at (default: the write's)",
            false, 0, false, kMaxBandwidth_GBps, true },
          [](R &r, double v) { r.reliability.storageRead_Bps = v * kBpsPerGBps; },
          [](const C &c) {
              const model::ReliabilityAssumptions &a = c.resolved.reliability;
              return a.storageRead_Bps.value_or(a.storage_Bps) / kBpsPerGBps;
          } },
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
    };
}

/// Hot spares and repair.
std::vector<OverrideRule> spareRules()
{
    // Spare servers: a billion, beyond any cluster, so that their GPUs stay countable.
    constexpr double kMaxSpareServers = 1e9;
    return {
        { { "reliability.spare_servers", "Hot spare servers", "servers",
            "Idle servers with their GPUs kept to replace a failed one at once (priced, drawing idle power)",
            true, 0, true, kMaxSpareServers, true },
          [](R &r, double v) { r.reliability.spareServers = static_cast<std::int64_t>(v); },
          [](const C &c) { return static_cast<double>(c.resolved.reliability.spareServers); } },
        { { "reliability.repair_hours", "Server repair time", "hours",
            "Mean time to repair a failed server (0 = a healthy server is always at hand)", false, 0, true,
            kMaxSeconds / units::kSecondsPerHour, true },
          [](R &r, double v) { r.reliability.repair_s = v * units::kSecondsPerHour; },
          [](const C &c) { return c.resolved.reliability.repair_s / units::kSecondsPerHour; } },
    };
}

/// Each part's interruption rate in FIT (per 10^9 part-hours), at most one per part-hour.
std::vector<OverrideRule> partRateRules()
{
    constexpr double kMaxFit = 1e9;
    const auto fitRule = [](const char *key, const char *label, const char *description, double A::*field) {
        return OverrideRule { { key, label, "FIT", description, false, 0, true, kMaxFit, true },
                              [field](R &r, double v) { r.reliability.*field = v; },
                              [field](const C &c) { return c.resolved.reliability.*field; } };
    };
    return {
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

} // namespace

std::vector<OverrideRule> reliabilityRules()
{
    std::vector<OverrideRule> rules {
        { { "reliability.interruptions_per_gpu_hour", "Interruptions per GPU-hour", "per GPU-hour",
            "Unexpected job interruptions per GPU-hour of the job, all causes (replaces the part rates)",
            false, 0, true, 1, true },
          [](R &r, double v) { r.reliability.interruptionsPerGpuHour = v; },
          [](const C &c) { return interruptionsPerGpuHour(c); } },
    };
    for (std::vector<OverrideRule> (*part)() : { checkpointRules, spareRules, partRateRules })
        for (OverrideRule &rule : part())
            rules.push_back(std::move(rule));
    return rules;
}

} // namespace gapstudio::scenario::detail
