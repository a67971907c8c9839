// The block formats of GapStudio's JSON files (preset_json.h): strict parse and canonical write.
// Units: the JSON keys name them; the factors below are the only conversions, and they are the
// same multiplications as the reference readers' (io/calculon_json.cpp), so a preset holding a
// reference system's numbers yields bit-identical SI values.
#include "scenario/preset_blocks.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace gapstudio::io::detail {

namespace {

using scenario::BlockInfo;

// ---- Units ------------------------------------------------------------------------------------
constexpr double kFlopsPerTflops = 1e12;
constexpr double kFlopsPerGflop = 1e9;
constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kBytesPerMB = 1e6;
constexpr double kBpsPerGBps = 1e9;
constexpr double kUsPerSecond = 1e6; // latency_us / 1e6 (a division, so "10" gives exactly 1e-05)

double toSi(double value, double factor, bool divide)
{
    return divide ? value / factor : value * factor;
}

// -----------------------------------------------------------------------------------------------



template <std::size_t N>
std::vector<std::string_view> keyList(const std::array<std::string_view, N> &header,
                                      std::initializer_list<std::string_view> body)
{
    std::vector<std::string_view> keys(header.begin(), header.end());
    keys.insert(keys.end(), body);
    return keys;
}

void requireKeyList(const JsonCursor &cursor, const std::vector<std::string_view> &required,
                    const std::vector<std::string_view> &optional = {})
{
    cursor.requireObject();
    for (std::string_view key : required)
        if (!cursor.value().contains(key))
            cursor.fail("missing key \"" + std::string(key) + "\"");
    for (const auto &item : cursor.value().items()) {
        bool known = false;
        for (const auto *list : { &required, &optional })
            for (std::string_view key : *list)
                known = known || item.key() == key;
        if (!known)
            cursor[item.key()].fail("unknown key \"" + item.key() + "\"");
    }
}


model::EfficiencyTable parseTable(const JsonCursor &cursor, double unit)
{
    return detail::parseEfficiencyTable(cursor, unit);
}

nlohmann::ordered_json writeTable(const model::EfficiencyTable &table, double unit)
{
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto &[threshold, efficiency] : table.rows)
        rows.push_back({ unitNumber(threshold, unit), plainNumber(efficiency) });
    return rows;
}

void parsePeaks(const JsonCursor &cursor, std::array<std::optional<double>, model::kDatatypeCount> &out)
{
    cursor.requireObject();
    for (const auto &item : cursor.value().items()) {
        const JsonCursor entry = cursor[item.key()];
        std::optional<model::Datatype> type;
        for (const auto &[key, datatype] : kDatatypeKeys)
            if (item.key() == key)
                type = datatype;
        if (!type)
            entry.fail("unknown datatype \"" + item.key() + "\" (expected fp32, bf16, fp16, fp8 or fp4)");
        out[static_cast<std::size_t>(*type)] = numberIn(entry, 0, true) * kFlopsPerTflops;
    }
}

nlohmann::ordered_json writePeaks(const std::array<std::optional<double>, model::kDatatypeCount> &peaks)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto &[key, datatype] : kDatatypeKeys)
        if (const auto &peak = peaks[static_cast<std::size_t>(datatype)])
            out[key] = unitNumber(*peak, kFlopsPerTflops);
    return out;
}

model::MemoryTier parseMemory(const JsonCursor &cursor, bool optionalCapacity)
{
    requireKeyList(cursor, { "capacity_GiB", "bandwidth_GBps", "efficiency_by_MB" });
    model::MemoryTier tier;
    tier.capacity_B = numberIn(cursor["capacity_GiB"], 0, optionalCapacity) * kBytesPerGiB;
    tier.bandwidth_Bps = numberIn(cursor["bandwidth_GBps"], 0, optionalCapacity) * kBpsPerGBps;
    tier.efficiency = parseTable(cursor["efficiency_by_MB"], kBytesPerMB);
    return tier;
}

nlohmann::ordered_json writeMemory(const model::MemoryTier &tier)
{
    nlohmann::ordered_json out;
    out["capacity_GiB"] = unitNumber(tier.capacity_B, kBytesPerGiB);
    out["bandwidth_GBps"] = unitNumber(tier.bandwidth_Bps, kBpsPerGBps);
    out["efficiency_by_MB"] = writeTable(tier.efficiency, kBytesPerMB);
    return out;
}

