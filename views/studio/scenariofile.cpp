// Fallback scenario file format (see builtinpresets.h): blocks by preset id, the layout inline
// (the layout panel edits it), the GPU count and the overrides. Header as every GapStudio file:
// {"fileType": "gapstudio.scenario", "version": 1}.
#include "studio/builtinpresets.h"

#include <array>
#include <stdexcept>
#include <utility>

namespace gapstudio::views::fallback {

namespace {

using namespace gapstudio::scenario;
using nlohmann::json;

constexpr std::array<const char *, 3> kRecompute = {"none", "attn_only", "full"};
constexpr std::array<const char *, 3> kCommType = {"ar", "p2p_rs_ag", "rs_ag"};
constexpr std::array<const char *, 3> kOverlap = {"none", "ring", "pipe"};

template <typename Enum, std::size_t N> Enum enumFrom(const json &j, const std::array<const char *, N> &names,
                                                      const char *key)
{
    const std::string text = j.at(key).get<std::string>();
    for (std::size_t i = 0; i < N; ++i)
        if (text == names[i])
            return static_cast<Enum>(i);
    throw std::runtime_error(std::string("/layout/") + key + ": unknown value \"" + text + "\"");
}

/// Integer and boolean members of model::Execution, by their reference JSON key.
const std::vector<std::pair<const char *, std::int64_t model::Execution::*>> &intFields()
{
    using E = model::Execution;
    static const std::vector<std::pair<const char *, std::int64_t E::*>> fields = {
        {"tensor_par", &E::tensorPar},           {"pipeline_par", &E::pipelinePar},
        {"data_par", &E::dataPar},               {"tensor_par_net", &E::tensorParNet},
        {"pipeline_par_net", &E::pipelineParNet}, {"data_par_net", &E::dataParNet},
        {"batch_size", &E::batchSize},           {"microbatch_size", &E::microbatchSize},
        {"pipeline_interleaving", &E::pipelineInterleaving}, {"expert_par", &E::expertPar},
        {"expert_slice", &E::expertSlice},       {"data_par_exp", &E::dataParExp},
        {"expert_par_net", &E::expertParNet},    {"expert_slice_net", &E::expertSliceNet},
        {"data_par_exp_net", &E::dataParExpNet}};
    return fields;
}

const std::vector<std::pair<const char *, bool model::Execution::*>> &boolFields()
{
    using E = model::Execution;
    static const std::vector<std::pair<const char *, bool E::*>> fields = {
        {"fused_activation", &E::fusedActivation},   {"optimizer_sharding", &E::optimizerSharding},
        {"seq_par_ag_redo", &E::seqParAgRedo},       {"data_par_overlap", &E::dataParOverlap},
        {"weight_offload", &E::weightOffload},       {"activations_offload", &E::activationsOffload},
        {"optimizer_offload", &E::optimizerOffload}, {"training", &E::training}};
    return fields;
}

json layoutToJson(const Layout &layout)
{
    const model::Execution &e = layout.execution;
    json j = {{"id", layout.info.id}, {"name", layout.info.name}, {"source", layout.info.source}};
    for (const auto &[key, member] : intFields())
        j[key] = e.*member;
    for (const auto &[key, member] : boolFields())
        j[key] = e.*member;
    j["datatype"] = model::datatypeName(e.datatype);
    j["activation_recompute"] = kRecompute[static_cast<std::size_t>(e.activationRecompute)];
    j["tensor_par_comm_type"] = kCommType[static_cast<std::size_t>(e.tensorParCommType)];
    j["tensor_par_overlap"] = kOverlap[static_cast<std::size_t>(e.tensorParOverlap)];
    return j;
}

Layout layoutFromJson(const json &j)
{
    Layout layout;
    layout.info = {j.at("id").get<std::string>(), j.at("name").get<std::string>(), j.at("source").get<std::string>()};
    model::Execution &e = layout.execution;
    for (const auto &[key, member] : intFields())
        e.*member = j.at(key).get<std::int64_t>();
    for (const auto &[key, member] : boolFields())
        e.*member = j.at(key).get<bool>();
    const auto type = model::datatypeFromName(j.at("datatype").get<std::string>());
    if (!type)
        throw std::runtime_error("/layout/datatype: unknown datatype");
    e.datatype = *type;
    e.activationRecompute = enumFrom<model::Recompute>(j, kRecompute, "activation_recompute");
    e.tensorParCommType = enumFrom<model::TpCommType>(j, kCommType, "tensor_par_comm_type");
    e.tensorParOverlap = enumFrom<model::TpOverlap>(j, kOverlap, "tensor_par_overlap");
    return layout;
}

template <typename Block> json refToJson(const BlockRef<Block> &ref, const char *key)
{
    if (ref.inlineBlock)
        throw std::runtime_error(std::string("/") + key + ": inline blocks need the scenario I/O of issue 4");
    return ref.presetId;
}

} // namespace

json toJson(const Scenario &s)
{
    json j = {{"fileType", "gapstudio.scenario"}, {"version", 1},  {"id", s.info.id},
              {"name", s.info.name},              {"source", s.info.source},
              {"gpu", refToJson(s.gpu, "gpu")},   {"scale_up", refToJson(s.scaleUp, "scale_up")},
              {"scale_out", refToJson(s.scaleOut, "scale_out")},
              {"topology", refToJson(s.topology, "topology")}, {"llm", refToJson(s.llm, "llm")},
              {"gpu_count", s.gpuCount},          {"overrides", s.overrides}};
    j["layout"] = s.layout.inlineBlock ? layoutToJson(*s.layout.inlineBlock) : json(s.layout.presetId);
    return j;
}

Scenario fromJson(const json &j)
{
    if (j.value("fileType", std::string()) != "gapstudio.scenario")
        throw std::runtime_error("/fileType: not a gapstudio.scenario file");
    if (j.value("version", 0) != 1)
        throw std::runtime_error("/version: unsupported version");
    Scenario s;
    s.info = {j.at("id").get<std::string>(), j.at("name").get<std::string>(), j.at("source").get<std::string>()};
    s.gpu.presetId = j.at("gpu").get<std::string>();
    s.scaleUp.presetId = j.at("scale_up").get<std::string>();
    s.scaleOut.presetId = j.at("scale_out").get<std::string>();
    s.topology.presetId = j.at("topology").get<std::string>();
    s.llm.presetId = j.at("llm").get<std::string>();
    if (j.at("layout").is_string())
        s.layout.presetId = j.at("layout").get<std::string>();
    else
        s.layout.inlineBlock = layoutFromJson(j.at("layout"));
    s.gpuCount = j.at("gpu_count").get<std::int64_t>();
    s.overrides = j.at("overrides").get<std::map<std::string, double>>();
    return s;
}

} // namespace gapstudio::views::fallback
