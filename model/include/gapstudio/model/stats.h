#pragma once
/**
 * @file stats.h
 * The reference model's outputs: the 96 top-level statistics of `Llm.get_stats_json()` and the
 * per-layer records of `-l`, in the reference's order and with its names (SI units: seconds,
 * bytes, flops, bytes per second). Declared once, as X-macro lists, so that the names used by
 * the CLI, the tests and the views cannot drift from the struct fields.
 */

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace gapstudio::model {

// clang-format off
#define GAPSTUDIO_CALCULON_STATS(X) \
    X(block_fw_flops) \
    X(block_fw_flops_time) \
    X(block_fw_mem_accessed) \
    X(block_fw_mem_time) \
    X(block_fw_time) \
    X(baseblock_fw_tp_time) \
    X(edgeblock_fw_tp_time) \
    X(baseblock_fw_tp_time_exposed) \
    X(edgeblock_fw_tp_time_exposed) \
    X(block_re_flops) \
    X(block_re_flops_time) \
    X(block_re_mem_accessed) \
    X(block_re_mem_time) \
    X(block_re_time) \
    X(baseblock_recomm_time) \
    X(edgeblock_recomm_time) \
    X(baseblock_recomm_time_exposed) \
    X(edgeblock_recomm_time_exposed) \
    X(block_agrad_flops) \
    X(block_agrad_flops_time) \
    X(block_agrad_mem_accessed) \
    X(block_agrad_mem_time) \
    X(block_agrad_time) \
    X(baseblock_agrad_tp_time) \
    X(edgeblock_agrad_tp_time) \
    X(baseblock_agrad_tp_time_exposed) \
    X(edgeblock_agrad_tp_time_exposed) \
    X(block_wgrad_flops) \
    X(block_wgrad_flops_time) \
    X(block_wgrad_mem_accessed) \
    X(block_wgrad_mem_time) \
    X(block_wgrad_time) \
    X(block_optim_flops) \
    X(block_optim_flops_time) \
    X(block_optim_mem_accessed) \
    X(block_optim_mem_time) \
    X(block_optim_time) \
    X(baseblock_fw_tp_size) \
    X(edgeblock_fw_tp_size) \
    X(baseblock_bw_tp_size) \
    X(edgeblock_bw_tp_size) \
    X(baseblock_recomm_size) \
    X(edgeblock_recomm_size) \
    X(block_fw_pp_size) \
    X(block_bw_pp_size) \
    X(block_dp_size) \
    X(tp_bw_overlap_req) \
    X(dp_bw_overlap_req_chunk) \
    X(dp_bw_overlap_req_tail) \
    X(block_weight_space) \
    X(block_act_working_space) \
    X(block_act_storage_space) \
    X(block_act_checkpoint_size) \
    X(block_weight_grad_space) \
    X(block_weight_grad_space_no_sharding) \
    X(block_act_grad_space) \
    X(block_optimizer_space) \
    X(weight_space_with_offload) \
    X(act_space_with_offload) \
    X(act_checkpoint_size_with_offload) \
    X(act_grad_space_with_offload) \
    X(weight_grad_space_with_offload) \
    X(optimizer_space_with_offload) \
    X(weight_space) \
    X(act_space) \
    X(act_checkpoint_size) \
    X(act_grad_space) \
    X(weight_grad_space) \
    X(optimizer_space) \
    X(fw_time) \
    X(bw_time) \
    X(optim_step_time) \
    X(recompute_time) \
    X(recomm_link_time) \
    X(recomm_exposed_time) \
    X(bubble_time) \
    X(tp_comm_link_time) \
    X(pp_comm_link_time) \
    X(dp_comm_link_time) \
    X(tp_comm_exposed_time) \
    X(pp_comm_exposed_time) \
    X(dp_comm_exposed_time) \
    X(fw_offload_exposed_time) \
    X(bw_offload_exposed_time) \
    X(total_time) \
    X(act_offload_bw_req) \
    X(weight_offload_bw_req) \
    X(optim_offload_bw_req) \
    X(offload_mem_bw_req) \
    X(proc_mem_tier1_cap_req) \
    X(proc_mem_tier2_cap_req) \
    X(useful_flops) \
    X(compute_efficiency) \
    X(system_efficiency) \
    X(total_efficiency) \
    X(sample_rate)

#define GAPSTUDIO_CALCULON_LAYER_STATS(X) \
    X(inputs_size) \
    X(outputs_size) \
    X(fw_flops) \
    X(fw_mem_accessed) \
    X(fw_arithmetic_intensity) \
    X(fw_processing_time) \
    X(baseblock_fw_tp_comm_tile) \
    X(edgeblock_fw_tp_comm_tile) \
    X(baseblock_fw_tp_comm_size) \
    X(edgeblock_fw_tp_comm_size) \
    X(baseblock_fw_tp_comm_time) \
    X(edgeblock_fw_tp_comm_time) \
    X(baseblock_fw_tp_comm_time_exposed) \
    X(edgeblock_fw_tp_comm_time_exposed) \
    X(agrad_flops) \
    X(agrad_mem_accessed) \
    X(agrad_arithmetic_intensity) \
    X(agrad_processing_time) \
    X(baseblock_bw_tp_comm_tile) \
    X(edgeblock_bw_tp_comm_tile) \
    X(baseblock_bw_tp_comm_size) \
    X(edgeblock_bw_tp_comm_size) \
    X(baseblock_bw_tp_comm_time) \
    X(edgeblock_bw_tp_comm_time) \
    X(baseblock_bw_tp_comm_time_exposed) \
    X(edgeblock_bw_tp_comm_time_exposed) \
    X(wgrad_flops) \
    X(wgrad_mem_accessed) \
    X(wgrad_arithmetic_intensity) \
    X(wgrad_processing_time) \
    X(baseblock_recomm_tile) \
    X(edgeblock_recomm_tile) \
    X(baseblock_recomm_size) \
    X(edgeblock_recomm_size) \
    X(baseblock_recomm_time) \
    X(edgeblock_recomm_time) \
    X(baseblock_recomm_time_exposed) \
    X(edgeblock_recomm_time_exposed) \
    X(optim_flops) \
    X(optim_mem_accessed) \
    X(optim_arithmetic_intensity) \
    X(optim_processing_time) \
    X(weight) \
    X(activation) \
    X(weight_grad) \
    X(activation_grad) \
    X(optimizer)
// clang-format on

/// The 96 top-level statistics, one double each (reference `get_stats_json`).
struct Stats {
#define GAPSTUDIO_DECLARE_FIELD(name) double name = 0;
    GAPSTUDIO_CALCULON_STATS(GAPSTUDIO_DECLARE_FIELD)

    /// Calls f(name, value) for each statistic, in the reference's order.
    template <typename F> void forEach(F &&f) const
    {
#define GAPSTUDIO_VISIT_FIELD(name) f(std::string_view(#name), name);
        GAPSTUDIO_CALCULON_STATS(GAPSTUDIO_VISIT_FIELD)
#undef GAPSTUDIO_VISIT_FIELD
    }
};

/// One layer's record (reference `-l` output), e.g. "AttnBlock_QKV_AG".
struct LayerStats {
    std::string name;
    GAPSTUDIO_CALCULON_LAYER_STATS(GAPSTUDIO_DECLARE_FIELD)
#undef GAPSTUDIO_DECLARE_FIELD

    template <typename F> void forEach(F &&f) const
    {
#define GAPSTUDIO_VISIT_FIELD(name) f(std::string_view(#name), name);
        GAPSTUDIO_CALCULON_LAYER_STATS(GAPSTUDIO_VISIT_FIELD)
#undef GAPSTUDIO_VISIT_FIELD
    }
};

inline constexpr std::size_t kStatCount = 96;
inline constexpr std::size_t kLayerStatCount = 47;

} // namespace gapstudio::model
