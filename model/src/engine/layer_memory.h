#pragma once
// A layer's memory footprints and a stage's memory traffic in bytes (Calculon `llm/layers.py`
// at caa4b11; calculon-model.md §3.3, §7), inline: an evaluation sums them over every layer of
// the block. Included by layers.h. Internal to the model.

#include "engine/layer_types.h"

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

/// FP32 traffic per logit of Megatron-LM's vocab_parallel_cross_entropy (docs/references.md):
/// forward upcast write, max-subtract, exp and sum passes and the kept softmax; backward the
/// softmax read, gradient write and the scaled 16-bit cast.
constexpr double kLossFwFp32Bytes = 4 + 2 * 4 + 2 * 4 + 4 + 4;
constexpr double kLossBwFp32Bytes = 4 + 4 + 4;

inline double genericFwMem(const Layer &l, const LayerContext &c) noexcept
{
    return (l.inputs + l.outputs + l.weightSpace) * c.bytesPerElement;
}

inline double genericAgradMem(const Layer &l, const LayerContext &c) noexcept
{
    return (l.weightSpace + (l.activationSpace + l.activationGrads)) * c.bytesPerElement;
}

/// Bytes a stage reads and writes (§3.3; the optimizer step's are optimizerBytes()).
[[nodiscard]] inline double stageMemAccessed(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    switch (s) {
    case Stage::Fw:
        switch (l.kind) {
        case LayerKind::DropOut:
            // Plus the 1-byte mask per element.
            return (l.inputs + l.outputs) * c.bytesPerElement + l.activationSpace;
        case LayerKind::Fork:
            return 0;
        case LayerKind::Routing:
            return l.activationSpace * c.bytesPerElement;
        case LayerKind::TPComm:
            if (l.commType != TpCommType::RsAg && !l.conjugate)
                return 0; // identity
            return genericFwMem(l, c);
        case LayerKind::Embedding:
            return 2 * l.outputs * c.bytesPerElement; // read the tokens' rows, write them out
        case LayerKind::Loss:
            return l.inputs * (c.bytesPerElement + kLossFwFp32Bytes);
        default:
            return genericFwMem(l, c);
        }
    case Stage::Agrad:
        switch (l.kind) {
        case LayerKind::DropOut:
        case LayerKind::GeLU:
        case LayerKind::SoftMax:
        case LayerKind::Routing:
            return stageMemAccessed(l, c, Stage::Fw);
        case LayerKind::Fork:
            return l.activationSpace * c.bytesPerElement * (l.numUsers + 1);
        case LayerKind::TPComm:
            if (l.commType != TpCommType::RsAg && l.conjugate)
                return 0; // identity
            return genericAgradMem(l, c);
        case LayerKind::Embedding:
            return 0; // the token ids have no gradient
        case LayerKind::Loss:
            return l.inputs * (c.bytesPerElement + kLossBwFp32Bytes);
        case LayerKind::FlashAttention:
            // Reads Q, K, V, O and dO, writes dQ, dK and dV.
            return 2 * (l.inputs + l.outputs) * c.bytesPerElement;
        default:
            return genericAgradMem(l, c);
        }
    case Stage::Wgrad:
        if (l.kind == LayerKind::Embedding) // read dY, accumulate into the FP32 rows
            return l.outputs * (c.bytesPerElement + 2 * 4);
        if (l.weightSpace == 0)
            return 0;
        return (l.weightGrads + (l.activationSpace + l.activationGrads)) * c.bytesPerElement;
    case Stage::Optim:
        break;
    }
    return optimizerBytes(l, c);
}

} // namespace gapstudio::model::detail
