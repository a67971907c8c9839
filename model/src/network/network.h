#pragma once
// Network operation cost (reference `Network.time`, Calculon caa4b11; calculon-model.md §4.1).

#include "gapstudio/model/calculon_inputs.h"

#include <cstdint>

namespace gapstudio::model::detail {

enum class NetOp : std::uint8_t { P2p, ReduceScatter, AllGather, AllReduce, AllToAll };

[[nodiscard]] inline const NetworkOp &networkOp(const NetworkTier &net, NetOp op) noexcept
{
    switch (op) {
    case NetOp::P2p:
        return net.p2p;
    case NetOp::ReduceScatter:
        return net.reduceScatter;
    case NetOp::AllGather:
        return net.allGather;
    case NetOp::AllReduce:
        return net.allReduce;
    case NetOp::AllToAll:
        break;
    }
    return net.allToAll;
}

/// Seconds for `op` on `bytes` (the full, unsharded tensor) among `participants` processors:
/// S' = S*scalar + (S*scalar/n)*offset; T = latency + S'/(bandwidth*efficiency).
/// A 0-byte operation still costs one latency, as in the reference. Inline: an evaluation
/// prices a dozen collectives.
[[nodiscard]] inline double networkTime(const NetworkTier &net, NetOp op, double bytes,
                                        std::int64_t participants) noexcept
{
    // calculon-model.md §4.1. [2,-1] is a ring all-reduce 2S(n-1)/n, [1,-1] a ring RS/AG,
    // [1,0] a bandwidth-optimal op, [1,1] an in-network (NVLS/SHARP) all-reduce S(1+1/n).
    // The evaluation order follows the reference so that results agree to the last bit.
    const NetworkOp &cost = networkOp(net, op);
    double size = bytes * cost.scalar;
    const double chunk = 1.0 / static_cast<double>(participants) * size;
    size += chunk * cost.offset;
    // calculon-MoE: an op's own efficiency, where given, replaces the tier's.
    const double efficiency = cost.efficiency > 0 ? cost.efficiency : net.efficiency;
    return net.latency_s + size / (net.bandwidth_Bps * efficiency);
}

/// calculon-MoE all-to-all among `peers` (calculon-moe-model.md §5.2): EP-1 sequential pairwise
/// exchanges of floor(bytes / EP) each, each paying the tier latency.
[[nodiscard]] double allToAllTime(const NetworkTier &net, double bytes, std::int64_t peers) noexcept;

} // namespace gapstudio::model::detail
