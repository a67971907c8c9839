// The layout block format (preset_blocks.h): strict parse and canonical write.
#include "io/preset_blocks.h"
#include "gapstudio/model/enum_names.h"

#include <array>
#include <string>

namespace gapstudio::io::detail {

scenario::Layout parseLayoutBody(const JsonCursor &c, bool wholeFile)
{
    requireBlockKeys(c, wholeFile, { "tensor_par",          "pipeline_par",         "data_par",
                                     "expert_par",          "expert_slice",         "data_par_exp",
                                     "batch_size",          "microbatch_size",      "datatype",
                                     "tensor_par_net",      "pipeline_par_net",     "data_par_net",
                                     "expert_par_net",      "expert_slice_net",     "data_par_exp_net",
                                     "fused_activation",    "activation_recompute", "pipeline_interleaving",
                                     "optimizer_sharding",  "tensor_par_comm_type", "tensor_par_overlap",
                                     "seq_par_ag_redo",     "data_par_overlap",     "weight_offload",
                                     "activations_offload", "optimizer_offload",    "training" },
                     { "context_par", "context_par_net", "attention_kernel", "first_stage_blocks",
                       "last_stage_blocks", "parameter_sharding", "moe_capacity_factor",
                       "moe_all_to_all_overlap", "moe_dispatcher", "cuda_graph_scope" });
    scenario::Layout layout;
    layout.info = parseInfo(c);
    model::Execution &e = layout.execution;
    e.tensorPar = c["tensor_par"].integerAtLeast(1);
    e.pipelinePar = c["pipeline_par"].integerAtLeast(1);
    e.dataPar = c["data_par"].integerAtLeast(1);
    e.expertPar = c["expert_par"].integerAtLeast(1);
    e.expertSlice = c["expert_slice"].integerAtLeast(1);
    e.dataParExp = c["data_par_exp"].integerAtLeast(1);
    e.batchSize = c["batch_size"].integerAtLeast(1);
    e.microbatchSize = c["microbatch_size"].integerAtLeast(1);
    e.datatype = static_cast<model::Datatype>(
        c["datatype"].oneOf({ "float8", "float16", "bfloat16", "float32", "float4" }));
    e.tensorParNet = c["tensor_par_net"].integerAtLeast(0);
    e.pipelineParNet = c["pipeline_par_net"].integerAtLeast(0);
    e.dataParNet = c["data_par_net"].integerAtLeast(0);
    e.expertParNet = c["expert_par_net"].integerAtLeast(0);
    e.expertSliceNet = c["expert_slice_net"].integerAtLeast(0);
    e.dataParExpNet = c["data_par_exp_net"].integerAtLeast(0);
    e.fusedActivation = c["fused_activation"].boolean();
    e.activationRecompute
        = static_cast<model::Recompute>(c["activation_recompute"].oneOf(model::names::kRecompute));
    e.pipelineInterleaving = c["pipeline_interleaving"].integerAtLeast(1);
    e.optimizerSharding = c["optimizer_sharding"].boolean();
    e.tensorParCommType
        = static_cast<model::TpCommType>(c["tensor_par_comm_type"].oneOf(model::names::kTpCommType));
    e.tensorParOverlap
        = static_cast<model::TpOverlap>(c["tensor_par_overlap"].oneOf(model::names::kTpOverlap));
    e.seqParAgRedo = c["seq_par_ag_redo"].boolean();
    e.dataParOverlap = c["data_par_overlap"].boolean();
    e.weightOffload = c["weight_offload"].boolean();
    e.activationsOffload = c["activations_offload"].boolean();
    e.optimizerOffload = c["optimizer_offload"].boolean();
    e.training = c["training"].boolean();
    // The corrected model's keys (optional; the defaults are the common case of today's runs).
    e.contextPar = c.value().contains("context_par") ? c["context_par"].integerAtLeast(1) : 1;
    e.contextParNet = c.value().contains("context_par_net") ? c["context_par_net"].integerAtLeast(0) : -1;
    e.attentionKernel
        = c.value().contains("attention_kernel")
              ? static_cast<model::AttentionKernel>(c["attention_kernel"].oneOf({ "unfused", "flash" }))
              : model::AttentionKernel::Flash;
    e.firstStageBlocks
        = c.value().contains("first_stage_blocks") ? c["first_stage_blocks"].integerAtLeast(0) : 0;
    e.lastStageBlocks
        = c.value().contains("last_stage_blocks") ? c["last_stage_blocks"].integerAtLeast(0) : 0;
    e.parameterSharding = c.value().contains("parameter_sharding") && c["parameter_sharding"].boolean();
    e.moeCapacityFactor = c.value().contains("moe_capacity_factor")
                              ? numberIn(c["moe_capacity_factor"], 0, true, 64, true)
                              : 0;
    layout.namesMoeAllToAllOverlap = c.value().contains("moe_all_to_all_overlap");
    e.moeAllToAllOverlap = layout.namesMoeAllToAllOverlap && c["moe_all_to_all_overlap"].boolean();
    layout.namesMoeDispatcher = c.value().contains("moe_dispatcher");
    if (layout.namesMoeDispatcher)
        e.moeDispatcher
            = static_cast<model::MoeDispatcher>(c["moe_dispatcher"].oneOf(model::names::kMoeDispatcher));
    layout.namesCudaGraphScopes = c.value().contains("cuda_graph_scope");
    if (layout.namesCudaGraphScopes)
        e.cudaGraphScopes = parseCudaGraphScopes(c["cuda_graph_scope"]);
    return layout;
}

std::uint8_t parseCudaGraphScopes(const JsonCursor &cursor)
{
    const std::size_t count = cursor.requireArray();
    std::uint8_t scopes = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const JsonCursor item = cursor[i];
        const auto bit = static_cast<std::uint8_t>(1U << item.oneOf(model::names::kCudaGraphScope));
        if (scopes & bit) {
            std::string message = "the scope ";
            message += item.string();
            message += " is named twice";
            item.fail(message);
        }
        scopes |= bit;
    }
    return scopes;
}

