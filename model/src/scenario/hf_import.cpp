// Hugging Face config.json -> llm block (hf_import.h). Keys follow transformers' configuration
// classes: LlamaConfig, MixtralConfig, DeepseekV3Config (names as in their config.json files).
#include "gapstudio/scenario/hf_import.h"

#include "gapstudio/io/calculon_json.h"
#include "io/json_cursor.h"

#include <nlohmann/json.hpp>

namespace gapstudio::scenario {

using io::detail::JsonCursor;

namespace {

bool has(const nlohmann::json &config, const char *key)
{
    return config.contains(key) && !config[key].is_null();
}

std::int64_t positive(const JsonCursor &root, const char *key)
{
    return root[key].integerAtLeast(1);
}

/// The sizes every config has: hidden, layers, heads, vocabulary, context and the K/V heads.
void importSizes(const JsonCursor &root, const nlohmann::json &config, Llm &llm,
                 std::vector<std::string> &notes)
{
    llm.hidden = positive(root, "hidden_size");
    llm.numBlocks = positive(root, "num_hidden_layers");
    llm.attnHeads = positive(root, "num_attention_heads");
    llm.vocabSize = positive(root, "vocab_size");
    llm.seqSize = positive(root, "max_position_embeddings");
    notes.push_back("seq_size is max_position_embeddings (" + std::to_string(llm.seqSize)
                    + "), the longest context; pre-training usually used a shorter sequence");

    llm.kvHeads = llm.attnHeads;
    if (has(config, "num_key_value_heads")) {
        llm.kvHeads = root["num_key_value_heads"].integerAtLeast(1);
        if (llm.kvHeads > llm.attnHeads || llm.attnHeads % llm.kvHeads != 0)
            root["num_key_value_heads"].fail(std::to_string(llm.kvHeads)
                                             + " does not divide num_attention_heads = "
                                             + std::to_string(llm.attnHeads));
    }
}

/// The head size: head_dim, else MLA's v_head_dim, else hidden_size / num_attention_heads.
void importHeadSize(const JsonCursor &root, const nlohmann::json &config, Llm &llm,
                    std::vector<std::string> &notes)
{
    // Multi-head latent attention (DeepSeek-V2/V3): low-rank K/V and Q projections.
    const bool mla = has(config, "kv_lora_rank");
    if (has(config, "head_dim")) {
        llm.headSize = positive(root, "head_dim");
    } else if (mla && has(config, "v_head_dim")) {
        llm.headSize = positive(root, "v_head_dim");
    } else {
        if (llm.hidden % llm.attnHeads != 0)
            root["hidden_size"].fail("no head_dim, and hidden_size is not divisible by num_attention_heads");
        llm.headSize = llm.hidden / llm.attnHeads;
    }
    if (mla)
        notes.push_back("multi-head latent attention (kv_lora_rank " + config["kv_lora_rank"].dump()
                        + ") is modelled as multi-head attention with " + std::to_string(llm.attnHeads)
                        + " heads of " + std::to_string(llm.headSize)
                        + "; the low-rank projections and the rope dimensions are not");
}

/// The routed experts (if any) and the MLP width.
void importExperts(const JsonCursor &root, const nlohmann::json &config, Llm &llm)
{
    // Experts: Mixtral's num_local_experts or DeepSeek's n_routed_experts.
    const char *expertsKey = has(config, "num_local_experts")  ? "num_local_experts"
                             : has(config, "n_routed_experts") ? "n_routed_experts"
                                                               : nullptr;
    if (expertsKey) {
        llm.numExperts = positive(root, expertsKey);
        llm.topK = positive(root, "num_experts_per_tok");
        if (llm.topK > llm.numExperts)
            root["num_experts_per_tok"].fail("exceeds " + std::string(expertsKey) + " = "
                                             + std::to_string(llm.numExperts));
    }
    // DeepSeek's group-limited routing: n_group expert groups, top-k within the best of them
    // (topk_method "group_limited_greedy" in DeepSeek-V2, "noaux_tc" in DeepSeek-V3).
    if (llm.isMoe() && has(config, "n_group") && has(config, "topk_method")
        && (config["topk_method"] == "group_limited_greedy" || config["topk_method"] == "noaux_tc")) {
        const std::int64_t groups = positive(root, "n_group");
        if (groups > llm.numExperts)
            root["n_group"].fail("exceeds the " + std::to_string(llm.numExperts) + " routed experts");
        llm.routerGroups = groups > 1 ? groups : 0;
    }
    if (llm.isMoe() && has(config, "moe_intermediate_size"))
        llm.feedforward = positive(root, "moe_intermediate_size");
    else
        llm.feedforward = positive(root, "intermediate_size");
}

/// The MLP activation: SwiGLU or GeLU.
void importActivation(const JsonCursor &root, const nlohmann::json &config, Llm &llm,
                      std::vector<std::string> &notes)
{
    const std::string act = has(config, "hidden_act") ? root["hidden_act"].string() : "gelu";
    if (act == "silu" || act == "swiglu" || act == "swish") {
        llm.activation = model::ActivationFunction::Silu;
        if (!llm.isMoe())
            notes.push_back(
                "SwiGLU MLP of a dense model: modelled with its gate matrix by the corrected model; "
                "the reference models (--reference-quirks) use a GeLU MLP");
    } else if (act.rfind("gelu", 0) == 0) {
        llm.activation = model::ActivationFunction::Gelu;
    } else {
        root["hidden_act"].fail("unsupported activation \"" + act + "\" (expected silu or gelu)");
    }
    if (!has(config, "hidden_act"))
        notes.push_back("no hidden_act: GeLU assumed");
}

/// The dropout probabilities the config states (attention_dropout; hidden_dropout where the
/// architecture has one); an unstated one is counted as the reference models do.
void importDropout(const JsonCursor &root, const nlohmann::json &config, Llm &llm,
                   std::vector<std::string> &notes)
{
    if (has(config, "attention_dropout"))
        llm.attentionDropout = io::detail::numberInRange(root["attention_dropout"], model::limits::kDropout);
    if (has(config, "hidden_dropout"))
        llm.hiddenDropout = io::detail::numberInRange(root["hidden_dropout"], model::limits::kDropout);
    else
        notes.push_back(
            "no hidden_dropout: the dropout after attention and MLP is counted (set hidden_dropout "
            "to 0 if the architecture has none)");
}

/// What the imported preset leaves out of the original architecture.
void noteWhatIsNotModelled(const nlohmann::json &config, std::vector<std::string> &notes)
{
    if (has(config, "n_shared_experts") && config["n_shared_experts"].is_number_integer()
        && config["n_shared_experts"].get<std::int64_t>() > 0)
        notes.push_back(config["n_shared_experts"].dump()
                        + " shared expert(s) per MoE layer are not modelled");
    if (has(config, "first_k_dense_replace") && config["first_k_dense_replace"].is_number_integer()
        && config["first_k_dense_replace"].get<std::int64_t>() > 0)
        notes.push_back("the first " + config["first_k_dense_replace"].dump()
                        + " layers are dense in the original; all layers are modelled as MoE layers");
    if (has(config, "moe_layer_freq") && config["moe_layer_freq"] != 1)
        notes.push_back("moe_layer_freq " + config["moe_layer_freq"].dump()
                        + ": every layer is modelled as an MoE layer");
    if (has(config, "num_nextn_predict_layers") && config["num_nextn_predict_layers"] != 0)
        notes.push_back("multi-token-prediction modules are not modelled");
    if (has(config, "sliding_window"))
        notes.push_back("sliding-window attention (" + config["sliding_window"].dump()
                        + ") is modelled as full attention");
    if (has(config, "q_lora_rank"))
        notes.push_back("the low-rank query projection (q_lora_rank " + config["q_lora_rank"].dump()
                        + ") is modelled as a full projection");
    notes.push_back(
        "embeddings and the output layer are not part of the time model (vocab_size is for counts)");
}

} // namespace

HfImport importHuggingFaceConfig(const nlohmann::json &config, const std::string &file, const std::string &id,
                                 const std::string &name)
{
    const JsonCursor root(config, file);
    root.requireObject();
    HfImport out;
    std::vector<std::string> &notes = out.approximations;
    Llm &llm = out.llm;
    llm.info
        = { id, name, "Imported from Hugging Face config.json (" + file + ") by gapstudio-cli import-hf" };
    importSizes(root, config, llm, notes);
    importHeadSize(root, config, llm, notes);
    importExperts(root, config, llm);
    importActivation(root, config, llm, notes);
    importDropout(root, config, llm, notes);
    noteWhatIsNotModelled(config, notes);
    return out;
}

} // namespace gapstudio::scenario
