// Goodput of a training job under failures (goodput.h): Young's checkpoint interval and Daly's
// expected wall time for exponential failures.
#include "gapstudio/model/goodput.h"

#include "gapstudio/model/units.h"

#include <algorithm>
#include <cmath>

namespace gapstudio::model {

namespace {

// Dubey et al. 2024, "The Llama 3 Herd of Models" (arXiv:2407.21783), section 3.3.4: a 54-day
// snapshot of Llama 3 405B pre-training on 16,384 H100 GPUs had 466 job interruptions, 47 planned
// and 419 unexpected (78 % of those confirmed or suspected hardware). Planned maintenance is left
// out: it is scheduled at a checkpoint and loses no work.
constexpr double kLlama3UnexpectedInterruptions = 419;
constexpr double kLlama3SnapshotHours = 54 * 24;
constexpr double kLlama3Gpus = 16384;
// The same report, section 3.3.1: Tectonic storage for checkpoints, 2 TB/s sustained (7 TB/s
// peak) throughput.
constexpr double kLlama3StorageSustained_Bps = 2e12;
// An estimate, no public figure for the runs above: ten minutes to detect the failure, drain
// and reschedule the job and initialise its communicators before the checkpoint is read back
// (FlashRecovery, arXiv:2509.03047, restores 4,800 devices in 150 s with a purpose-built system).
constexpr double kJobRestartEstimate_s = 600;

} // namespace

ReliabilityAssumptions::ReliabilityAssumptions() noexcept
    : interruptionsPerGpuHour(kLlama3UnexpectedInterruptions / (kLlama3SnapshotHours * kLlama3Gpus))
    , storage_Bps(kLlama3StorageSustained_Bps)
    , jobRestart_s(kJobRestartEstimate_s)
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

GoodputResult goodputOf(const ReliabilityAssumptions &a, std::int64_t gpus, double checkpoint_B) noexcept
{
    GoodputResult r;
    if (gpus < 1 || !(a.interruptionsPerGpuHour >= 0) || !(a.storage_Bps > 0) || !(a.jobRestart_s >= 0)
        || !(checkpoint_B >= 0) || !(a.checkpointInterval_s >= 0) || !std::isfinite(checkpoint_B))
        return r;
    r.valid = true;
    r.checkpoint_B = checkpoint_B;
    r.checkpointWrite_s = checkpoint_B / a.storage_Bps;
    r.restart_s = a.jobRestart_s + checkpoint_B / a.storage_Bps;
    const double rate = a.interruptionsPerGpuHour * static_cast<double>(gpus) / units::kSecondsPerHour;
    const double delta = r.checkpointWrite_s;
    if (!(rate > 0)) {
        // No failures: only the checkpoints cost time (none needed without a fixed interval).
        r.mtti_s = INFINITY;
        r.interval_s = a.checkpointInterval_s;
        r.goodput = r.interval_s > 0 ? r.interval_s / (r.interval_s + delta) : 1.0;
        r.checkpointShare = 1 - r.goodput;
        return r;
    }
    const double M = 1 / rate;
    r.mtti_s = M;
    // Young 1974, "A first order approximation to the optimum checkpoint interval", CACM 17(9).
    r.interval_s = a.checkpointInterval_s > 0 ? a.checkpointInterval_s : std::sqrt(2 * delta * M);
    const double tau = r.interval_s, R = r.restart_s;
    // Daly 2006, eq. 9: wall time per unit of work; as tau -> 0 (no write cost) it tends to e^(R/M).
    const double wallPerWork
        = tau > 0 ? M * std::exp(R / M) * std::expm1((tau + delta) / M) / tau : std::exp(R / M);
    r.goodput = std::clamp(1 / wallPerWork, 0.0, 1.0);
    // The loss split in proportion to its first-order terms (Young's): delta per interval, half an
    // interval of work lost per failure, one restart per failure.
    const double write = delta / (tau + delta), lost = (tau + delta) / (2 * M), restart = R / M;
    const double firstOrder = write + lost + restart;
    const double scale = firstOrder > 0 ? (1 - r.goodput) / firstOrder : 0;
    r.checkpointShare = write * scale;
    r.lostWorkShare = lost * scale;
    r.restartShare = restart * scale;
    return r;
}

void addThroughput(GoodputResult &r, double tokensPerSecond, double tokenBudget,
                   double usdPerMillionTokens) noexcept
{
    if (!r.valid || !(r.goodput > 0) || !(tokensPerSecond > 0))
        return;
    r.effectiveTokensPerSecond = tokensPerSecond * r.goodput;
    r.effectiveTrainingDays = tokenBudget / r.effectiveTokensPerSecond / units::kSecondsPerDay;
    r.effectiveUsdPerMillionTokens = usdPerMillionTokens / r.goodput;
}

} // namespace gapstudio::model