/// The collective scalars an interconnect has when its file does not list them (calculon-model.md
/// §4.1): in-network reduction (NVLS/SHARP) = [1, 0] for RS/AG and [1, 1] for all-reduce; else the
/// ring algorithms, [1, -1] and [2, -1].
struct Collectives {
    model::NetworkOp reduceScatter, allGather, allReduce;
};
Collectives defaultCollectives(bool inNetworkReduction)
{
    if (inNetworkReduction)
        return { { 1, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 } };
    return { { 1, -1, 0 }, { 1, -1, 0 }, { 2, -1, 0 } };
}

bool sameOp(const model::NetworkOp &a, const model::NetworkOp &b)
{
    return a.scalar == b.scalar && a.offset == b.offset && a.efficiency == b.efficiency;
}

model::NetworkOp parseCollective(const JsonCursor &cursor)
{
    cursor.requireArray(2);
    return model::NetworkOp { numberIn(cursor[std::size_t { 0 }], 0, false), cursor[1].number(), 0 };
}

} // namespace

/// The shortest decimal that converts back to `si` exactly, so that saving a loaded file
/// reproduces the numbers as they were written.
nlohmann::ordered_json unitNumber(double si, double factor, bool divide)
{
    const double candidate = divide ? si * factor : si / factor;
    for (int precision = 1; precision <= 17; ++precision) {
        char text[40];
        std::snprintf(text, sizeof text, "%.*g", precision, candidate);
        const double value = std::strtod(text, nullptr);
        if (toSi(value, factor, divide) == si)
            return plainNumber(value);
    }
    return plainNumber(candidate);
}

double numberIn(const JsonCursor &cursor, double low, bool lowIncluded, double high, bool highIncluded)
{
    return detail::numberInRange(cursor, low, lowIncluded, high, highIncluded);
}

void requireBlockKeys(const JsonCursor &cursor, bool wholeFile, std::initializer_list<std::string_view> body,
                      std::initializer_list<std::string_view> optional)
{
    requireKeyList(cursor, wholeFile ? keyList(kFileHeader, body) : keyList(kInlineHeader, body), optional);
}

void requireKeys(const JsonCursor &cursor, std::initializer_list<std::string_view> required,
                 std::initializer_list<std::string_view> optional)
{
    requireKeyList(cursor, std::vector<std::string_view>(required), std::vector<std::string_view>(optional));
}

nlohmann::ordered_json plainNumber(double value)
{
    if (std::trunc(value) == value && std::fabs(value) < 9007199254740992.0)
        return static_cast<std::int64_t>(value);
    return value;
}

BlockInfo parseInfo(const JsonCursor &cursor)
{
    BlockInfo info;
    info.id = cursor["id"].string();
    if (info.id.empty())
        cursor["id"].fail("expected a non-empty id");
    info.name = cursor["name"].string();
    info.source = cursor["source"].string();
    return info;
}

BlockInfo parseFixedVersionHeader(const JsonCursor &c, std::string_view fileType, std::int64_t version)
{
    const std::string type = c["fileType"].string();
    if (type != fileType)
        c["fileType"].fail("expected \"" + std::string(fileType) + "\", got \"" + type + "\"");
    const std::int64_t actual = c["version"].integer();
    if (actual != version)
        c["version"].fail("File version " + std::to_string(actual) + " is not supported (expected "
                          + std::to_string(version) + ")");
    return parseInfo(c);
}

void writeInfo(nlohmann::ordered_json &out, const BlockInfo &info)
{
    out["id"] = info.id;
    out["name"] = info.name;
    out["source"] = info.source;
}

