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

#define GAPSTUDIO_CALCULON_MOE_EXTRA_STATS(X) \
    X(baseblock_fw_ep_size) \
    X(edgeblock_fw_ep_size) \
    X(baseblock_fw_es_size) \
    X(edgeblock_fw_es_size) \
    X(baseblock_bw_ep_size) \
    X(edgeblock_bw_ep_size) \
    X(baseblock_bw_es_size) \
    X(edgeblock_bw_es_size) \
    X(baseblock_es_recomm_size) \
    X(edgeblock_es_recomm_size) \
    X(baseblock_ep_recomm_size) \
    X(edgeblock_ep_recomm_size) \
    X(block_dp_exp_size) \
    X(total_weights_space) \
    X(tp_recomm_link_time) \
    X(tp_recomm_exposed_time) \
    X(ep_recomm_link_time) \
    X(ep_recomm_exposed_time) \
    X(es_recomm_link_time) \
    X(es_recomm_exposed_time) \
    X(ep_comm_link_time) \
    X(es_comm_link_time) \
    X(dp_exp_comm_link_time) \
    X(ep_comm_exposed_time) \
    X(es_comm_exposed_time) \
    X(dp_exp_comm_exposed_time)

/// Statistics of the corrected model only (model::Features); 0 in both reference modes and not
/// part of their outputs. embedding_head_time: the embedding, LM head and loss on the critical
/// pipeline stage; stage_imbalance_time: how uneven stages change the pipeline's fill and drain
/// (already in bubble_time; negative when the other stages are lighter). stage_*: HBM of the
/// fullest pipeline stage (first or last) by kind, their sum being proc_mem_tier1_cap_req;
/// stage_embedding_head_space holds the embedding or LM head weights, gradients, optimizer state
/// and logits. The software stack's fixed costs, already inside the compute times (fw, bw,
/// recompute) they delay: block_software_overhead_time and block_moe_sync_time per block and
/// microbatch over all its passes (the calibration's per-block overhead; the MoE dispatcher's
/// host synchronisation), software_overhead_time and moe_sync_time on the critical stage per
/// step, outside the pipeline bubble. block_moe_imbalance_time and moe_imbalance_time: the same
/// for the busiest GPU's extra routed expert work under dropless routing (Features::moeImbalance).
/// block_moe_host_wait_time and moe_host_wait_time: the same for the MoE blocks' wait for their
/// host operators, whose issue outruns the GPU's work (a calibration with host_op_scale);
/// block_moe_host_wait_{fw,bw,re}_time and moe_host_wait_{fw,bw,recompute}_time its part in each
/// pass of the transformer blocks (inside fw, bw and recompute; what moe_host_wait_time holds
/// beyond them is the multi-token-prediction layers', inside embedding_head_time).
#define GAPSTUDIO_CORRECTED_EXTRA_STATS(X) \
    X(cp_comm_link_time) \
    X(cp_comm_exposed_time) \
    X(embedding_head_time) \
    X(stage_imbalance_time) \
    X(stage_weight_space) \
    X(stage_weight_grad_space) \
    X(stage_optimizer_space) \
    X(stage_act_space) \
    X(stage_act_checkpoint_size) \
    X(stage_act_grad_space) \
    X(stage_embedding_head_space) \
    X(block_software_overhead_time) \
    X(block_moe_sync_time) \
    X(software_overhead_time) \
    X(moe_sync_time) \
    X(block_moe_imbalance_time) \
    X(moe_imbalance_time) \
    X(block_moe_host_wait_time) \
    X(moe_host_wait_time) \
    X(block_moe_host_wait_fw_time) \
    X(block_moe_host_wait_bw_time) \
    X(block_moe_host_wait_re_time) \
    X(moe_host_wait_fw_time) \
    X(moe_host_wait_bw_time) \
    X(moe_host_wait_recompute_time)

