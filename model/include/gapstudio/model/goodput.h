#pragma once
/**
 * @file goodput.h
 * Failures, checkpoints and restarts of a training job: what share of the wall-clock time trains
 * (goodput), from the job's size, the size of its checkpoint and the storage it writes to.
 *
 * Failures arrive as a Poisson process at a rate per GPU-hour times the GPU count (the job's mean
 * time to interrupt, MTTI). The job writes a checkpoint of its weights and optimizer state every
 * interval (Young's optimum sqrt(2 x write time x MTTI) unless fixed) and after a failure restarts
 * and reloads the last one. The expected wall time per unit of useful work is Daly's exact result
 * for exponential failures (Daly 2006, "A higher order estimate of the optimum checkpoint interval
 * for restart dumps", FGCS 22(3), eq. 9): T_wall / T_work = M e^(R/M) (e^((tau + delta)/M) - 1) /
 * tau, with M the MTTI, R the restart time, delta the checkpoint write time and tau the work
 * between checkpoints; goodput is its inverse. Sources of the defaults: goodput.cpp.
 *
 * Pure and Qt-free: plain numbers in, plain numbers out.
 */

#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/stats.h"

#include <cstdint>

namespace gapstudio::model {

/// How often the job is interrupted and what a checkpoint and a restart cost.
struct ReliabilityAssumptions {
    double interruptionsPerGpuHour;    ///< unexpected job interruptions per GPU-hour (all causes)
    double storage_Bps;                ///< sustained storage bandwidth for writing and reading back
    double jobRestart_s;               ///< detection, rescheduling and start-up before the reload
    double checkpointInterval_s = 0;   ///< work between checkpoints; 0: Young's optimum
    ReliabilityAssumptions() noexcept; ///< the cited defaults
    bool operator==(const ReliabilityAssumptions &) const = default;
};

struct GoodputResult {
    bool valid = false;           ///< false: no GPUs, no failures model or a non-positive input
    double mtti_s = 0;            ///< the job's mean time to interrupt (infinite: no failures)
    double checkpoint_B = 0;      ///< bytes of one checkpoint (the job's unique training state)
    double checkpointWrite_s = 0; ///< delta: the job stops while it writes
    double restart_s = 0;         ///< R: job restart plus reading the checkpoint back
    double interval_s = 0;        ///< tau: work between checkpoints (0: none are written)
    double goodput = 0;           ///< useful work / wall time, in (0, 1]
    /// Where the rest goes, as shares of the wall time (with the goodput they sum to 1, to first
    /// order in 1/M): writing checkpoints, work lost to failures, restarts.
    double checkpointShare = 0, lostWorkShare = 0, restartShare = 0;
    /// The design's throughput and cost with the goodput (addThroughput; 0 until then): tokens per
    /// second of wall time, days of wall time to train the token budget, $ per million tokens.
    double effectiveTokensPerSecond = 0, effectiveTrainingDays = 0, effectiveUsdPerMillionTokens = 0;
};

/// Bytes one checkpoint of the job holds: its weights and optimizer state counted once, from the
/// memory model's per-GPU figures of the fullest pipeline stage (an upper bound for the others).
/// Replicated state is saved once (distributed checkpoints split replicas' writes): weights are
/// replicated over data parallelism (expert weights over expert data parallelism, the smaller,
/// which is used for the whole model of an MoE so as not to undercount its experts), the
/// optimizer state too unless it is sharded.
[[nodiscard]] double checkpointBytes(const Execution &exe, const Stats &stats) noexcept;

/// The goodput of a job of `gpus` GPUs whose checkpoint holds `checkpoint_B` bytes.
[[nodiscard]] GoodputResult goodputOf(const ReliabilityAssumptions &assumptions, std::int64_t gpus,
                                      double checkpoint_B) noexcept;

/// Fills the effective figures of `r` from the failure-free ones: throughput x goodput, the
/// token budget at that throughput, and $ per million tokens / goodput (0 stays 0: no price).
void addThroughput(GoodputResult &r, double tokensPerSecond, double tokenBudget,
                   double usdPerMillionTokens) noexcept;

} // namespace gapstudio::model