// ---- gpu --------------------------------------------------------------------------------------
scenario::Gpu parseGpuBody(const JsonCursor &c, bool wholeFile)
{
    requireBlockKeys(c, wholeFile,
                     { "matrix_tflops", "vector_tflops", "matrix_efficiency_by_GFLOP",
                       "vector_efficiency_by_GFLOP", "hbm", "tier2", "board_power_W" },
                     { "price_USD", "architecture", "sm_count", "gemm_tile", "cost" });
    scenario::Gpu gpu;
    gpu.info = parseInfo(c);
    parsePeaks(c["matrix_tflops"], gpu.matrixPeak_flops);
    parsePeaks(c["vector_tflops"], gpu.vectorPeak_flops);
    gpu.matrixEfficiency = parseTable(c["matrix_efficiency_by_GFLOP"], kFlopsPerGflop);
    gpu.vectorEfficiency = parseTable(c["vector_efficiency_by_GFLOP"], kFlopsPerGflop);
    gpu.hbm = parseMemory(c["hbm"], false);
    gpu.tier2 = parseMemory(c["tier2"], true); // capacity 0 = no tier-2 memory
    gpu.boardPower_W = numberIn(c["board_power_W"], 0, true);
    if (c.value().contains("price_USD"))
        gpu.price_USD = numberIn(c["price_USD"], 0, true);
    if (c.value().contains("architecture"))
        gpu.architecture = c["architecture"].string();
    if (c.value().contains("sm_count"))
        gpu.smCount = c["sm_count"].integerAtLeast(1);
    if (c.value().contains("gemm_tile")) {
        const JsonCursor tile = c["gemm_tile"];
        tile.requireArray(2);
        gpu.gemmTileM = tile[std::size_t { 0 }].integerAtLeast(1);
        gpu.gemmTileN = tile[1].integerAtLeast(1);
    }
    parseGpuCost(c, gpu);
    return gpu;
}

void writeBody(nlohmann::ordered_json &out, const scenario::Gpu &gpu)
{
    out["matrix_tflops"] = writePeaks(gpu.matrixPeak_flops);
    out["vector_tflops"] = writePeaks(gpu.vectorPeak_flops);
    out["matrix_efficiency_by_GFLOP"] = writeTable(gpu.matrixEfficiency, kFlopsPerGflop);
    out["vector_efficiency_by_GFLOP"] = writeTable(gpu.vectorEfficiency, kFlopsPerGflop);
    out["hbm"] = writeMemory(gpu.hbm);
    out["tier2"] = writeMemory(gpu.tier2);
    out["board_power_W"] = plainNumber(gpu.boardPower_W);
    if (gpu.price_USD && !gpu.cost)
        out["price_USD"] = plainNumber(*gpu.price_USD);
    if (!gpu.architecture.empty())
        out["architecture"] = gpu.architecture;
    if (gpu.smCount > 0)
        out["sm_count"] = gpu.smCount;
    if (gpu.gemmTileM > 0)
        out["gemm_tile"] = { gpu.gemmTileM, gpu.gemmTileN };
    writeGpuCost(out, gpu);
}

// ---- interconnect -----------------------------------------------------------------------------
scenario::Interconnect parseInterconnectBody(const JsonCursor &c, bool wholeFile)
{
    requireBlockKeys(c, wholeFile,
                     { "bandwidth_GBps", "latency_us", "efficiency", "all_to_all_efficiency",
                       "in_network_reduction", "processor_usage", "max_domain_size" },
                     { "collectives", "cost" });
    scenario::Interconnect link;
    link.info = parseInfo(c);
    link.bandwidth_Bps = numberIn(c["bandwidth_GBps"], 0, false) * kBpsPerGBps;
    link.latency_s = numberIn(c["latency_us"], 0, true) / kUsPerSecond;
    link.efficiency = numberIn(c["efficiency"], 0, false, 1, true);
    link.allToAllEfficiency = numberIn(c["all_to_all_efficiency"], 0, true, 1, true);
    link.inNetworkReduction = c["in_network_reduction"].boolean();
    const Collectives defaults = defaultCollectives(link.inNetworkReduction);
    link.reduceScatter = defaults.reduceScatter;
    link.allGather = defaults.allGather;
    link.allReduce = defaults.allReduce;
    if (c.value().contains("collectives")) {
        const JsonCursor ops = c["collectives"];
        requireKeys(ops, { "reduce_scatter", "all_gather", "all_reduce" });
        link.reduceScatter = parseCollective(ops["reduce_scatter"]);
        link.allGather = parseCollective(ops["all_gather"]);
        link.allReduce = parseCollective(ops["all_reduce"]);
    }
    link.processorUsage = numberIn(c["processor_usage"], 0, true, 1, false);
    link.maxDomainSize = c["max_domain_size"].integerAtLeast(0);
    parseLinkCost(c, link);
    return link;
}

