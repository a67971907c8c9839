#include "network.h"

#include <cmath>

namespace gapstudio::model::detail {

const NetworkOp &networkOp(const NetworkTier &net, NetOp op) noexcept
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

double networkTime(const NetworkTier &net, NetOp op, double bytes, std::int64_t participants) noexcept
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

double allToAllTime(const NetworkTier &net, double bytes, std::int64_t peers) noexcept
{
    const double chunk = std::floor(bytes / static_cast<double>(peers));
    return static_cast<double>(peers - 1) * networkTime(net, NetOp::AllToAll, chunk, 2);
}

} // namespace gapstudio::model::detail
