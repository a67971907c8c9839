#pragma once
// Per-block, per-microbatch sums over the layers of a block (reference
// `Llm._compute_block_stats`, Calculon caa4b11; calculon-model.md §3.3, §4.2, §7).

#include "engine/block.h"

#include "gapstudio/model/quirks.h"
#include "gapstudio/model/stats.h"

namespace gapstudio::model::detail {

/// One communication group's per-block, per-microbatch traffic: index 0 is the base block of a
/// chunk, 1 the edge block.
struct GroupComm {
    double fwSize[2] = {}, fwTime[2] = {}, fwExposed[2] = {};
    double bwSize[2] = {}, bwTime[2] = {}, bwExposed[2] = {};
    double recommSize[2] = {}, recommTime[2] = {}, recommExposed[2] = {};
};

/// TP, EP (all-to-all), ES (expert-slice) and CP (K/V ring) traffic of a block.
struct BlockComm {
    GroupComm tp, ep, es, cp;
    double expertWeightBytes = 0; ///< weights reduced over expert DP (MoE experts)
    [[nodiscard]] double fwExposed(int edge) const noexcept
    {
        return tp.fwExposed[edge] + ep.fwExposed[edge] + es.fwExposed[edge] + cp.fwExposed[edge];
    }
    [[nodiscard]] double bwExposed(int edge) const noexcept
    {
        return tp.bwExposed[edge] + ep.bwExposed[edge] + es.bwExposed[edge] + cp.bwExposed[edge];
    }
    [[nodiscard]] double recommExposed(int edge) const noexcept
    {
        return tp.recommExposed[edge] + ep.recommExposed[edge] + es.recommExposed[edge] + cp.recommExposed[edge];
    }
};

/// Fills the `block_*`, `baseblock_*`, `edgeblock_*` and `tp_bw_overlap_req` fields of `out` and
/// `comm` (cleared first) with the block's traffic per group: written in place, as evaluate()
/// keeps it, not copied there from a returned value.
void computeBlockStats(const Block &block, const LayerContext &ctx, const Execution &exe,
                       const Quirks &quirks, Stats &out, BlockComm &comm) noexcept;

/// computeBlockStats() returning the block's traffic.
[[nodiscard]] inline BlockComm computeBlockStats(const Block &block, const LayerContext &ctx,
                                                 const Execution &exe, const Quirks &quirks,
                                                 Stats &out) noexcept
{
    BlockComm comm;
    computeBlockStats(block, ctx, exe, quirks, out, comm);
    return comm;
}

/// The time an MoE block's passes wait for the host (host_ops.cpp), added to `out`'s pass times
/// and returned.
double addHostWait(const Block &block, const LayerContext &ctx, const Execution &exe, const BlockComm &comm,
                   Stats &out) noexcept;

/// The reference's per-layer record (`-l`).
[[nodiscard]] LayerStats layerStats(const Layer &layer, const LayerContext &ctx);

} // namespace gapstudio::model::detail