void writeBody(nlohmann::ordered_json &out, const scenario::Interconnect &link)
{
    out["bandwidth_GBps"] = unitNumber(link.bandwidth_Bps, kBpsPerGBps);
    out["latency_us"] = unitNumber(link.latency_s, kUsPerSecond, true);
    out["efficiency"] = plainNumber(link.efficiency);
    out["all_to_all_efficiency"] = plainNumber(link.allToAllEfficiency);
    out["in_network_reduction"] = link.inNetworkReduction;
    // The scalars are written only where they differ from what in_network_reduction implies.
    const Collectives defaults = defaultCollectives(link.inNetworkReduction);
    if (!sameOp(link.reduceScatter, defaults.reduceScatter) || !sameOp(link.allGather, defaults.allGather)
        || !sameOp(link.allReduce, defaults.allReduce)) {
        nlohmann::ordered_json ops;
        for (const auto &[key, op] :
             { std::pair { "reduce_scatter", &link.reduceScatter },
               std::pair { "all_gather", &link.allGather }, std::pair { "all_reduce", &link.allReduce } })
            ops[key] = { plainNumber(op->scalar), plainNumber(op->offset) };
        out["collectives"] = ops;
    }
    out["processor_usage"] = plainNumber(link.processorUsage);
    out["max_domain_size"] = link.maxDomainSize;
    writeLinkCost(out, link);
}

// ---- topology ---------------------------------------------------------------------------------
namespace {
constexpr std::array<const char *, 3> kTopologyKinds = { "two-tier", "full-flat", "three-tier" };
}

scenario::Topology parseTopologyBody(const JsonCursor &c, bool wholeFile)
{
    c.requireObject();
    scenario::Topology topology;
    const auto kind
        = static_cast<scenario::TopologyKind>(c["kind"].oneOf({ "two-tier", "full-flat", "three-tier" }));
    if (kind == scenario::TopologyKind::ThreeTier)
        requireBlockKeys(c, wholeFile,
                         { "kind", "scale_up_domain_size", "scale_up_must_be_filled", "leaf_size",
                           "spine_oversubscription" });
    else
        requireBlockKeys(c, wholeFile, { "kind", "scale_up_domain_size", "scale_up_must_be_filled" });
    topology.info = parseInfo(c);
    topology.kind = kind;
    topology.scaleUpDomainSize = c["scale_up_domain_size"].integerAtLeast(1);
    topology.scaleUpMustBeFilled = c["scale_up_must_be_filled"].boolean();
    if (kind == scenario::TopologyKind::ThreeTier) {
        topology.leafSize = c["leaf_size"].integerAtLeast(1);
        topology.oversubscription = numberIn(c["spine_oversubscription"], 1, true);
    }
    return topology;
}

void writeBody(nlohmann::ordered_json &out, const scenario::Topology &topology)
{
    out["kind"] = kTopologyKinds[static_cast<std::size_t>(topology.kind)];
    out["scale_up_domain_size"] = topology.scaleUpDomainSize;
    out["scale_up_must_be_filled"] = topology.scaleUpMustBeFilled;
    if (topology.kind == scenario::TopologyKind::ThreeTier) {
        out["leaf_size"] = topology.leafSize;
        out["spine_oversubscription"] = plainNumber(topology.oversubscription);
    }
}

// ---- llm --------------------------------------------------------------------------------------
scenario::Llm parseLlmBody(const JsonCursor &c, bool wholeFile)
{
    requireBlockKeys(c, wholeFile,
                     { "hidden", "feedforward", "seq_size", "attn_heads", "head_size", "kv_heads",
                       "num_blocks", "vocab_size", "num_experts", "top_k", "activation" },
                     { "tied_embeddings", "shared_experts", "shared_expert_feedforward", "dense_blocks",
                       "dense_feedforward", "dense_block_pattern", "latent_attention", "sliding_window",
                       "sliding_window_blocks", "mtp_layers" });
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
    optionalInteger("dense_blocks", llm.denseBlocks);
    optionalInteger("dense_feedforward", llm.denseFeedforward);
    if (c.value().contains("dense_block_pattern"))
        llm.denseBlocksInterleaved = c["dense_block_pattern"].oneOf({ "leading", "interleaved" }) == 1;
    if (llm.denseBlocks > llm.numBlocks)
        c["dense_blocks"].fail(std::to_string(llm.denseBlocks) + " exceeds num_blocks = "
                               + std::to_string(llm.numBlocks));
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
}

