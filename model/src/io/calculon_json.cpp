// Strict readers for the reference model's three inputs (calculon-model.md §1, rules of §2).
// Units become SI here and nowhere else (see the "Units" block below).
#include "gapstudio/io/calculon_json.h"

#include "gapstudio/model/evaluate.h"
#include "io/json_cursor.h"
#include "gapstudio/model/units.h"
#include "gapstudio/model/enum_names.h"

#include <nlohmann/json.hpp>

#include <array>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace gapstudio::io {

using detail::JsonCursor;

namespace {

// ---- Units: the only place where the reference's JSON units become SI ----------------------
// calculon/processor.py, memory.py, network.py at caa4b11: tflops * 1e12, GiB * 1024^3,
// GBps * 1e9, network bandwidth * 1e9. Efficiency thresholds are given in GFLOP and MB; the
// reference compares the op size scaled down to those units, we scale the threshold up once
// (detail::parseEfficiencyTable).
using units::kFlopsPerTflops;
using units::kFlopsPerGflop;
using units::kBytesPerGiB;
using units::kBpsPerGBps;
using units::kBytesPerMB;

// ---------------------------------------------------------------------------------------------

using detail::formatNumber;
using detail::numberInRange;
using detail::parseEfficiencyTable;

/// "\"float8\", \"float16\", ..." from the model's own list, so new datatypes need no change here.
std::string datatypeList()
{
    std::string list;
    for (std::size_t i = 0; i < model::kDatatypeCount; ++i)
        list += (i == 0 ? "\"" : ", \"") + std::string(model::datatypeName(static_cast<model::Datatype>(i))) + "\"";
    return list;
}

model::MemoryTier parseMemory(const JsonCursor &cursor, bool optional)
{
    cursor.requireExactKeys({"GiB", "GBps", "MB_efficiency"});
    model::MemoryTier tier;
    // limits.h: tier 2 may have no capacity (no offloading) and then no bandwidth either.
    using namespace model::limits;
    tier.capacity_B
        = numberInRange(cursor["GiB"], (optional ? kOptionalCapacity : kCapacity).in(kBytesPerGiB))
          * kBytesPerGiB;
    tier.bandwidth_Bps
        = numberInRange(cursor["GBps"], (optional ? kOptionalBandwidth : kBandwidth).in(kBpsPerGBps))
          * kBpsPerGBps;
    tier.efficiency = parseEfficiencyTable(cursor["MB_efficiency"], kBytesPerMB);
    return tier;
}

void parseEngines(const JsonCursor &cursor, std::array<std::optional<model::ComputeEngine>, model::kDatatypeCount> &out)
{
    cursor.requireObject();
    for (const auto &item : cursor.value().items()) {
        const JsonCursor entry = cursor[item.key()];
        const auto type = model::datatypeFromName(item.key());
        if (!type)
            entry.fail("unknown datatype (expected one of " + datatypeList() + ")");
        entry.requireExactKeys({"tflops", "gflops_efficiency"});
        model::ComputeEngine engine;
        engine.peak_flops
            = numberInRange(entry["tflops"], model::limits::kPeakFlops.in(kFlopsPerTflops)) * kFlopsPerTflops;
        engine.efficiency = parseEfficiencyTable(entry["gflops_efficiency"], kFlopsPerGflop);
        out[static_cast<std::size_t>(*type)] = std::move(engine);
    }
}

/// [scalar, offset] for a collective; [scalar, null] for a point-to-point op (p2p, all_to_all),
/// which calculon-MoE lets carry a third value, its own efficiency replacing the tier's.
model::NetworkOp parseOp(const JsonCursor &cursor, bool isP2p)
{
    const std::size_t size = cursor.requireArray();
    if (size != 2 && !(isP2p && size == 3))
        cursor.fail(isP2p ? "expected [scalar, null] or [scalar, null, efficiency]" : "expected [scalar, offset]");
    model::NetworkOp op;
    op.scalar = numberInRange(cursor[std::size_t { 0 }], model::limits::kCollectiveScalar);
    if (isP2p) {
        cursor[1].requireNull();
        op.offset = 0;
        if (size == 3)
            op.efficiency = numberInRange(cursor[2], model::limits::kEfficiency);
    } else {
        op.offset = numberInRange(cursor[1], model::limits::kCollectiveOffset);
    }
    return op;
}

model::NetworkTier parseNetwork(const JsonCursor &cursor)
{
    cursor.requireExactKeys(
        {"bandwidth", "efficiency", "size", "latency", "ops", "must_be_filled", "processor_usage"});
    model::NetworkTier tier;
    tier.bandwidth_Bps
        = numberInRange(cursor["bandwidth"], model::limits::kBandwidth.in(kBpsPerGBps)) * kBpsPerGBps;
    tier.efficiency = numberInRange(cursor["efficiency"], model::limits::kEfficiency);
    tier.size = cursor["size"].integerAtLeast(1);
    tier.latency_s = numberInRange(cursor["latency"], model::limits::kLatency);
    const JsonCursor ops = cursor["ops"];
    // calculon-MoE system files add the all-to-all of expert parallelism.
    if (ops.value().is_object() && ops.value().contains("all_to_all")) {
        ops.requireExactKeys({"p2p", "reduce_scatter", "all_gather", "all_reduce", "all_to_all"});
        tier.allToAll = parseOp(ops["all_to_all"], true);
    } else {
        ops.requireExactKeys({"p2p", "reduce_scatter", "all_gather", "all_reduce"});
    }
    tier.p2p = parseOp(ops["p2p"], true);
    tier.reduceScatter = parseOp(ops["reduce_scatter"], false);
    tier.allGather = parseOp(ops["all_gather"], false);
    tier.allReduce = parseOp(ops["all_reduce"], false);
    tier.mustBeFilled = cursor["must_be_filled"].boolean();
    tier.processorUsage = numberInRange(cursor["processor_usage"], model::limits::kProcessorUsage);
    return tier;
}

/// The rules the reference asserts on the execution alone (calculon/llm/llm.py, Execution).
void checkExecutionRules(const model::Execution &exe, const JsonCursor &root)
{
    using model::Recompute;
    std::int64_t product = 0;
    if (__builtin_mul_overflow(exe.tensorPar, exe.pipelinePar, &product)
        || __builtin_mul_overflow(product, exe.dataPar, &product) || product != exe.numProcs) {
        root["num_procs"].fail(std::to_string(exe.numProcs) + " != tensor_par * pipeline_par * data_par = "
                               + std::to_string(exe.tensorPar) + " * " + std::to_string(exe.pipelinePar) + " * "
                               + std::to_string(exe.dataPar));
    }
    if (exe.batchSize % exe.dataPar != 0)
        root["batch_size"].fail(std::to_string(exe.batchSize) + " is not divisible by data_par = "
                                + std::to_string(exe.dataPar));
    if ((exe.batchSize / exe.dataPar) % exe.microbatchSize != 0)
        root["microbatch_size"].fail(std::to_string(exe.microbatchSize)
                                     + " does not divide the local batch batch_size / data_par = "
                                     + std::to_string(exe.batchSize / exe.dataPar));
    if (exe.activationRecompute != Recompute::None && !exe.training)
        root["activation_recompute"].fail("recompute requires training = true");
    if (exe.pipelineInterleaving > 1 && exe.pipelinePar == 1)
        root["pipeline_interleaving"].fail("interleaving " + std::to_string(exe.pipelineInterleaving)
                                           + " requires pipeline_par > 1");
    if (exe.optimizerSharding && exe.dataPar == 1)
        root["optimizer_sharding"].fail("optimizer sharding requires data_par > 1");
    if (exe.tensorParOverlap != model::TpOverlap::None && exe.tensorPar == 1)
        root["tensor_par_overlap"].fail("TP overlap requires tensor_par > 1");
    if (exe.seqParAgRedo && exe.tensorParCommType != model::TpCommType::RsAg)
        root["seq_par_ag_redo"].fail("all-gather redo requires tensor_par_comm_type \"rs_ag\"");
    if (exe.seqParAgRedo && exe.activationRecompute == Recompute::Full)
        root["seq_par_ag_redo"].fail("all-gather redo is not possible with activation_recompute \"full\"");
    if (exe.dataParOverlap && !exe.training)
        root["data_par_overlap"].fail("DP overlap requires training = true");
    if (exe.dataParOverlap && exe.dataPar == 1)
        root["data_par_overlap"].fail("DP overlap requires data_par > 1");
    if (exe.optimizerOffload && !exe.training)
        root["optimizer_offload"].fail("optimizer offload requires training = true");
}

/// The file and JSON pointer of a model diagnostic's field: a key of the model (application)
/// file, a path into the system file (model names like "mem1/bandwidth" become its "GBps"), or
/// else a key of the execution file.
std::pair<std::string, std::string> locate(const std::string &field, const std::string &modelPath,
                                           const std::string &executionPath, const std::string &systemPath)
{
    std::string pointer = "/";
    for (const char *key : { "hidden", "feedforward", "seq_size", "attn_heads", "attn_size", "num_blocks" })
        if (field == key)
            return { modelPath, pointer.append(field) };
    if (field.find('/') == std::string::npos)
        return { executionPath, pointer.append(detail::escapePointerToken(field)) };
    pointer.append(field);
    if (pointer.rfind("/networks", 0) != 0) { // network keys are the model's names already
        for (const auto &[name, key] : { std::pair<std::string, std::string> { "/bandwidth", "/GBps" },
                                         { "/capacity", "/GiB" },
                                         { "/peak_flops", "/tflops" } })
            if (const auto at = pointer.find(name); at != std::string::npos)
                pointer.replace(at, name.size(), key);
    }
    return { systemPath, pointer };
}

/// The rules that need the model or the system (reference asserts during compile/run),
/// reported against the execution file, which is what the user changes to fix them.
void checkCrossFileRules(const CalculonInputs &in, const nlohmann::json &exeJson, const std::string &executionPath,
                         const std::string &modelPath, const std::string &systemPath)
{
    const JsonCursor root(exeJson, executionPath);
    const model::Application &app = in.application;
    const model::Execution &exe = in.execution;
    const auto tp = exe.tensorPar;
    const auto requireDivides = [&](std::int64_t value, const char *name) {
        if (value % tp != 0)
            root["tensor_par"].fail(std::to_string(tp) + " does not divide " + name + " = " + std::to_string(value)
                                    + " of " + modelPath);
    };
    requireDivides(app.hidden, "hidden");
    requireDivides(app.feedforward, "feedforward");
    if (!exe.modelMoE) // calculon-MoE floors the heads per TP rank in MoE blocks
        requireDivides(app.attnHeads, "attn_heads");
    if (exe.tensorParCommType != model::TpCommType::Ar || (exe.modelMoE && tp > 1)) {
        std::int64_t tokens = 0;
        if (__builtin_mul_overflow(exe.microbatchSize, app.seqSize, &tokens) || tokens % tp != 0)
            root["tensor_par"].fail(std::to_string(tp) + " does not divide microbatch_size * seq_size = "
                                    + std::to_string(exe.microbatchSize) + " * " + std::to_string(app.seqSize)
                                    + " (required by sequence-split TP communication)");
    }

    const auto index = static_cast<std::size_t>(exe.datatype);
    for (const auto &[table, name] : {std::pair{&in.system.matrix, "matrix"}, std::pair{&in.system.vector, "vector"}}) {
        if (!(*table)[index])
            root["datatype"].fail(std::string(model::datatypeName(exe.datatype)) + " has no entry in the " + name
                                  + " table of " + systemPath);
    }

    const auto networks = static_cast<std::int64_t>(in.system.networks.size());
    for (const char *key : {"tensor_par_net", "pipeline_par_net", "data_par_net", "expert_par_net", "expert_slice_net",
                            "data_par_exp_net"}) {
        if (!exeJson.contains(key))
            continue;
        const std::int64_t net = exeJson[key].get<std::int64_t>();
        if (net >= networks)
            root[key].fail("network " + std::to_string(net) + " does not exist: " + systemPath + " has "
                           + std::to_string(networks) + " network" + (networks == 1 ? "" : "s"));
    }

    // The model's own checks: anything it calls malformed is a schema-level error as well,
    // reported in the file that holds the value.
    for (const model::Diagnostic &diagnostic : model::checkConfiguration(app, exe, in.system)) {
        if (diagnostic.isMalformedInput())
            throw inputErrorFor(diagnostic, modelPath, executionPath, systemPath);
    }
}

} // namespace

