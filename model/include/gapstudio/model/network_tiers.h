#pragma once
/**
 * @file network_tiers.h
 * Which network tier each parallelism communicates over, when the system's tiers change. A layout
 * names a tier for TP, CP, PP, DP and, for MoE, EP, ES and expert DP (0 = scale-up); a new
 * topology may have more, fewer or smaller tiers, so the old names can stop fitting. The
 * mapping below keeps the layout's order of locality: the parallelism that was innermost gets
 * the innermost tier it fits in, then the next, and so on.
 */

#include "gapstudio/model/fidelity.h"

#include <optional>

namespace gapstudio::model {

/// The layout `exe` with its parallelisms' tiers moved onto the tiers of `sys` so that the
/// network checks of checkConfiguration pass (the degrees on each tier fit it and fill it where
/// it must be filled; reference `Llm._check_network_assignments`). The parallelisms of degree > 1
/// are ordered innermost first: by their tier in `exe`, then as TP, CP, ES, EP, expert DP, DP,
/// PP (Megatron-Core's rank order, `order="tp-cp-ep-dp-pp"` in megatron/core/parallel_state.py,
/// which puts the groups that exchange the most on the nearest ranks; ES is the experts' TP). Among
/// the mappings that fit and keep that order (no parallelism inside one before it), the one whose
/// tiers in that order are lexicographically smallest is returned: the first parallelism is as far
/// in as it can be, then the second, and so on; if none keeps the order, the smallest of all.
/// Degrees of 1 use no network: their tier is clamped into the system's
/// range. `exe` itself when it fits already; nothing when no mapping fits (the degrees, not the
/// tiers, must change).
[[nodiscard]] std::optional<Execution> fitNetworkTiers(const Execution &exe, const System &sys,
                                                       const Features &features);

} // namespace gapstudio::model