// ---- layout -----------------------------------------------------------------------------------
namespace {
constexpr std::array<const char *, 5> kDatatypeNames
    = { "float8", "float16", "bfloat16", "float32", "float4" };
constexpr std::array<const char *, 3> kRecompute = { "none", "attn_only", "full" };
constexpr std::array<const char *, 3> kTpComm = { "ar", "p2p_rs_ag", "rs_ag" };
constexpr std::array<const char *, 3> kTpOverlap = { "none", "ring", "pipe" };
} // namespace

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
                      "last_stage_blocks", "parameter_sharding", "moe_capacity_factor", "moe_all_to_all_overlap",
                      "moe_dispatcher" });
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
        = static_cast<model::Recompute>(c["activation_recompute"].oneOf({ "none", "attn_only", "full" }));
    e.pipelineInterleaving = c["pipeline_interleaving"].integerAtLeast(1);
    e.optimizerSharding = c["optimizer_sharding"].boolean();
    e.tensorParCommType
        = static_cast<model::TpCommType>(c["tensor_par_comm_type"].oneOf({ "ar", "p2p_rs_ag", "rs_ag" }));
    e.tensorParOverlap
        = static_cast<model::TpOverlap>(c["tensor_par_overlap"].oneOf({ "none", "ring", "pipe" }));
    e.seqParAgRedo = c["seq_par_ag_redo"].boolean();
    e.dataParOverlap = c["data_par_overlap"].boolean();
    e.weightOffload = c["weight_offload"].boolean();
    e.activationsOffload = c["activations_offload"].boolean();
    e.optimizerOffload = c["optimizer_offload"].boolean();
    e.training = c["training"].boolean();
    // The corrected model's keys (optional; the defaults are the common case of today's runs).
    e.contextPar = c.value().contains("context_par") ? c["context_par"].integerAtLeast(1) : 1;
    e.contextParNet = c.value().contains("context_par_net") ? c["context_par_net"].integerAtLeast(0) : -1;
    e.attentionKernel = c.value().contains("attention_kernel")
                            ? static_cast<model::AttentionKernel>(c["attention_kernel"].oneOf({ "unfused", "flash" }))
                            : model::AttentionKernel::Flash;
    e.firstStageBlocks = c.value().contains("first_stage_blocks") ? c["first_stage_blocks"].integerAtLeast(0) : 0;
    e.lastStageBlocks = c.value().contains("last_stage_blocks") ? c["last_stage_blocks"].integerAtLeast(0) : 0;
    e.parameterSharding = c.value().contains("parameter_sharding") && c["parameter_sharding"].boolean();
    e.moeCapacityFactor = c.value().contains("moe_capacity_factor") ? numberIn(c["moe_capacity_factor"], 0, true, 64, true) : 0;
    e.moeAllToAllOverlap = c.value().contains("moe_all_to_all_overlap") && c["moe_all_to_all_overlap"].boolean();
    if (c.value().contains("moe_dispatcher"))
        e.moeDispatcher = static_cast<model::MoeDispatcher>(c["moe_dispatcher"].oneOf({ "alltoall", "flex" }));
    return layout;
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
    out["datatype"] = kDatatypeNames[static_cast<std::size_t>(e.datatype)];
    out["tensor_par_net"] = e.tensorParNet;
    out["pipeline_par_net"] = e.pipelineParNet;
    out["data_par_net"] = e.dataParNet;
    out["expert_par_net"] = e.expertParNet;
    out["expert_slice_net"] = e.expertSliceNet;
    out["data_par_exp_net"] = e.dataParExpNet;
    out["fused_activation"] = e.fusedActivation;
    out["activation_recompute"] = kRecompute[static_cast<std::size_t>(e.activationRecompute)];
    out["pipeline_interleaving"] = e.pipelineInterleaving;
    out["optimizer_sharding"] = e.optimizerSharding;
    out["tensor_par_comm_type"] = kTpComm[static_cast<std::size_t>(e.tensorParCommType)];
    out["tensor_par_overlap"] = kTpOverlap[static_cast<std::size_t>(e.tensorParOverlap)];
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
    if (e.moeAllToAllOverlap)
        out["moe_all_to_all_overlap"] = true;
    if (e.moeDispatcher == model::MoeDispatcher::Flex)
        out["moe_dispatcher"] = "flex";
}

} // namespace gapstudio::io::detail
