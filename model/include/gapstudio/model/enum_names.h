#pragma once
/**
 * @file enum_names.h
 * The file names of the execution's enums, in enum order: the words Calculon's execution files
 * use (calculon-model.md §1), which the layout presets, the CLI's output and its options share.
 * One list of each, indexed by the enum's value.
 */

#include "gapstudio/model/calculon_inputs.h"

#include <array>
#include <cstddef>

namespace gapstudio::model::names {

inline constexpr std::array<const char *, 2> kAttentionType = { "multihead", "multiquery" };
inline constexpr std::array<const char *, 3> kRecompute = { "none", "attn_only", "full" };
inline constexpr std::array<const char *, 3> kTpCommType = { "ar", "p2p_rs_ag", "rs_ag" };
inline constexpr std::array<const char *, 3> kTpOverlap = { "none", "ring", "pipe" };
/// MoE token dispatchers (GapStudio's layout and software files, not Calculon's).
inline constexpr std::array<const char *, 3> kMoeDispatcher = { "alltoall", "flex", "flex-deepep" };
/// CUDA-graph scopes, bit i of Execution::cudaGraphScopes (Megatron-Core's --cuda-graph-scope).
inline constexpr std::array<const char *, 4> kCudaGraphScope
    = { "attn", "moe_router", "moe_preprocess", "moe" };

/// The name of `value` in `names` (an enum of the list's order).
template <typename Enum, std::size_t N>
[[nodiscard]] constexpr const char *of(const std::array<const char *, N> &names, Enum value) noexcept
{
    return names[static_cast<std::size_t>(value)];
}

} // namespace gapstudio::model::names
