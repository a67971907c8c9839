#pragma once
// Network operation cost (reference `Network.time`, Calculon caa4b11; calculon-model.md §4.1).

#include "gapstudio/model/calculon_inputs.h"

#include <cstdint>

namespace gapstudio::model::detail {

enum class NetOp : std::uint8_t { P2p, ReduceScatter, AllGather, AllReduce, AllToAll };

[[nodiscard]] const NetworkOp &networkOp(const NetworkTier &net, NetOp op) noexcept;

/// Seconds for `op` on `bytes` (the full, unsharded tensor) among `participants` processors:
/// S' = S*scalar + (S*scalar/n)*offset; T = latency + S'/(bandwidth*efficiency).
/// A 0-byte operation still costs one latency, as in the reference.
[[nodiscard]] double networkTime(const NetworkTier &net, NetOp op, double bytes,
                                 std::int64_t participants) noexcept;

/// calculon-MoE all-to-all among `peers` (calculon-moe-model.md §5.2): EP-1 sequential pairwise
/// exchanges of floor(bytes / EP) each, each paying the tier latency.
[[nodiscard]] double allToAllTime(const NetworkTier &net, double bytes, std::int64_t peers) noexcept;

} // namespace gapstudio::model::detail
