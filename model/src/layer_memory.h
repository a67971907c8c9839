#pragma once
// A layer's memory footprints in bytes (Calculon `llm/layers.py` at caa4b11; calculon-model.md
// §7), inline: an evaluation sums them over every layer of the block. Internal to the model.

#include "layers.h"

namespace gapstudio::model::detail {

[[nodiscard]] inline double weightBytes(const Layer &l, const LayerContext &c) noexcept
{
    return l.weightSpace * c.bytesPerElement;
}

[[nodiscard]] inline double activationBytes(const Layer &l, const LayerContext &c) noexcept
{
    switch (l.kind) {
    case LayerKind::DropOut:
        return l.activationSpace; // the 1-byte mask is the only stored activation
    case LayerKind::Routing:
        return 0; // works on activations stored elsewhere
    case LayerKind::TPComm:
        if (l.commType == TpCommType::RsAg)
            return l.activationSpace * c.bytesPerElement / static_cast<double>(l.numPeers);
        return l.conjugate ? l.activationSpace * c.bytesPerElement : 0;
    default:
        // Transformer Engine keeps the FP8 copy of a linear layer's input for its backward pass.
        if (c.recipe && l.lowPrecision)
            return l.activationSpace * c.lowBytesPerElement;
        return l.activationSpace * c.bytesPerElement;
    }
}

[[nodiscard]] inline double outputBytes(const Layer &l, const LayerContext &c) noexcept
{
    return l.outputs * c.bytesPerElement;
}

[[nodiscard]] inline double weightGradBytes(const Layer &l, const LayerContext &c, bool sharded) noexcept
{
    // Low-precision sharded copy for communication, or fp32 for accumulation.
    if (sharded)
        return l.weightGrads * c.bytesPerElement / shards(l, c);
    return l.weightGrads * 4;
}

[[nodiscard]] inline double activationGradBytes(const Layer &l, const LayerContext &c) noexcept
{
    switch (l.kind) {
    case LayerKind::DropOut:
        return l.activationGrads;
    case LayerKind::Routing:
        return 0;
    case LayerKind::AllToAll:
        return l.activationSpace * c.bytesPerElement;
    case LayerKind::TPComm:
        if (l.commType == TpCommType::RsAg)
            return l.activationSpace * c.bytesPerElement / static_cast<double>(l.numPeers);
        return l.conjugate ? 0 : l.activationGrads * c.bytesPerElement;
    default:
        return l.activationGrads * c.bytesPerElement;
    }
}

[[nodiscard]] inline double optimizerBytes(const Layer &l, const LayerContext &c) noexcept
{
    // Adam: fp32 moments m and v (optim_space = 2 * weights) plus an fp32 master copy of the
    // weights when training in lower precision.
    const double moments = l.optimSpace * 4;
    const double master = c.bytesPerElement < 4 ? l.weightSpace * 4 : 0;
    return (master + moments) / shards(l, c);
}

} // namespace gapstudio::model::detail