nlohmann::ordered_json writeCudaGraphScopes(std::uint8_t scopes)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < model::names::kCudaGraphScope.size(); ++i)
        if (scopes & (1U << i))
            list.push_back(model::names::kCudaGraphScope[i]);
    return list;
}

void writeBody(nlohmann::ordered_json &out, const scenario::Layout &layout)
{
    const model::Execution &e = layout.execution;
    out["tensor_par"] = e.tensorPar;
    out["pipeline_par"] = e.pipelinePar;
    out["data_par"] = e.dataPar;
    out["expert_par"] = e.expertPar;
    out["expert_slice"] = e.expertSlice;
    out["data_par_exp"] = e.dataParExp;
    out["batch_size"] = e.batchSize;
    out["microbatch_size"] = e.microbatchSize;
    out["datatype"] = model::datatypeName(e.datatype);
    out["tensor_par_net"] = e.tensorParNet;
    out["pipeline_par_net"] = e.pipelineParNet;
    out["data_par_net"] = e.dataParNet;
    out["expert_par_net"] = e.expertParNet;
    out["expert_slice_net"] = e.expertSliceNet;
    out["data_par_exp_net"] = e.dataParExpNet;
    out["fused_activation"] = e.fusedActivation;
    out["activation_recompute"] = model::names::of(model::names::kRecompute, e.activationRecompute);
    out["pipeline_interleaving"] = e.pipelineInterleaving;
    out["optimizer_sharding"] = e.optimizerSharding;
    out["tensor_par_comm_type"] = model::names::of(model::names::kTpCommType, e.tensorParCommType);
    out["tensor_par_overlap"] = model::names::of(model::names::kTpOverlap, e.tensorParOverlap);
    out["seq_par_ag_redo"] = e.seqParAgRedo;
    out["data_par_overlap"] = e.dataParOverlap;
    out["weight_offload"] = e.weightOffload;
    out["activations_offload"] = e.activationsOffload;
    out["optimizer_offload"] = e.optimizerOffload;
    out["training"] = e.training;
    if (e.contextPar != 1)
        out["context_par"] = e.contextPar;
    if (e.contextParNet >= 0)
        out["context_par_net"] = e.contextParNet;
    if (e.attentionKernel == model::AttentionKernel::Unfused)
        out["attention_kernel"] = "unfused";
    if (e.firstStageBlocks > 0)
        out["first_stage_blocks"] = e.firstStageBlocks;
    if (e.lastStageBlocks > 0)
        out["last_stage_blocks"] = e.lastStageBlocks;
    if (e.parameterSharding)
        out["parameter_sharding"] = true;
    if (e.moeCapacityFactor > 0)
        out["moe_capacity_factor"] = plainNumber(e.moeCapacityFactor);
    if (e.moeAllToAllOverlap || layout.namesMoeAllToAllOverlap)
        out["moe_all_to_all_overlap"] = e.moeAllToAllOverlap;
    if (e.moeDispatcher != model::MoeDispatcher::AllToAll || layout.namesMoeDispatcher)
        out["moe_dispatcher"] = model::names::of(model::names::kMoeDispatcher, e.moeDispatcher);
    if (e.cudaGraphScopes != 0 || layout.namesCudaGraphScopes)
        out["cuda_graph_scope"] = writeCudaGraphScopes(e.cudaGraphScopes);
}

} // namespace gapstudio::io::detail
