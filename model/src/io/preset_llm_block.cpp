// The llm block format (preset_blocks.h): strict parse and canonical write.
#include "io/preset_blocks.h"

#include <string>

namespace gapstudio::io::detail {

scenario::Llm parseLlmBody(const JsonCursor &c, bool wholeFile)
{
    requireBlockKeys(c, wholeFile,
                     { "hidden", "feedforward", "seq_size", "attn_heads", "head_size", "kv_heads",
                       "num_blocks", "vocab_size", "num_experts", "top_k", "activation" },
                     { "tied_embeddings", "shared_experts", "shared_expert_feedforward", "router_groups",
                       "dense_blocks", "dense_feedforward", "dense_block_pattern", "latent_attention",
                       "sliding_window", "sliding_window_blocks", "mtp_layers", "attention_dropout",
                       "hidden_dropout" });
    scenario::Llm llm;
    llm.info = parseInfo(c);
    llm.hidden = c["hidden"].integerAtLeast(1);
    llm.feedforward = c["feedforward"].integerAtLeast(1);
    llm.seqSize = c["seq_size"].integerAtLeast(1);
    llm.attnHeads = c["attn_heads"].integerAtLeast(1);
    llm.headSize = c["head_size"].integerAtLeast(1);
    llm.kvHeads = c["kv_heads"].integerAtLeast(1);
    if (llm.kvHeads > llm.attnHeads || llm.attnHeads % llm.kvHeads != 0)
        c["kv_heads"].fail(std::to_string(llm.kvHeads)
                           + " key/value heads do not divide attn_heads = " + std::to_string(llm.attnHeads));
    llm.numBlocks = c["num_blocks"].integerAtLeast(1);
    llm.vocabSize = c["vocab_size"].integerAtLeast(1);
    llm.numExperts = c["num_experts"].integerAtLeast(1);
    llm.topK = c["top_k"].integerAtLeast(1);
    if (llm.topK > llm.numExperts)
        c["top_k"].fail(std::to_string(llm.topK)
                        + " exceeds num_experts = " + std::to_string(llm.numExperts));
    llm.activation = static_cast<model::ActivationFunction>(c["activation"].oneOf({ "gelu", "swiglu" }));
    const auto optionalInteger = [&](const char *key, std::int64_t &out) {
        if (c.value().contains(key))
            out = c[key].integerAtLeast(0);
    };
    if (c.value().contains("tied_embeddings"))
        llm.tiedEmbeddings = c["tied_embeddings"].boolean();
    optionalInteger("shared_experts", llm.sharedExperts);
    optionalInteger("shared_expert_feedforward", llm.sharedExpertFeedforward);
    optionalInteger("router_groups", llm.routerGroups);
    if (llm.routerGroups > llm.numExperts)
        c["router_groups"].fail(std::to_string(llm.routerGroups)
                                + " groups exceed num_experts = " + std::to_string(llm.numExperts));
    optionalInteger("dense_blocks", llm.denseBlocks);
    optionalInteger("dense_feedforward", llm.denseFeedforward);
    if (c.value().contains("dense_block_pattern"))
        llm.denseBlocksInterleaved = c["dense_block_pattern"].oneOf({ "leading", "interleaved" }) == 1;
    if (llm.denseBlocks > llm.numBlocks)
        c["dense_blocks"].fail(std::to_string(llm.denseBlocks)
                               + " exceeds num_blocks = " + std::to_string(llm.numBlocks));
    if (c.value().contains("latent_attention")) {
        const JsonCursor mla = c["latent_attention"];
        requireKeys(mla, { "q_lora_rank", "kv_lora_rank", "rope_head_size", "value_head_size" });
        llm.qLoraRank = mla["q_lora_rank"].integerAtLeast(0);
        llm.kvLoraRank = mla["kv_lora_rank"].integerAtLeast(1);
        llm.ropeHeadSize = mla["rope_head_size"].integerAtLeast(0);
        llm.valueHeadSize = mla["value_head_size"].integerAtLeast(1);
    }
    optionalInteger("sliding_window", llm.slidingWindow);
    optionalInteger("sliding_window_blocks", llm.slidingWindowBlocks);
    optionalInteger("mtp_layers", llm.mtpLayers);
    if (llm.mtpLayers > llm.numBlocks)
        c["mtp_layers"].fail(std::to_string(llm.mtpLayers)
                             + " exceeds num_blocks = " + std::to_string(llm.numBlocks));
    const auto optionalProbability = [&](const char *key, double &out) {
        if (c.value().contains(key))
            out = numberInRange(c[key], model::limits::kDropout);
    };
    optionalProbability("attention_dropout", llm.attentionDropout);
    optionalProbability("hidden_dropout", llm.hiddenDropout);
    return llm;
}

void writeBody(nlohmann::ordered_json &out, const scenario::Llm &llm)
{
    out["hidden"] = llm.hidden;
    out["feedforward"] = llm.feedforward;
    out["seq_size"] = llm.seqSize;
    out["attn_heads"] = llm.attnHeads;
    out["head_size"] = llm.headSize;
    out["kv_heads"] = llm.kvHeads;
    out["num_blocks"] = llm.numBlocks;
    out["vocab_size"] = llm.vocabSize;
    out["num_experts"] = llm.numExperts;
    out["top_k"] = llm.topK;
    out["activation"] = llm.activation == model::ActivationFunction::Silu ? "swiglu" : "gelu";
    if (llm.tiedEmbeddings)
        out["tied_embeddings"] = true;
    const auto optionalInteger = [&](const char *key, std::int64_t value) {
        if (value != 0)
            out[key] = value;
    };
    optionalInteger("shared_experts", llm.sharedExperts);
    optionalInteger("shared_expert_feedforward", llm.sharedExpertFeedforward);
    optionalInteger("router_groups", llm.routerGroups);
    optionalInteger("dense_blocks", llm.denseBlocks);
    optionalInteger("dense_feedforward", llm.denseFeedforward);
    if (llm.denseBlocksInterleaved)
        out["dense_block_pattern"] = "interleaved";
    if (llm.kvLoraRank > 0)
        out["latent_attention"] = { { "q_lora_rank", llm.qLoraRank },
                                    { "kv_lora_rank", llm.kvLoraRank },
                                    { "rope_head_size", llm.ropeHeadSize },
                                    { "value_head_size", llm.valueHeadSize } };
    optionalInteger("sliding_window", llm.slidingWindow);
    optionalInteger("sliding_window_blocks", llm.slidingWindowBlocks);
    optionalInteger("mtp_layers", llm.mtpLayers);
    if (llm.attentionDropout >= 0)
        out["attention_dropout"] = llm.attentionDropout;
    if (llm.hiddenDropout >= 0)
        out["hidden_dropout"] = llm.hiddenDropout;
}

} // namespace gapstudio::io::detail
