#pragma once
// The host's share of an MoE block: how many framework operators (PyTorch ops, each issuing one
// GPU kernel or collective) one forward pass of a Megatron-Core MoE transformer layer issues on
// one GPU, counted by hand from the source (docs/references.md, "MoE host operators"), and where
// the dropless all-to-all dispatcher makes the host wait for the GPU. The backward pass issues
// about twice the forward's operators (a data- and a weight-gradient kernel per GEMM).
//
// A GPU whose kernels finish faster than the host issues them waits for the host: the block's
// pass takes max(GPU time, operators x host time per operator). Megatron-Core's MoE README names
// it ("CPU Overhead Bottleneck", NVIDIA/Megatron-LM megatron/core/transformer/moe/README.md).

#include "gapstudio/model/calculon_inputs.h"

#include <cstdint>

namespace gapstudio::model::detail {

/// The forward pass's operators of one MoE layer: before the host wait and after it.
struct MoeHostOps {
    double beforeSync = 0, afterSync = 0;
};

/// The operators of one MoE layer's forward pass on one GPU with `localExperts` experts, FP8/FP4
/// experts (`lowPrecision`), the CUDA-graph scopes `graphScopes` (CudaGraphScope bits) and a
/// fused router or not (host_ops.cpp, with the sources of each count).
[[nodiscard]] MoeHostOps moeHostOps(std::int64_t localExperts, bool lowPrecision, std::uint8_t graphScopes,
                                    bool routerFusion) noexcept;

} // namespace gapstudio::model::detail
