#pragma once
/**
 * @file goodput.h
 * Failures, checkpoints and restarts of a training job: what share of the wall-clock time trains
 * (goodput), from the job's size, the size of its checkpoint and the storage it writes to.
 *
 * Failures arrive as a Poisson process whose rate is the sum over the cluster's parts (GPUs, their
 * HBM, servers, scale-out adapters and links, and the software on every GPU) of the part's count
 * times its interruption rate; the inverse is the job's mean time to interrupt (MTTI). The counts
 * come from the cost model's bill of materials, so a design with more links or servers fails more
 * often. The job writes a checkpoint of its weights and optimizer state every
 * interval (Young's optimum sqrt(2 x write time x MTTI) unless fixed) and after a failure restarts
 * and reloads the last one. The expected wall time per unit of useful work is Daly's exact result
 * for exponential failures (Daly 2006, "A higher order estimate of the optimum checkpoint interval
 * for restart dumps", FGCS 22(3), eq. 9): T_wall / T_work = M e^(R/M) (e^((tau + delta)/M) - 1) /
 * tau, with M the MTTI, R the restart time, delta the time the job stops per checkpoint and tau
 * the work between checkpoints; goodput is its inverse. Sources of the defaults: goodput.cpp.
 *
 * A checkpoint is synchronous (the job stops while it is written to storage: delta is the write)
 * or asynchronous (Mohan et al., "CheckFreq", FAST 2021: a snapshot to host memory, then the
 * write in the background while training goes on; Megatron-Core's and PyTorch's asynchronous
 * distributed checkpoints work so). Asynchronous, delta is the snapshot, each GPU copying its
 * share of the checkpoint over its host link; the next checkpoint cannot start before the last
 * is written, so tau is at least the write time; and a failure loses the work since the last
 * checkpoint that was written, one write time more than synchronous, which counts as rework in
 * R.
 *
 * Hot spares: a failed part takes its server out until it is repaired (mean repair time T). With
 * T = 0 (the default) a healthy server is always at hand, as for a job that runs inside a larger
 * cluster (Llama 3 405B trained on 16K GPUs of a 24K-GPU cluster: Dubey et al. 2024, 3.3.1). With
 * T > 0 the cluster keeps S idle spare servers (priced in the bill of materials, drawing idle
 * power). Servers in repair form an M/G/infinity queue fed by the hardware interruptions at rate
 * lambda, so their number is Poisson with mean m = lambda T whatever the repair times'
 * distribution (Palm's theorem), and a failure finds it so (Poisson arrivals see time averages,
 * Wolff 1982). A failure finds no spare when S or more servers are in repair, P = P(Poisson(m) >=
 * S); the job then waits for the first of the S + 1 servers in repair to come back, T / (S + 1)
 * for exponential repair times. The expected wait per interruption, P T / (S + 1) x the hardware
 * share of the interruptions, adds to R (first order: the queue is taken as if the job never
 * stopped).
 *
 * Pure and Qt-free: plain numbers in, plain numbers out.
 */

#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/stats.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gapstudio::model {

struct BillOfMaterials;

/// How often the job is interrupted and what a checkpoint and a restart cost. Interruption rates
/// are in FIT: unexpected job interruptions per 10^9 hours of one part. The defaults are the Llama 3
/// 405B run's interruptions by cause over its cluster's parts (goodput.cpp).
struct ReliabilityAssumptions {
    double gpuFit;      ///< a GPU: its die, SRAM, system processor, NVLink, thermal interface
    double hbmFit;      ///< the HBM of one GPU
    double serverFit;   ///< a server without GPUs and adapters: CPUs, memory, SSDs, power, host maintenance
    double nicFit;      ///< a scale-out adapter (one GPU-side port)
    double linkFit;     ///< a scale-out link: its cable, its optics and the switch ports at its ends
    double softwareFit; ///< per GPU: software bugs, collective time-outs, failed dependencies
    /// All causes at once, per GPU-hour: when set, replaces the part rates above.
    std::optional<double> interruptionsPerGpuHour;
    double storage_Bps;                ///< sustained storage bandwidth for writing and reading back
    double jobRestart_s;               ///< detection, rescheduling and start-up before the reload
    double checkpointInterval_s = 0;   ///< work between checkpoints; 0: Young's optimum
    /// Checkpoints are snapshots to host memory written in the background (see the file comment).
    bool asyncCheckpoint = false;
    double snapshot_Bps; ///< one GPU's copy bandwidth to host memory for an asynchronous snapshot
    /// Reading a checkpoint back after a restart (absent: storage_Bps, the same both ways).
    std::optional<double> storageRead_Bps;
    /// Hot spares (see the file comment): idle servers kept to replace a failed one at once, and
    /// the mean time to repair a failed server (0: a healthy server is always at hand).
    std::int64_t spareServers = 0;
    double repair_s = 0;
    ReliabilityAssumptions() noexcept; ///< the cited defaults
    bool operator==(const ReliabilityAssumptions &) const = default;
};

