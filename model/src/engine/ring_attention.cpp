// Context parallelism of the corrected model: the sequence is split over CP ranks; every rank
// keeps its queries and passes its keys and values around a ring, computing attention on one
// K/V chunk while the next arrives (Liu et al., "Ring Attention with Blockwise Transformers",
// 2023; Megatron-Core context parallelism, which splits the sequence into 2 x CP chunks so that
// every rank gets the same causal work). Backward sends K/V again and their gradients back.
// Sources: docs/references.md.
#include "engine/layers.h"

#include "network/network.h"

#include <algorithm>

namespace gapstudio::model::detail {

namespace {

/// Ring steps that move data: CP - 1 in the forward pass, twice that backward (K/V and dK/dV).
double transfers(const Layer &l, Stage s) noexcept
{
    const double steps = static_cast<double>(l.numPeers - 1);
    switch (s) {
    case Stage::Fw:
        return steps;
    case Stage::Agrad:
        return 2 * steps;
    case Stage::Wgrad:
        return l.needsRecomm ? steps : 0; // the forward ring again when attention is recomputed
    case Stage::Optim:
        break;
    }
    return 0;
}

} // namespace

double ringBytes(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    if (l.numPeers <= 1)
        return 0;
    return transfers(l, s) * l.ringStepElements * c.bytesPerElement;
}

double ringTime(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    if (l.numPeers <= 1)
        return 0;
    const double step = networkTime(*l.net, NetOp::P2p, l.ringStepElements * c.bytesPerElement, 2);
    return transfers(l, s) * step;
}

StageTiming ringAttentionTime(const Layer &l, const LayerContext &c, Stage s, double compute) noexcept
{
    StageTiming t;
    t.time = compute;
    if (l.numPeers <= 1 || s == Stage::Optim)
        return t;
    // CP compute steps of one K/V chunk each; while step i runs, the chunk of step i + 1 (and,
    // backward, the gradients of step i - 1) travel: the excess of each transfer is exposed.
    const double ranks = static_cast<double>(l.numPeers);
    const Stage ring = s == Stage::Wgrad ? Stage::Fw : s;
    const double link = ringTime(l, c, ring);
    const double perStep = link / (ranks - 1);
    const double exposed = (ranks - 1) * std::max(0.0, perStep - compute / ranks);
    t.exposed = exposedWithOverlapEfficiency(c, link, exposed);
    return t;
}

} // namespace gapstudio::model::detail