model::Application parseApplication(const nlohmann::json &json, const std::string &file)
{
    const JsonCursor root(json, file);
    root.requireExactKeys({"hidden", "feedforward", "seq_size", "attn_heads", "attn_size", "num_blocks"});
    model::Application app;
    app.hidden = root["hidden"].integerAtLeast(1);
    app.feedforward = root["feedforward"].integerAtLeast(1);
    app.seqSize = root["seq_size"].integerAtLeast(1);
    app.attnHeads = root["attn_heads"].integerAtLeast(1);
    app.attnSize = root["attn_size"].integerAtLeast(1);
    app.numBlocks = root["num_blocks"].integerAtLeast(1);
    return app;
}

model::Execution parseExecution(const nlohmann::json &json, const std::string &file, ExecutionFormat *format)
{
    const JsonCursor root(json, file);
    // A calculon-MoE execution has `model_MoE`; upstream Calculon's never does.
    const bool moe = json.is_object() && json.contains("model_MoE");
    if (!moe) {
        root.requireExactKeys({"num_procs", "tensor_par", "pipeline_par", "data_par", "tensor_par_net",
                               "pipeline_par_net", "data_par_net", "batch_size", "microbatch_size", "datatype",
                               "fused_activation", "attention_type", "activation_recompute", "pipeline_interleaving",
                               "optimizer_sharding", "tensor_par_comm_type", "tensor_par_overlap", "seq_par_ag_redo",
                               "data_par_overlap", "weight_offload", "activations_offload", "optimizer_offload",
                               "training"});
    } else if (json.contains("activation_function")) {
        root.requireExactKeys({"num_procs", "tensor_par", "pipeline_par", "data_par", "tensor_par_net",
                               "pipeline_par_net", "data_par_net", "batch_size", "microbatch_size", "num_experts",
                               "top_k_experts", "expert_par", "expert_slice", "data_par_exp", "data_par_exp_net",
                               "expert_par_net", "expert_slice_net", "datatype", "fused_activation", "attention_type",
                               "activation_recompute", "pipeline_interleaving", "optimizer_sharding",
                               "tensor_par_comm_type", "tensor_par_overlap", "seq_par_ag_redo", "data_par_overlap",
                               "weight_offload", "activations_offload", "optimizer_offload", "training", "model_MoE",
                               "activation_function"});
    } else {
        root.requireExactKeys({"num_procs", "tensor_par", "pipeline_par", "data_par", "tensor_par_net",
                               "pipeline_par_net", "data_par_net", "batch_size", "microbatch_size", "num_experts",
                               "top_k_experts", "expert_par", "expert_slice", "data_par_exp", "data_par_exp_net",
                               "expert_par_net", "expert_slice_net", "datatype", "fused_activation", "attention_type",
                               "activation_recompute", "pipeline_interleaving", "optimizer_sharding",
                               "tensor_par_comm_type", "tensor_par_overlap", "seq_par_ag_redo", "data_par_overlap",
                               "weight_offload", "activations_offload", "optimizer_offload", "training", "model_MoE"});
    }
    if (format)
        *format = moe ? ExecutionFormat::CalculonMoe : ExecutionFormat::Calculon;
    model::Execution exe;
    exe.numProcs = root["num_procs"].integerAtLeast(1);
    exe.tensorPar = root["tensor_par"].integerAtLeast(1);
    exe.pipelinePar = root["pipeline_par"].integerAtLeast(1);
    exe.dataPar = root["data_par"].integerAtLeast(1);
    exe.tensorParNet = root["tensor_par_net"].integerAtLeast(0);
    exe.pipelineParNet = root["pipeline_par_net"].integerAtLeast(0);
    exe.dataParNet = root["data_par_net"].integerAtLeast(0);
    exe.batchSize = root["batch_size"].integerAtLeast(1);
    exe.microbatchSize = root["microbatch_size"].integerAtLeast(1);
    const JsonCursor datatype = root["datatype"];
    const auto type = model::datatypeFromName(datatype.string());
    if (!type || (!moe && *type == model::Datatype::Float4)) // float4 came with calculon-MoE
        datatype.fail("expected one of " + datatypeList() + ", got " + detail::describe(datatype.value()));
    exe.datatype = *type;
    exe.fusedActivation = root["fused_activation"].boolean();
    exe.attentionType = static_cast<model::AttentionType>(root["attention_type"].oneOf(model::names::kAttentionType));
    exe.activationRecompute =
        static_cast<model::Recompute>(root["activation_recompute"].oneOf(model::names::kRecompute));
    exe.pipelineInterleaving = root["pipeline_interleaving"].integerAtLeast(1);
    exe.optimizerSharding = root["optimizer_sharding"].boolean();
    exe.tensorParCommType =
        static_cast<model::TpCommType>(root["tensor_par_comm_type"].oneOf(model::names::kTpCommType));
    exe.tensorParOverlap = static_cast<model::TpOverlap>(root["tensor_par_overlap"].oneOf(model::names::kTpOverlap));
    exe.seqParAgRedo = root["seq_par_ag_redo"].boolean();
    exe.dataParOverlap = root["data_par_overlap"].boolean();
    exe.weightOffload = root["weight_offload"].boolean();
    exe.activationsOffload = root["activations_offload"].boolean();
    exe.optimizerOffload = root["optimizer_offload"].boolean();
    exe.training = root["training"].boolean();
    if (moe) {
        exe.modelMoE = root["model_MoE"].boolean();
        exe.numExperts = root["num_experts"].integerAtLeast(1);
        exe.topKExperts = root["top_k_experts"].integerAtLeast(1);
        exe.expertPar = root["expert_par"].integerAtLeast(1);
        exe.expertSlice = root["expert_slice"].integerAtLeast(1);
        exe.dataParExp = root["data_par_exp"].integerAtLeast(1);
        exe.expertParNet = root["expert_par_net"].integerAtLeast(0);
        exe.expertSliceNet = root["expert_slice_net"].integerAtLeast(0);
        exe.dataParExpNet = root["data_par_exp_net"].integerAtLeast(0);
        if (json.contains("activation_function"))
            exe.activationFunction =
                static_cast<model::ActivationFunction>(root["activation_function"].oneOf({"gelu", "silu"}));
    }
    checkExecutionRules(exe, root);
    return exe;
}

