// Goodput of a training job under failures (goodput.h): Young's checkpoint interval and Daly's
// expected wall time for exponential failures.
#include "gapstudio/model/goodput.h"

#include "gapstudio/model/cost.h"
#include "gapstudio/model/units.h"

#include <algorithm>
#include <cmath>

namespace gapstudio::model {

namespace {

// Dubey et al. 2024, "The Llama 3 Herd of Models" (arXiv:2407.21783), section 3.3.4: a 54-day
// snapshot of Llama 3 405B pre-training on 16,384 H100 GPUs had 466 job interruptions, 47 planned
// and 419 unexpected. Planned maintenance is left out: it is scheduled at a checkpoint and loses
// no work. Table 5 gives the 419 by root cause; they are grouped here by the part that fails:
// - the GPU: faulty GPU (NVLink included) 148, GPU SRAM 19, GPU system processor 17, silent data
//   corruption 6, thermal interface and sensor 6;
// - its HBM3: 72;
// - the server: unplanned host maintenance 32, SSD 3, power supply 3, chassis 2, IO expansion
//   board 2, CPU 2, system memory 2;
// - the scale-out adapter (NIC): 7; the network's switches and cables: 35;
// - software: software bugs 54, NCCL watchdog time-outs 7, dependencies 2.
constexpr double kLlama3GpuCauses = 148 + 19 + 17 + 6 + 6;
constexpr double kLlama3HbmCauses = 72;
constexpr double kLlama3ServerCauses = 32 + 3 + 3 + 2 + 2 + 2 + 2;
constexpr double kLlama3NicCauses = 7;
constexpr double kLlama3NetworkCauses = 35;
constexpr double kLlama3SoftwareCauses = 54 + 7 + 2;
constexpr double kLlama3UnexpectedInterruptions = 419;
// The hardware share: every cause but software takes a part, and so its server, out of the job.
constexpr double kLlama3HardwareShare
    = (kLlama3UnexpectedInterruptions - kLlama3SoftwareCauses) / kLlama3UnexpectedInterruptions;
static_assert(kLlama3GpuCauses + kLlama3HbmCauses + kLlama3ServerCauses + kLlama3NicCauses
                  + kLlama3NetworkCauses + kLlama3SoftwareCauses
              == kLlama3UnexpectedInterruptions);
constexpr double kLlama3SnapshotHours = 54 * 24;
// The parts of that job. Section 3.3.1: servers of eight GPUs; 16 GPUs (two servers) per top-of-rack
// switch, 192 racks joined by cluster switches into pods of 3,072 GPUs with full bisection
// bandwidth, and the pods joined by aggregation switches at 1:7 oversubscription. One RDMA adapter
// per GPU (Gangidi et al., "RDMA over Ethernet for Distributed AI Training at Meta Scale", SIGCOMM
// 2024, section 3: each GPU of a Grand Teton node has its own NIC). Links per GPU: one to its
// top-of-rack switch, one onward to a cluster switch (full bisection) and 1/7 from the cluster
// switches to the aggregation layer. Failures of the scale-up network (NVLink) count as the GPU's,
// as in the table.
constexpr double kLlama3Gpus = 16384;
constexpr double kLlama3GpusPerServer = 8;
constexpr double kLlama3NicsPerGpu = 1;
constexpr double kLlama3LinksPerGpu = 1 + 1 + 1.0 / 7;
// FIT: interruptions per 10^9 part-hours.
constexpr double kHoursPerFit = 1e9;
constexpr double fitOf(double interruptions, double parts)
{
    return interruptions / (parts * kLlama3SnapshotHours) * kHoursPerFit;
}
// The same report, section 3.3.1: Tectonic storage for checkpoints, 2 TB/s sustained (7 TB/s
// peak) throughput.
constexpr double kLlama3StorageSustained_Bps = 2e12;
// An estimate, no public figure for the runs above: ten minutes to detect the failure, drain
// and reschedule the job and initialise its communicators before the checkpoint is read back
// (FlashRecovery, arXiv:2509.03047, restores 4,800 devices in 150 s with a purpose-built system).
constexpr double kJobRestartEstimate_s = 600;
// An asynchronous snapshot goes from each GPU to its host's memory over the GPU's host link: PCI
// Express 5.0 x16 on the HGX H100/B200 boards (NVIDIA DGX H100 and DGX B200 user guides), 32 GT/s
// x 16 lanes with 128b/130b encoding = 63.0 GB/s per direction (PCI-SIG, PCI Express Base
// Specification 5.0).
constexpr double kPcie5x16_Bps = 32e9 * 16 * 128.0 / 130 / 8;

} // namespace

ReliabilityAssumptions::ReliabilityAssumptions() noexcept
    : gpuFit(fitOf(kLlama3GpuCauses, kLlama3Gpus))
    , hbmFit(fitOf(kLlama3HbmCauses, kLlama3Gpus))
    , serverFit(fitOf(kLlama3ServerCauses, kLlama3Gpus / kLlama3GpusPerServer))
    , nicFit(fitOf(kLlama3NicCauses, kLlama3Gpus * kLlama3NicsPerGpu))
    , linkFit(fitOf(kLlama3NetworkCauses, kLlama3Gpus * kLlama3LinksPerGpu))
    , softwareFit(fitOf(kLlama3SoftwareCauses, kLlama3Gpus))
    , storage_Bps(kLlama3StorageSustained_Bps)
    , jobRestart_s(kJobRestartEstimate_s)
    , snapshot_Bps(kPcie5x16_Bps)
{
}

double checkpointBytes(const Execution &exe, const Stats &stats) noexcept
{
    const double dataReplicas = static_cast<double>(std::max<std::int64_t>(1, exe.dataPar)
                                                    * std::max<std::int64_t>(1, exe.contextPar));
    const double weightReplicas
        = exe.modelMoE ? static_cast<double>(std::max<std::int64_t>(1, exe.dataParExp)) : dataReplicas;
    const double optimizerReplicas = exe.optimizerSharding ? 1.0 : weightReplicas;
    // The corrected model's fullest stage, else the reference's per-processor figures.
    const bool staged = stats.stage_weight_space > 0;
    const double weights = staged ? stats.stage_weight_space : stats.weight_space;
    const double optimizer = staged ? stats.stage_optimizer_space : stats.optimizer_space;
    return static_cast<double>(exe.numProcs) * (weights / weightReplicas + optimizer / optimizerReplicas);
}

ReliabilityParts reliabilityParts(const BillOfMaterials &bom) noexcept
{
    ReliabilityParts parts;
    parts.gpus = static_cast<double>(bom.gpus);
    parts.servers = static_cast<double>(bom.servers);
    if (bom.domains > 1 && bom.scaleOut.ports == 0) {
        // A scale-out network is needed but its parts were not counted (no cost figures).
        parts.networkEstimated = true;
        parts.nics = parts.gpus * kLlama3NicsPerGpu;
        parts.links = parts.gpus * kLlama3LinksPerGpu;
    } else {
        parts.nics = static_cast<double>(bom.scaleOut.ports);
        parts.links = static_cast<double>(bom.scaleOut.links);
    }
    return parts;
}

std::vector<InterruptionSource> interruptionSources(const ReliabilityAssumptions &a,
                                                    const ReliabilityParts &parts)
{
    if (a.interruptionsPerGpuHour)
        return { { "all", "All causes", parts.gpus, *a.interruptionsPerGpuHour * parts.gpus } };
    const auto source = [](const char *key, const char *label, double count, double fit) {
        return InterruptionSource { key, label, count, count * fit / kHoursPerFit };
    };
    return { source("gpu", "GPUs", parts.gpus, a.gpuFit),
             source("hbm", "HBM", parts.gpus, a.hbmFit),
             source("server", "Servers", parts.servers, a.serverFit),
             source("nic", "Scale-out adapters", parts.nics, a.nicFit),
             source("link", "Scale-out links", parts.links, a.linkFit),
             source("software", "Software", parts.gpus, a.softwareFit) };
}

double interruptionsPerHour(const ReliabilityAssumptions &a, const ReliabilityParts &parts)
{
    double perHour = 0;
    for (const InterruptionSource &s : interruptionSources(a, parts))
        perHour += s.perHour;
    return perHour;
}

double poissonAtLeast(double mean, std::int64_t k) noexcept
{
    if (k <= 0)
        return 1;
    if (!(mean > 0))
        return 0;
    const double below = static_cast<double>(k) - 1; // P(N >= k) = 1 - P(N <= below)
    const double spread = 40 * std::sqrt(mean) + 40; // beyond it, terms are below 1e-300
    if (below < mean - spread)
        return 1;
    if (mean > 1e6) // the normal limit with continuity correction, to keep the sum short
        return std::clamp(0.5 * std::erfc((below + 0.5 - mean) / std::sqrt(2 * mean)), 0.0, 1.0);
    // sum_{j <= below} e^-m m^j / j!, the terms in logarithms (e^-m underflows for large m).
    double cdf = 0;
    for (double j = std::max(0.0, std::floor(mean - spread)); j <= std::min(below, mean + spread); ++j)
        cdf += std::exp(-mean + j * std::log(mean) - std::lgamma(j + 1));
    return std::clamp(1 - cdf, 0.0, 1.0);
}

namespace {

/// The expected wait for a repaired server per interruption (goodput.h: hot spares).
void addSpareWait(GoodputResult &r, const ReliabilityAssumptions &a, double perHour)
{
    if (!(a.repair_s > 0) || !(perHour > 0))
        return;
    double hardwarePerHour = 0;
    for (const InterruptionSource &s : r.sources)
        hardwarePerHour += s.key == "software" ? 0
                           : s.key == "all"    ? s.perHour * kLlama3HardwareShare
                                               : s.perHour;
    const double inRepair = hardwarePerHour * a.repair_s / units::kSecondsPerHour;
    r.noSpareProbability = poissonAtLeast(inRepair, a.spareServers);
    r.spareWait_s = hardwarePerHour / perHour * r.noSpareProbability * a.repair_s
                    / static_cast<double>(a.spareServers + 1);
}

} // namespace

GoodputResult goodputOf(const ReliabilityAssumptions &a, const ReliabilityParts &parts, double checkpoint_B)
{
    GoodputResult r;
    const bool ratesValid = a.interruptionsPerGpuHour
                                ? *a.interruptionsPerGpuHour >= 0
                                : a.gpuFit >= 0 && a.hbmFit >= 0 && a.serverFit >= 0 && a.nicFit >= 0
                                      && a.linkFit >= 0 && a.softwareFit >= 0;
    if (!(parts.gpus >= 1) || !ratesValid || !(a.storage_Bps > 0) || !(a.jobRestart_s >= 0)
        || !(checkpoint_B >= 0) || !(a.checkpointInterval_s >= 0) || !std::isfinite(checkpoint_B)
        || (a.asyncCheckpoint && !(a.snapshot_Bps > 0)) || (a.storageRead_Bps && !(*a.storageRead_Bps > 0))
        || !(a.repair_s >= 0) || a.spareServers < 0)
        return r;
    r.valid = true;
    r.checkpoint_B = checkpoint_B;
    r.checkpointWrite_s = checkpoint_B / a.storage_Bps;
    r.asynchronous = a.asyncCheckpoint;
    // Asynchronous: every GPU snapshots an equal share (Megatron-Core's fully parallel save
    // spreads the replicas' writes over the data-parallel ranks), and the write is rework.
    r.checkpointStall_s
        = a.asyncCheckpoint ? checkpoint_B / parts.gpus / a.snapshot_Bps : r.checkpointWrite_s;
    r.rework_s = a.asyncCheckpoint ? r.checkpointWrite_s : 0;
    r.restart_s = a.jobRestart_s + checkpoint_B / a.storageRead_Bps.value_or(a.storage_Bps);
    r.sources = interruptionSources(a, parts);
    r.networkEstimated = parts.networkEstimated && !a.interruptionsPerGpuHour;
    const double perHour = interruptionsPerHour(a, parts);
    r.interruptionsPerGpuHour = perHour / parts.gpus;
    addSpareWait(r, a, perHour);
    const double rate = perHour / units::kSecondsPerHour;
    const double delta = r.checkpointStall_s;
    // The next asynchronous checkpoint waits for the last one's write.
    const double shortest = a.asyncCheckpoint ? r.checkpointWrite_s : 0;
    if (!(rate > 0)) {
        // No failures: only the checkpoints cost time (none needed without a fixed interval).
        r.mtti_s = INFINITY;
        r.interval_s = a.checkpointInterval_s > 0 ? std::max(a.checkpointInterval_s, shortest) : 0;
        r.goodput = r.interval_s > 0 ? r.interval_s / (r.interval_s + delta) : 1.0;
        r.checkpointShare = 1 - r.goodput;
        return r;
    }
    const double M = 1 / rate;
    r.mtti_s = M;
    // Young 1974, "A first order approximation to the optimum checkpoint interval", CACM 17(9).
    r.interval_s
        = std::max(a.checkpointInterval_s > 0 ? a.checkpointInterval_s : std::sqrt(2 * delta * M), shortest);
    const double tau = r.interval_s, R = r.restart_s + r.spareWait_s + r.rework_s;
    // Daly 2006, eq. 9: wall time per unit of work; as tau -> 0 (no write cost) it tends to e^(R/M).
    const double wallPerWork
        = tau > 0 ? M * std::exp(R / M) * std::expm1((tau + delta) / M) / tau : std::exp(R / M);
    r.goodput = std::clamp(1 / wallPerWork, 0.0, 1.0);
    // The loss split in proportion to its first-order terms (Young's): delta per interval, half an
    // interval of work (and an asynchronous write) lost per failure, one restart (and the wait for
    // a server) per failure.
    const double write = delta / (tau + delta), lost = ((tau + delta) / 2 + r.rework_s) / M,
                 restart = (r.restart_s + r.spareWait_s) / M;
    const double firstOrder = write + lost + restart;
    const double scale = firstOrder > 0 ? (1 - r.goodput) / firstOrder : 0;
    r.checkpointShare = write * scale;
    r.lostWorkShare = lost * scale;
    r.restartShare = restart * scale;
    return r;
}

void addThroughput(GoodputResult &r, double mfu, double tokensPerSecond, double tokenBudget,
                   double usdPerMillionTokens) noexcept
{
    if (!r.valid || !(r.goodput > 0) || !(tokensPerSecond > 0))
        return;
    r.effectiveMfu = mfu * r.goodput;
    r.failuresLoss = mfu - r.effectiveMfu;
    r.effectiveTokensPerSecond = tokensPerSecond * r.goodput;
    r.effectiveTrainingDays = tokenBudget / r.effectiveTokensPerSecond / units::kSecondsPerDay;
    r.effectiveUsdPerMillionTokens = usdPerMillionTokens / r.goodput;
}

} // namespace gapstudio::model
