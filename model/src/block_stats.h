#pragma once
// Per-block, per-microbatch sums over the layers of a block (reference
// `Llm._compute_block_stats`, Calculon caa4b11; calculon-model.md §3.3, §4.2, §7).

#include "block.h"

#include "gapstudio/model/quirks.h"
#include "gapstudio/model/stats.h"

namespace gapstudio::model::detail {

/// Fills the `block_*`, `baseblock_*`, `edgeblock_*` and `tp_bw_overlap_req` fields of `out`.
void computeBlockStats(const Block &block, const LayerContext &ctx, const Execution &exe,
                       const Quirks &quirks, Stats &out) noexcept;

/// The reference's per-layer record (`-l`).
[[nodiscard]] LayerStats layerStats(const Layer &layer, const LayerContext &ctx);

} // namespace gapstudio::model::detail
