// Data-parallel gradient communication (calculon-model.md §4.6; the corrected model's precision
// recipe and hierarchical collectives: docs/references.md).
#include "engine/run.h"

#include "network/network.h"

#include <algorithm>

namespace gapstudio::model::detail {

/// Corrected model: a collective over `replicas` ranks on a scale-out tier, `local` of which
/// share each scale-up domain, runs hierarchically (NCCL's intra-node then inter-node phases):
/// the scale-up domain reduces or gathers among its local ranks, and each of them moves only its
/// 1/local share across the scale-out fabric through its own NIC.
namespace {

double groupCollective(const Run &run, const NetworkTier &net, NetOp op, double bytes, std::int64_t replicas,
                       std::int64_t local) noexcept
{
    if (local <= 1 || &net == &run.sys.networks.front())
        return networkTime(net, op, bytes, replicas);
    const NetworkTier &up = run.sys.networks.front();
    const double share = bytes / dbl(local);
    const std::int64_t domains = replicas / local;
    switch (op) {
    case NetOp::AllReduce:
        return networkTime(up, NetOp::ReduceScatter, bytes, local) + networkTime(net, NetOp::AllReduce, share, domains) +
               networkTime(up, NetOp::AllGather, bytes, local);
    case NetOp::ReduceScatter:
    case NetOp::AllGather:
        return networkTime(up, op, bytes, local) + networkTime(net, op, share, domains);
    case NetOp::P2p:
    case NetOp::AllToAll:
        break;
    }
    return networkTime(net, op, bytes, replicas);
}

} // namespace

/// The DP communication per block: an all-reduce, or with optimizer sharding a reduce-scatter
/// plus an all-gather, of the block's weight bytes (§4.6). `inner` is the product of the degrees
/// placed inside each scale-up domain before DP (TP and CP, or ES and EP for expert DP).
double gradientReduction(const Run &run, const NetworkTier &net, double bytes, std::int64_t replicas,
                         std::int64_t inner) noexcept
{
    if (run.ctx.recipe) {
        const std::int64_t domain = run.sys.networks.front().size;
        const std::int64_t local = std::clamp<std::int64_t>(domain / std::max<std::int64_t>(inner, 1), 1, replicas);
        const std::int64_t perDomain = replicas % local == 0 ? local : 1;
        // Corrected model: gradients travel in their reduction datatype (Megatron-LM reduces the
        // FP32 main gradients of a 16-bit run unless told otherwise: arguments.py sets
        // accumulate_allreduce_grads_in_fp32 with --bf16), the updated 16-bit parameters come
        // back by all-gather, and with parameter sharding (ZeRO-3 / FSDP) they are gathered
        // again for the backward pass (Rajbhandari et al. 2020, section 7).
        const double params = bytes / run.ctx.bytesPerElement;
        const double gradBytes = run.exe.gradientReduceBytes > 0 ? run.exe.gradientReduceBytes : 4.0;
        if (!run.exe.optimizerSharding)
            return groupCollective(run, net, NetOp::AllReduce, params * gradBytes, replicas, perDomain);
        const double gathers = run.exe.parameterSharding ? 2.0 : 1.0;
        return groupCollective(run, net, NetOp::ReduceScatter, params * gradBytes, replicas, perDomain) +
               gathers * groupCollective(run, net, NetOp::AllGather, params * run.ctx.bytesPerElement, replicas,
                                         perDomain);
    }
    if (run.exe.optimizerSharding)
        return networkTime(net, NetOp::ReduceScatter, bytes, replicas) +
               networkTime(net, NetOp::AllGather, bytes, replicas);
    return networkTime(net, NetOp::AllReduce, bytes, replicas);
}

} // namespace gapstudio::model::detail
