#pragma once
// The state of one evaluation: the compiled layout (reference `Llm.compile`) and the
// intermediate per-block times that the batch, DP-overlap and offload formulas share.

#include "block.h"
#include "block_stats.h"
#include "capacity.h"

#include "gapstudio/model/evaluate.h"

#include <cstdint>

namespace gapstudio::model::detail {

[[nodiscard]] inline double dbl(std::int64_t value) noexcept
{
    return static_cast<double>(value);
}

/// The layout compiled for processor 0 (calculon-model.md §4.5 notation in comments).
struct Layout {
    std::int64_t blocksPerProc = 0;         ///< L_p = ceil(L / pp)
    std::int64_t bubbleReductionBlocks = 0; ///< r: blocks missing on later stages with uneven PP
    std::int64_t blocksPerChunk = 0;        ///< c = L_p / v
    std::int64_t chunksPerProc = 0;         ///< v
    std::int64_t baseblocksPerChunk = 0;    ///< c - 1 (plus one edge block per chunk)
    std::int64_t microbatches = 0;          ///< M = B / (dp * mbs)
    double activationSize = 0;              ///< A = mbs * s * h elements
    double seqParActivationSize = 0;        ///< A_s = (mbs * s / tp) * h elements
};

[[nodiscard]] Layout compileLayout(const Application &app, const Execution &exe) noexcept;

/// Everything the batch-level formulas need beyond Stats.
struct Run {
    const Application &app;
    const Execution &exe;
    const System &sys;
    const Quirks &quirks;
    Layout layout;
    LayerContext ctx;
    const NetworkTier *tpNet = nullptr;
    const NetworkTier *ppNet = nullptr;
    const NetworkTier *dpNet = nullptr;
    const NetworkTier *dpExpNet = nullptr;
    std::int64_t tpNetIndex = 0, ppNetIndex = 0, dpNetIndex = 0;
    BlockComm comm; ///< TP/EP/ES traffic of one block (computeBlockStats)

    // Per block, per microbatch, set by computeBatchStats.
    double chunkFwPpTime = 0, chunkBwPpTime = 0;
    double baseFwTimeNoOffload = 0, edgeFwTimeNoOffload = 0;
    double baseBwTimeNoOffload = 0, edgeBwTimeNoOffload = 0;
    double baseFwOffloadOverhead = 0, edgeFwOffloadOverhead = 0;
    double baseBwOffloadOverhead = 0, edgeBwOffloadOverhead = 0;
    double baseFwTime = 0, edgeFwTime = 0, baseBwTime = 0, edgeBwTime = 0;
    double blockDpTime = 0;
};

/// Step times: fw/bw/optim, TP/PP/DP communication, bubble, offload overheads (§4.5-§4.7, §6).
void computeBatchStats(Run &run, Stats &stats) noexcept;

/// Memory per processor (§7), offload bandwidths (§6) and efficiencies (§8.1).
void computeMemoryAndEfficiency(Run &run, const Block &block, Stats &stats) noexcept;

/// Bytes the offload tier moves per block in the forward / backward pass (§6).
[[nodiscard]] double fwOffloadBytes(const Run &run, const Stats &stats) noexcept;
[[nodiscard]] double bwOffloadBytes(const Run &run, const Stats &stats) noexcept;



} // namespace gapstudio::model::detail
