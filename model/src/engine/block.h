#pragma once
// The transformer block as a list of layers (reference `Llm._build_attn_block` and
// `_build_mlp_block`, Calculon caa4b11; calculon-model.md §3.1).

#include "engine/host_ops.h"
#include "engine/layers.h"

#include "gapstudio/model/fidelity.h"
#include "gapstudio/model/quirks.h"

#include <algorithm>
#include <cstddef>

namespace gapstudio::model::detail {

/// At most 29 layers per block in the references (24 dense, 29 MoE); the corrected model's MoE
/// block adds latent-attention projections, shared experts and token permutation.
inline constexpr std::size_t kMaxBlockLayers = 40;

/// The layers live in a union so that only those added are ever written: a block is built for
/// every evaluation of a layout search, and filling and copying all kMaxBlockLayers slots cost
/// more than the layers in use (a block has 14 to 29).
struct Block {
    Block() noexcept {} // NOLINT: the slots are made by BlockBuilder::add
    Block(const Block &other) noexcept
        : size(other.size)
        , expertImbalance(other.expertImbalance)
        , hostOps(other.hostOps)
        , hostWaits(other.hostWaits)
    {
        std::copy_n(other.layers, other.size, layers);
    }
    Block &operator=(const Block &other) noexcept
    {
        size = other.size;
        expertImbalance = other.expertImbalance;
        hostOps = other.hostOps;
        hostWaits = other.hostWaits;
        std::copy_n(other.layers, other.size, layers);
        return *this;
    }
    ~Block() = default;

    union {
        Layer layers[kMaxBlockLayers]; // NOLINT(*-avoid-c-arrays): slots [0, size) are alive
    };
    std::size_t size = 0;
    /// Corrected model (Features::moeImbalance): the busiest GPU's routed expert work over the
    /// mean, which its expertWork layers take in time (1: balanced or padded to a capacity).
    double expertImbalance = 1;
    /// Corrected model (calibrated): the framework operators the host issues in one forward pass
    /// of the block (0: not counted, no host term).
    double hostOps = 0;
    /// Corrected model (calibrated): the dispatcher makes the host wait for the GPU in every
    /// layer (the dropless dispatcher's copy of the tokens per expert, moeDispatcherSyncsHost),
    /// so every pass of the block runs at the host's launch pace (addHostWait).
    bool hostWaits = false;

    [[nodiscard]] const Layer *begin() const noexcept { return layers; }
    [[nodiscard]] const Layer *end() const noexcept { return layers + size; }
};

/// Builds one block as processor 0 sees it. Preconditions (checked by checkConfiguration):
/// tp divides hidden, feedforward and heads; the TP network index is valid.
[[nodiscard]] Block buildBlock(const Application &app, const Execution &exe, const System &sys,
                               const Quirks &quirks, const Features &features,
                               std::int64_t feedforward = 0) noexcept;

/// Builds one MoE block: attention, router and experts (calculon-MoE e3eb609,
/// calculon-moe-model.md §4). Preconditions as above plus EP dividing the experts; `exe` must
/// already have sequence parallelism forced when tp > 1.
[[nodiscard]] Block buildMoeBlock(const Application &app, const Execution &exe, const System &sys,
                                  const Quirks &quirks, const Features &features) noexcept;

/// Corrected model: the input embedding of the first pipeline stage, and the final norm, LM head
/// and loss of the last (Megatron-LM's VocabParallelEmbedding, output layer and
/// vocab_parallel_cross_entropy, split over TP). Empty blocks without a vocabulary.
[[nodiscard]] Block buildEmbedding(const Application &app, const Execution &exe, const System &sys,
                                   const Features &features) noexcept;
[[nodiscard]] Block buildHead(const Application &app, const Execution &exe, const System &sys,
                              const Features &features) noexcept;
/// Corrected model: one multi-token prediction layer's own layers (embedding of the shifted
/// tokens, two norms, the 2h -> h projection); its transformer block and output head are timed
/// as the model's own. Empty without MTP or a vocabulary.
[[nodiscard]] Block buildMtpLayer(const Application &app, const Execution &exe, const System &sys,
                                  const Features &features) noexcept;

} // namespace gapstudio::model::detail
