#include "network.h"

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
        break;
    }
    return net.allReduce;
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
    return net.latency_s + size / (net.bandwidth_Bps * net.efficiency);
}

} // namespace gapstudio::model::detail
