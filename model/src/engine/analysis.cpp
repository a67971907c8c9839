// The charts' data, derived from one evaluation (analysis.h). Only additive splits of the
// reference's own statistics: every number here traces to a Stats field or a system parameter.
#include "gapstudio/model/analysis.h"

#include "engine/capacity.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace gapstudio::model {

namespace {

/// The MoE blocks' wait for their host operators: one term of the step time and one loss of the
/// efficiency gap, under one key and name.
constexpr const char *kMoeHostOpsKey = "moe_host_ops";
constexpr const char *kMoeHostOpsName = "MoE host operators (launch-bound)";

double blocksPerProc(const Application &app, const Execution &exe) noexcept
{
    return static_cast<double>((app.numBlocks + exe.pipelinePar - 1) / exe.pipelinePar);
}

StepBreakdown stepBreakdown(const Stats &o)
{
    // The terms of the total step time, in the order of calculon-model.md §4.7. The MoE blocks'
    // wait for their host operators (corrected model) is a term of its own, taken out of the
    // passes that hold it: the transformer blocks' forward, backward and recompute, and the
    // multi-token-prediction layers' in the embedding and LM head.
    const double hostWaitEnds = std::max(0.0, o.moe_host_wait_time - o.moe_host_wait_fw_time
                                                  - o.moe_host_wait_bw_time - o.moe_host_wait_recompute_time);
    StepBreakdown b;
    b.exposed = { { "fw", "Forward compute", o.fw_time - o.moe_host_wait_fw_time },
                  { "bw", "Backward compute", o.bw_time - o.moe_host_wait_bw_time },
                  { "optimizer", "Optimizer step", o.optim_step_time },
                  { "recompute", "Recompute", o.recompute_time - o.moe_host_wait_recompute_time },
                  { kMoeHostOpsKey, kMoeHostOpsName, o.moe_host_wait_time },
                  { "bubble", "Pipeline bubble", o.bubble_time },
                  { "tp_exposed", "TP communication", o.tp_comm_exposed_time },
                  { "pp_exposed", "PP communication", o.pp_comm_exposed_time },
                  { "dp_exposed", "DP communication", o.dp_comm_exposed_time },
                  { "ep_exposed", "EP all-to-all", o.ep_comm_exposed_time },
                  { "es_exposed", "ES communication", o.es_comm_exposed_time },
                  { "recomm_exposed", "Re-communication", o.recomm_exposed_time },
                  { "offload", "Offload overhead", o.fw_offload_exposed_time + o.bw_offload_exposed_time },
                  { "cp_exposed", "CP communication", o.cp_comm_exposed_time },
                  { "embedding_head", "Embedding, LM head and loss", o.embedding_head_time - hostWaitEnds } };
    // Overlapped (hidden) communication: link time not seen in the step. EP is never overlapped.
    const auto hidden = [](double link, double exposed) { return std::max(0.0, link - exposed); };
    b.hidden = {{"tp_hidden", "TP communication (hidden)", hidden(o.tp_comm_link_time, o.tp_comm_exposed_time)},
                {"dp_hidden", "DP communication (hidden)", hidden(o.dp_comm_link_time, o.dp_comm_exposed_time)},
                {"recomm_hidden", "Re-communication (hidden)",
                 hidden(o.recomm_link_time, o.recomm_exposed_time)},
                {"cp_hidden", "CP communication (hidden)", hidden(o.cp_comm_link_time, o.cp_comm_exposed_time)}};
    b.total_s = o.total_time;
    return b;
}

EfficiencyGap efficiencyGap(const Application &app, const Execution &exe, const System &sys, const Stats &o)
{
    // MFU = ideal / total, the ideal being the useful flops at matrix peak (§8.1). 1 - MFU splits
    // into each non-compute part of the step over the total, memory-bound time of the compute
    // kernels, the software stack's fixed costs inside the compute time (corrected model), the
    // optimizer step, and the kernels' own inefficiency (the remainder, so that the losses sum
    // exactly to 1 - MFU).
    EfficiencyGap g;
    g.mfu = o.total_efficiency;
    const double total = o.total_time;
    if (!(total > 0))
        return g;
    const double steps = blocksPerProc(app, exe) * static_cast<double>(exe.batchSize / exe.dataPar / exe.microbatchSize);
    const double memory = sys.processingMode == ProcessingMode::NoOverlap
                              ? steps * (o.block_fw_mem_time + o.block_agrad_mem_time + o.block_wgrad_mem_time)
                              : 0.0;
    g.losses = { { "memory", "Memory-bound time", memory / total },
                 { "software", "Software overhead per block (fitted)", o.software_overhead_time / total },
                 { "moe_sync", "MoE dispatcher host sync (fitted)", o.moe_sync_time / total },
                 { "moe_imbalance", "Expert load imbalance", o.moe_imbalance_time / total },
                 { kMoeHostOpsKey, kMoeHostOpsName, o.moe_host_wait_time / total },
                 { "optimizer", "Optimizer step", o.optim_step_time / total },
                 { "recompute", "Recompute", o.recompute_time / total },
                 { "bubble", "Pipeline bubble", o.bubble_time / total },
                 { "tp_exposed", "Exposed TP communication", o.tp_comm_exposed_time / total },
                 { "pp_exposed", "Exposed PP communication", o.pp_comm_exposed_time / total },
                 { "dp_exposed", "Exposed DP communication", o.dp_comm_exposed_time / total },
                 { "ep_exposed", "Exposed EP all-to-all", o.ep_comm_exposed_time / total },
                 { "es_exposed", "Exposed ES communication", o.es_comm_exposed_time / total },
                 { "recomm_exposed", "Re-communication", o.recomm_exposed_time / total },
                 { "offload", "Offload overhead",
                   (o.fw_offload_exposed_time + o.bw_offload_exposed_time) / total },
                 { "cp_exposed", "Exposed CP communication", o.cp_comm_exposed_time / total } };
    double others = 0;
    for (const TimeComponent &loss : g.losses)
        others += loss.seconds;
    g.losses.insert(g.losses.begin(), {"kernel", "Kernel efficiency", (1.0 - g.mfu) - others});
    return g;
}

/// The memory tiers' traffic per step: HBM, and the tier-2 memory when anything is offloaded.
std::vector<TierUsage> memoryTiers(const Execution &exe, const System &sys, const Stats &o, double lp)
{
    std::vector<TierUsage> tiers;
    TierUsage hbm;
    hbm.name = hbm.label = "HBM";
    hbm.bytesPerStep = lp * static_cast<double>(exe.batchSize / exe.dataPar / exe.microbatchSize) *
                           (o.block_fw_mem_accessed + o.block_agrad_mem_accessed + o.block_wgrad_mem_accessed) +
                       lp * o.block_optim_mem_accessed;
    hbm.busySeconds = lp * static_cast<double>(exe.batchSize / exe.dataPar / exe.microbatchSize) *
                          (o.block_fw_mem_time + o.block_agrad_mem_time + o.block_wgrad_mem_time) +
                      lp * o.block_optim_mem_time;
    hbm.peak_Bps = sys.mem1.bandwidth_Bps;
    hbm.requiredToHide_Bps = 0;
    tiers.push_back(hbm);
    if (exe.weightOffload || exe.activationsOffload || exe.optimizerOffload) {
        TierUsage offload;
        offload.name = offload.label = "Tier-2 memory (offload)";
        offload.peak_Bps = sys.mem2.bandwidth_Bps;
        offload.requiredToHide_Bps = o.offload_mem_bw_req;
        tiers.push_back(offload);
    }
    return tiers;
}

std::vector<TierUsage> tierUsage(const Application &app, const Execution &exe, const System &sys, const Stats &o)
{
    const double microbatchChunks = static_cast<double>(exe.batchSize / exe.dataPar / exe.microbatchSize) *
                                    static_cast<double>(exe.pipelineInterleaving);
    const double lp = blocksPerProc(app, exe);
    const double base = lp / static_cast<double>(exe.pipelineInterleaving) - 1; // base blocks per chunk
    const auto perStep = [&](double baseBytes, double edgeBytes) {
        return microbatchChunks * (base * baseBytes + edgeBytes);
    };
    struct Load {
        const char *name;
        std::int64_t tier;
        std::int64_t degree;
        double bytes;
        double seconds;
        double required;
    };
    // Payload bytes of each parallelism's collectives per step (the full tensor, as the
    // reference sizes them) and their time on the link.
    const std::array<Load, 5> loads = {{
        {"TP", exe.tensorParNet, exe.tensorPar,
         perStep(o.baseblock_fw_tp_size + o.baseblock_bw_tp_size + o.baseblock_recomm_size,
                 o.edgeblock_fw_tp_size + o.edgeblock_bw_tp_size + o.edgeblock_recomm_size),
         o.tp_comm_link_time + o.tp_recomm_link_time,
         o.tp_bw_overlap_req},
        {"PP", exe.pipelineParNet, exe.pipelinePar,
         static_cast<double>(exe.batchSize / exe.dataPar / exe.microbatchSize) *
             static_cast<double>(exe.pipelineInterleaving) * (o.block_fw_pp_size + o.block_bw_pp_size),
         o.pp_comm_link_time, 0.0},
        {"DP", exe.dataParNet, std::max(exe.dataPar, exe.modelMoE ? exe.dataParExp : 1),
         lp * o.block_dp_size * (exe.optimizerSharding ? 2.0 : 1.0), o.dp_comm_link_time,
         std::max(o.dp_bw_overlap_req_chunk, o.dp_bw_overlap_req_tail)},
        {"EP", exe.expertParNet, exe.modelMoE ? exe.expertPar : 1,
         perStep(o.baseblock_fw_ep_size + o.baseblock_bw_ep_size, o.edgeblock_fw_ep_size + o.edgeblock_bw_ep_size),
         o.ep_comm_link_time, 0.0},
        {"ES", exe.expertSliceNet, exe.modelMoE ? exe.expertSlice : 1,
         perStep(o.baseblock_fw_es_size + o.baseblock_bw_es_size + o.baseblock_es_recomm_size,
                 o.edgeblock_fw_es_size + o.edgeblock_bw_es_size + o.edgeblock_es_recomm_size),
         o.es_comm_link_time + o.es_recomm_link_time, 0.0},
    }};
    std::vector<TierUsage> tiers;
    for (std::size_t i = 0; i < sys.networks.size(); ++i) {
        TierUsage t;
        std::string users;
        for (const Load &l : loads) {
            if (l.tier != static_cast<std::int64_t>(i) || l.degree <= 1)
                continue;
            users += (users.empty() ? "" : ", ") + std::string(l.name);
            t.users.emplace_back(l.name);
            t.bytesPerStep += l.bytes;
            t.busySeconds += l.seconds;
            t.requiredToHide_Bps = std::max(t.requiredToHide_Bps, l.required);
        }
        t.name = "Network tier " + std::to_string(i);
        t.label = t.name + (users.empty() ? " (unused)" : " (" + users + ")");
        t.peak_Bps = sys.networks[i].bandwidth_Bps;
        tiers.push_back(t);
    }
    for (TierUsage &memory : memoryTiers(exe, sys, o, lp))
        tiers.push_back(memory);
    for (TierUsage &t : tiers) {
        t.achieved_Bps = t.busySeconds > 0 ? t.bytesPerStep / t.busySeconds : 0;
        t.busyFraction = o.total_time > 0 ? t.busySeconds / o.total_time : 0;
    }
    return tiers;
}

MemoryUse memoryUse(const Application &app, const Execution &exe, const System &sys, const Stats &o)
{
    const detail::CapacityNeeds need = detail::capacityNeeds(exe, blocksPerProc(app, exe), o);
    MemoryUse m;
    if (o.stage_weight_space > 0) {
        // The corrected model: the fullest pipeline stage, the embedding or LM head included.
        m.tier1 = {{"weights", "Weights", o.stage_weight_space},
                   {"weight_grads", "Weight gradients", o.stage_weight_grad_space},
                   {"optimizer", "Optimizer state", o.stage_optimizer_space},
                   {"activations", "Activations", o.stage_act_space},
                   {"checkpoints", "Activation checkpoints", o.stage_act_checkpoint_size},
                   {"activation_grads", "Activation gradients", o.stage_act_grad_space},
                   {"embedding_head", "Embedding and LM head", o.stage_embedding_head_space}};
        m.tier1Need_B = o.proc_mem_tier1_cap_req;
    } else {
        m.tier1 = {{"weights", "Weights", need.weights.tier1},
                   {"weight_grads", "Weight gradients", need.weightGrads.tier1},
                   {"optimizer", "Optimizer state", need.optimizer.tier1},
                   {"activations", "Activations", need.activations.tier1},
                   {"checkpoints", "Activation checkpoints", need.checkpoints.tier1},
                   {"activation_grads", "Activation gradients", need.activationGrads.tier1}};
        m.tier1Need_B = need.tier1();
    }
    m.tier1Capacity_B = sys.mem1.capacity_B;
    m.tier2Need_B = need.tier2();
    m.tier2Capacity_B = sys.mem2.capacity_B;
    return m;
}

} // namespace

Analysis analyze(const Application &app, const Execution &exe, const System &sys, const Evaluation &evaluation)
{
    const Stats &o = evaluation.stats;
    Analysis a;
    a.step = stepBreakdown(o);
    a.gap = efficiencyGap(app, exe, sys, o);
    a.tiers = tierUsage(app, exe, sys, o);
    a.memory = memoryUse(app, exe, sys, o);
    a.tokensPerSecond = o.sample_rate * static_cast<double>(app.seqSize);
    return a;
}

} // namespace gapstudio::model