model::System parseSystem(const nlohmann::json &json, const std::string &file)
{
    const JsonCursor root(json, file);
    root.requireExactKeys({"matrix", "vector", "mem1", "mem2", "processing_mode", "networks"});
    model::System sys;
    parseEngines(root["matrix"], sys.matrix);
    parseEngines(root["vector"], sys.vector);
    sys.mem1 = parseMemory(root["mem1"], false);
    sys.mem2 = parseMemory(root["mem2"], true); // GiB 0 disables offloading
    sys.processingMode =
        static_cast<model::ProcessingMode>(root["processing_mode"].oneOf({"no_overlap", "roofline"}));
    const JsonCursor networks = root["networks"];
    const std::size_t count = networks.requireArray();
    for (std::size_t i = 0; i < count; ++i)
        sys.networks.push_back(parseNetwork(networks[i]));
    return sys;
}

InputError inputErrorFor(const model::Diagnostic &diagnostic, const std::string &modelPath,
                         const std::string &executionPath, const std::string &systemPath)
{
    const auto [file, pointer] = locate(diagnostic.field, modelPath, executionPath, systemPath);
    return InputError(file, pointer, diagnostic.message);
}

CalculonInputs parseCalculonInputs(const nlohmann::json &modelJson, const nlohmann::json &exeJson,
                                   const nlohmann::json &systemJson, const std::string &modelPath,
                                   const std::string &executionPath, const std::string &systemPath)
{
    ExecutionFormat format = ExecutionFormat::Calculon;
    model::Application app = parseApplication(modelJson, modelPath);
    model::Execution exe = parseExecution(exeJson, executionPath, &format);
    CalculonInputs in{app, exe, parseSystem(systemJson, systemPath), format};
    checkCrossFileRules(in, exeJson, executionPath, modelPath, systemPath);
    return in;
}

CalculonInputs loadCalculonInputs(const std::string &modelPath, const std::string &executionPath,
                                  const std::string &systemPath)
{
    const nlohmann::json modelJson = readJsonFile(modelPath);
    const nlohmann::json exeJson = readJsonFile(executionPath);
    const nlohmann::json systemJson = readJsonFile(systemPath);
    return parseCalculonInputs(modelJson, exeJson, systemJson, modelPath, executionPath, systemPath);
}

} // namespace gapstudio::io