/// The 122 statistics of calculon-MoE (e3eb609) in its order: X(output name, Stats field).
#define GAPSTUDIO_CALCULON_MOE_STATS(X) \
    X(block_fw_flops, block_fw_flops) \
    X(block_fw_flops_time, block_fw_flops_time) \
    X(block_fw_mem_accessed, block_fw_mem_accessed) \
    X(block_fw_mem_time, block_fw_mem_time) \
    X(block_fw_time, block_fw_time) \
    X(baseblock_fw_tp_time, baseblock_fw_tp_time) \
    X(edgeblock_fw_tp_time, edgeblock_fw_tp_time) \
    X(baseblock_fw_tp_time_exposed, baseblock_fw_tp_time_exposed) \
    X(edgeblock_fw_tp_time_exposed, edgeblock_fw_tp_time_exposed) \
    X(block_re_flops, block_re_flops) \
    X(block_re_flops_time, block_re_flops_time) \
    X(block_re_mem_accessed, block_re_mem_accessed) \
    X(block_re_mem_time, block_re_mem_time) \
    X(block_re_time, block_re_time) \
    X(baseblock_tp_recomm_time, baseblock_recomm_time) \
    X(edgeblock_tp_recomm_time, edgeblock_recomm_time) \
    X(baseblock_tp_recomm_time_exposed, baseblock_recomm_time_exposed) \
    X(edgeblock_tp_recomm_time_exposed, edgeblock_recomm_time_exposed) \
    X(block_agrad_flops, block_agrad_flops) \
    X(block_agrad_flops_time, block_agrad_flops_time) \
    X(block_agrad_mem_accessed, block_agrad_mem_accessed) \
    X(block_agrad_mem_time, block_agrad_mem_time) \
    X(block_agrad_time, block_agrad_time) \
    X(baseblock_agrad_tp_time, baseblock_agrad_tp_time) \
    X(edgeblock_agrad_tp_time, edgeblock_agrad_tp_time) \
    X(baseblock_agrad_tp_time_exposed, baseblock_agrad_tp_time_exposed) \
    X(edgeblock_agrad_tp_time_exposed, edgeblock_agrad_tp_time_exposed) \
    X(block_wgrad_flops, block_wgrad_flops) \
    X(block_wgrad_flops_time, block_wgrad_flops_time) \
    X(block_wgrad_mem_accessed, block_wgrad_mem_accessed) \
    X(block_wgrad_mem_time, block_wgrad_mem_time) \
    X(block_wgrad_time, block_wgrad_time) \
    X(block_optim_flops, block_optim_flops) \
    X(block_optim_flops_time, block_optim_flops_time) \
    X(block_optim_mem_accessed, block_optim_mem_accessed) \
    X(block_optim_mem_time, block_optim_mem_time) \
    X(block_optim_time, block_optim_time) \
    X(baseblock_fw_tp_size, baseblock_fw_tp_size) \
    X(edgeblock_fw_tp_size, edgeblock_fw_tp_size) \
    X(baseblock_fw_ep_size, baseblock_fw_ep_size) \
    X(edgeblock_fw_ep_size, edgeblock_fw_ep_size) \
    X(baseblock_fw_es_size, baseblock_fw_es_size) \
    X(edgeblock_fw_es_size, edgeblock_fw_es_size) \
    X(baseblock_bw_tp_size, baseblock_bw_tp_size) \
    X(edgeblock_bw_tp_size, edgeblock_bw_tp_size) \
    X(baseblock_bw_ep_size, baseblock_bw_ep_size) \
    X(edgeblock_bw_ep_size, edgeblock_bw_ep_size) \
    X(baseblock_bw_es_size, baseblock_bw_es_size) \
    X(edgeblock_bw_es_size, edgeblock_bw_es_size) \
    X(baseblock_tp_recomm_size, baseblock_recomm_size) \
    X(edgeblock_tp_recomm_size, edgeblock_recomm_size) \
    X(baseblock_es_recomm_size, baseblock_es_recomm_size) \
    X(edgeblock_es_recomm_size, edgeblock_es_recomm_size) \
    X(baseblock_ep_recomm_size, baseblock_ep_recomm_size) \
    X(edgeblock_ep_recomm_size, edgeblock_ep_recomm_size) \
    X(block_fw_pp_size, block_fw_pp_size) \
    X(block_bw_pp_size, block_bw_pp_size) \
    X(block_dp_size, block_dp_size) \
    X(block_dp_exp_size, block_dp_exp_size) \
    X(tp_bw_overlap_req, tp_bw_overlap_req) \
    X(dp_bw_overlap_req_chunk, dp_bw_overlap_req_chunk) \
    X(dp_bw_overlap_req_tail, dp_bw_overlap_req_tail) \
    X(block_weight_space, block_weight_space) \
    X(block_act_working_space, block_act_working_space) \
    X(block_act_storage_space, block_act_storage_space) \
    X(block_act_checkpoint_size, block_act_checkpoint_size) \
    X(block_weight_grad_space, block_weight_grad_space) \
    X(block_weight_grad_space_no_sharding, block_weight_grad_space_no_sharding) \
    X(block_act_grad_space, block_act_grad_space) \
    X(block_optimizer_space, block_optimizer_space) \
    X(weight_space_with_offload, weight_space_with_offload) \
    X(act_space_with_offload, act_space_with_offload) \
    X(act_checkpoint_size_with_offload, act_checkpoint_size_with_offload) \
    X(act_grad_space_with_offload, act_grad_space_with_offload) \
    X(weight_grad_space_with_offload, weight_grad_space_with_offload) \
    X(optimizer_space_with_offload, optimizer_space_with_offload) \
    X(weight_space, weight_space) \
    X(total_weights_space, total_weights_space) \
    X(act_space, act_space) \
    X(act_checkpoint_size, act_checkpoint_size) \
    X(act_grad_space, act_grad_space) \
    X(weight_grad_space, weight_grad_space) \
    X(optimizer_space, optimizer_space) \
    X(fw_time, fw_time) \
    X(bw_time, bw_time) \
    X(optim_step_time, optim_step_time) \
    X(recompute_time, recompute_time) \
    X(tp_recomm_link_time, tp_recomm_link_time) \
    X(tp_recomm_exposed_time, tp_recomm_exposed_time) \
    X(ep_recomm_link_time, ep_recomm_link_time) \
    X(ep_recomm_exposed_time, ep_recomm_exposed_time) \
    X(es_recomm_link_time, es_recomm_link_time) \
    X(es_recomm_exposed_time, es_recomm_exposed_time) \
    X(recomm_link_time, recomm_link_time) \
    X(recomm_exposed_time, recomm_exposed_time) \
    X(bubble_time, bubble_time) \
    X(tp_comm_link_time, tp_comm_link_time) \
    X(ep_comm_link_time, ep_comm_link_time) \
    X(es_comm_link_time, es_comm_link_time) \
    X(pp_comm_link_time, pp_comm_link_time) \
    X(dp_comm_link_time, dp_comm_link_time) \
    X(dp_exp_comm_link_time, dp_exp_comm_link_time) \
    X(tp_comm_exposed_time, tp_comm_exposed_time) \
    X(ep_comm_exposed_time, ep_comm_exposed_time) \
    X(es_comm_exposed_time, es_comm_exposed_time) \
    X(pp_comm_exposed_time, pp_comm_exposed_time) \
    X(dp_comm_exposed_time, dp_comm_exposed_time) \
    X(dp_exp_comm_exposed_time, dp_exp_comm_exposed_time) \
    X(fw_offload_exposed_time, fw_offload_exposed_time) \
    X(bw_offload_exposed_time, bw_offload_exposed_time) \
    X(total_time, total_time) \
    X(act_offload_bw_req, act_offload_bw_req) \
    X(weight_offload_bw_req, weight_offload_bw_req) \
    X(optim_offload_bw_req, optim_offload_bw_req) \
    X(offload_mem_bw_req, offload_mem_bw_req) \
    X(proc_mem_tier1_cap_req, proc_mem_tier1_cap_req) \
    X(proc_mem_tier2_cap_req, proc_mem_tier2_cap_req) \
    X(useful_flops, useful_flops) \
    X(compute_efficiency, compute_efficiency) \
    X(system_efficiency, system_efficiency) \
    X(total_efficiency, total_efficiency) \
    X(sample_rate, sample_rate)

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