/// The parts whose failures interrupt the job, as the bill of materials counts them.
struct ReliabilityParts {
    double gpus = 0, servers = 0;
    double nics = 0, links = 0; ///< the scale-out network's adapters and links (0: one scale-up domain)
    /// The scale-out network has no cost figures (no port speed or switch radix to count its parts
    /// by): its adapters and links are those of the Llama 3 cluster per GPU (goodput.cpp).
    bool networkEstimated = false;
};

/// The parts of the cluster whose bill of materials is `bom`.
[[nodiscard]] ReliabilityParts reliabilityParts(const BillOfMaterials &bom) noexcept;

/// One cause of interruptions: how many parts there are and how often they interrupt the job.
struct InterruptionSource {
    std::string key;   ///< stable id: "gpu", "hbm", "server", "nic", "link", "software", "all"
    std::string label; ///< "GPUs", "HBM", ...
    double parts = 0;
    double perHour = 0; ///< the job's interruptions per hour from these parts
};

/// The job's interruption rate by cause (one "all" line when the rate per GPU-hour is given).
[[nodiscard]] std::vector<InterruptionSource> interruptionSources(const ReliabilityAssumptions &assumptions,
                                                                  const ReliabilityParts &parts);

/// The job's interruptions per hour: the sum over interruptionSources().
[[nodiscard]] double interruptionsPerHour(const ReliabilityAssumptions &assumptions,
                                          const ReliabilityParts &parts);

struct GoodputResult {
    bool valid = false;           ///< false: no GPUs, no failures model or a non-positive input
    double mtti_s = 0;            ///< the job's mean time to interrupt (infinite: no failures)
    std::vector<InterruptionSource> sources; ///< what the interruptions come from
    double interruptionsPerGpuHour = 0;      ///< their sum over the GPU count
    bool networkEstimated = false;           ///< ReliabilityParts::networkEstimated
    double checkpoint_B = 0;      ///< bytes of one checkpoint (the job's unique training state)
    double checkpointWrite_s = 0; ///< writing one checkpoint to storage
    bool asynchronous = false;    ///< ReliabilityAssumptions::asyncCheckpoint
    /// delta: the job stops this long per checkpoint: the write (synchronous) or the snapshot
    /// of each GPU's share to host memory (asynchronous).
    double checkpointStall_s = 0;
    double restart_s = 0;         ///< R: job restart plus reading the checkpoint back
    double rework_s = 0;          ///< asynchronous: the write time lost on top of the interval's work
    /// Hot spares: the chance that a hardware failure finds no spare server, and the expected wait
    /// for a repaired server per interruption (all causes), part of R.
    double noSpareProbability = 0, spareWait_s = 0;
    double interval_s = 0;        ///< tau: work between checkpoints (0: none are written)
    double goodput = 0;           ///< useful work / wall time, in (0, 1]
    /// Where the rest goes, as shares of the wall time (with the goodput they sum to 1, to first
    /// order in 1/M): writing checkpoints, work lost to failures, restarts.
    double checkpointShare = 0, lostWorkShare = 0, restartShare = 0;
    /// The design's throughput and cost with the goodput (addThroughput; 0 until then): tokens per
    /// second of wall time, days of wall time to train the token budget, $ per million tokens.
    double effectiveTokensPerSecond = 0, effectiveTrainingDays = 0, effectiveUsdPerMillionTokens = 0;
    /// The MFU over the wall time (mfu x goodput), and what failures, checkpoints and restarts take
    /// from the MFU (mfu - effectiveMfu), both as shares of peak (addThroughput; 0 until then).
    double effectiveMfu = 0, failuresLoss = 0;
};

/// Bytes one checkpoint of the job holds: its weights and optimizer state counted once, from the
/// memory model's per-GPU figures of the fullest pipeline stage (an upper bound for the others).
/// Replicated state is saved once (distributed checkpoints split replicas' writes): weights are
/// replicated over data parallelism (expert weights over expert data parallelism, the smaller,
/// which is used for the whole model of an MoE so as not to undercount its experts), the
/// optimizer state too unless it is sharded.
[[nodiscard]] double checkpointBytes(const Execution &exe, const Stats &stats) noexcept;

/// P(N >= k) for N Poisson with mean `mean` >= 0 (1 for k <= 0).
[[nodiscard]] double poissonAtLeast(double mean, std::int64_t k) noexcept;

/// The goodput of a job on `parts` whose checkpoint holds `checkpoint_B` bytes.
[[nodiscard]] GoodputResult goodputOf(const ReliabilityAssumptions &assumptions,
                                      const ReliabilityParts &parts, double checkpoint_B);

/// Fills the effective figures of `r` from the failure-free ones: MFU and throughput x goodput,
/// the token budget at that throughput, and $ per million tokens / goodput (0 stays 0: no price).
void addThroughput(GoodputResult &r, double mfu, double tokensPerSecond, double tokenBudget,
                   double usdPerMillionTokens) noexcept;

} // namespace gapstudio::model
