#pragma once
// The host's share of an MoE block: how many framework operators (PyTorch ops, each issuing one
// GPU kernel or collective) one forward pass of a Megatron-Core MoE transformer layer issues on
// one GPU, counted by hand from the source (docs/references.md, "MoE host operators"), and where
// the dropless all-to-all dispatcher makes the host wait for the GPU. The backward pass issues
// about twice the forward's operators (a data- and a weight-gradient kernel per GEMM).
//
// A GPU whose kernels finish faster than the host issues them waits for the host. Where the
// dispatcher makes the host wait for the GPU every layer, the host cannot get ahead in any pass
// of the block, which takes its GPU time plus the operators' host time; with a dispatcher that
// never waits the host hides behind the GPU, max(GPU time, operators x host time per operator)
// (host_ops.cpp, addHostWait).
// Megatron-Core's MoE README names the bottleneck ("CPU Overhead Bottleneck", NVIDIA/Megatron-LM
// megatron/core/transformer/moe/README.md).

#include "gapstudio/model/calculon_inputs.h"

#include <cstdint>

namespace gapstudio::model::detail {

/// What sets an MoE layer's operator count: the model's attention, router and shared experts,
/// the GPU's local experts and the software stack's fusions and CUDA graphs.
struct MoeLayerShape {
    std::int64_t localExperts = 1;
    bool lowPrecision = false;       ///< FP8/FP4 experts
    std::uint8_t graphScopes = 0;    ///< CudaGraphScope bits
    bool routerFusion = false;       ///< --moe-router-fusion
    bool latentAttention = false;    ///< multi-head latent attention (DeepSeek-V2/V3)
    bool lowRankQuery = false;       ///< latent attention's query down projection (q_lora_rank)
    bool groupLimitedRouter = false; ///< Application::routerGroups > 1
    bool sharedExperts = false;      ///< a shared expert MLP beside the routed ones
    bool deepEpDispatch = false;     ///< the flex dispatcher with DeepEP's normal kernels
};

/// The operators of one MoE layer's forward pass on one GPU (host_ops.cpp, with the sources of
/// each count).
[[nodiscard]] double moeHostOps(const MoeLayerShape &layer) noexcept;

} // namespace gapstudio::model::detail