/// The statistics of one evaluation, one double each. The upstream names (`get_stats_json` of
/// Calculon caa4b11) plus the MoE extension's (calculon-MoE e3eb609); in the MoE output the
/// per-block `*_recomm_*` fields are named `*_tp_recomm_*`. A NaN stands for the reference's
/// `null` (e.g. act_checkpoint_size_with_offload in inference).
struct Stats {
#define GAPSTUDIO_DECLARE_FIELD(name) double name = 0;
    GAPSTUDIO_CALCULON_STATS(GAPSTUDIO_DECLARE_FIELD)
    GAPSTUDIO_CALCULON_MOE_EXTRA_STATS(GAPSTUDIO_DECLARE_FIELD)
    GAPSTUDIO_CORRECTED_EXTRA_STATS(GAPSTUDIO_DECLARE_FIELD)

    /// Calls f(name, value) for each of the 96 upstream statistics, in the reference's order.
    template <typename F> void forEach(F &&f) const
    {
#define GAPSTUDIO_VISIT_FIELD(name) f(std::string_view(#name), name);
        GAPSTUDIO_CALCULON_STATS(GAPSTUDIO_VISIT_FIELD)
#undef GAPSTUDIO_VISIT_FIELD
    }

    /// Calls f(name, value) for each statistic only the corrected model has.
    template <typename F> void forEachCorrected(F &&f) const
    {
#define GAPSTUDIO_VISIT_FIELD(name) f(std::string_view(#name), name);
        GAPSTUDIO_CORRECTED_EXTRA_STATS(GAPSTUDIO_VISIT_FIELD)
#undef GAPSTUDIO_VISIT_FIELD
    }

    /// Calls f(name, value) for each of the 122 calculon-MoE statistics, in its order.
    template <typename F> void forEachMoe(F &&f) const
    {
#define GAPSTUDIO_VISIT_MOE_FIELD(name, field) f(std::string_view(#name), field);
        GAPSTUDIO_CALCULON_MOE_STATS(GAPSTUDIO_VISIT_MOE_FIELD)
#undef GAPSTUDIO_VISIT_MOE_FIELD
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
inline constexpr std::size_t kMoeStatCount = 122;
inline constexpr std::size_t kLayerStatCount = 47;

} // namespace gapstudio::model
