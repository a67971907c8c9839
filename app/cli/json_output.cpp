#include "json_output.h"
#include "gapstudio/model/enum_names.h"

#include <string>

namespace gapstudio::cli {

nlohmann::ordered_json statsToJson(const model::Stats &stats, StatsFormat format)
{
    // Doubles are dumped by nlohmann in the shortest form that reads back to the same value.
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    const auto put = [&out](std::string_view name, double value) { out[std::string(name)] = value; };
    if (format == StatsFormat::CalculonMoe)
        stats.forEachMoe(put);
    else
        stats.forEach(put);
    return out;
}

nlohmann::ordered_json executionToJson(const model::Execution &e, StatsFormat format)
{
    const bool moe = format == StatsFormat::CalculonMoe;
    nlohmann::ordered_json j;
    j["num_procs"] = e.numProcs;
    j["tensor_par"] = e.tensorPar;
    j["pipeline_par"] = e.pipelinePar;
    j["data_par"] = e.dataPar;
    j["tensor_par_net"] = e.tensorParNet;
    j["pipeline_par_net"] = e.pipelineParNet;
    j["data_par_net"] = e.dataParNet;
    j["batch_size"] = e.batchSize;
    j["microbatch_size"] = e.microbatchSize;
    if (moe) {
        j["num_experts"] = e.numExperts;
        j["top_k_experts"] = e.topKExperts;
        j["expert_par"] = e.expertPar;
        j["expert_slice"] = e.expertSlice;
        j["data_par_exp"] = e.dataParExp;
        j["data_par_exp_net"] = e.dataParExpNet;
        j["expert_par_net"] = e.expertParNet;
        j["expert_slice_net"] = e.expertSliceNet;
    }
    j["datatype"] = model::datatypeName(e.datatype);
    j["fused_activation"] = e.fusedActivation;
    j["attention_type"] = model::names::of(model::names::kAttentionType, e.attentionType);
    j["activation_recompute"] = model::names::of(model::names::kRecompute, e.activationRecompute);
    j["pipeline_interleaving"] = e.pipelineInterleaving;
    j["optimizer_sharding"] = e.optimizerSharding;
    j["tensor_par_comm_type"] = model::names::of(model::names::kTpCommType, e.tensorParCommType);
    j["tensor_par_overlap"] = model::names::of(model::names::kTpOverlap, e.tensorParOverlap);
    j["seq_par_ag_redo"] = e.seqParAgRedo;
    j["data_par_overlap"] = e.dataParOverlap;
    j["weight_offload"] = e.weightOffload;
    j["activations_offload"] = e.activationsOffload;
    j["optimizer_offload"] = e.optimizerOffload;
    j["training"] = e.training;
    if (moe) {
        j["model_MoE"] = e.modelMoE;
        j["activation_function"] = e.activationFunction == model::ActivationFunction::Silu ? "silu" : "gelu";
    }
    return j;
}

nlohmann::ordered_json evaluationToJson(const model::Evaluation &evaluation, StatsFormat format, bool withLayers)
{
    nlohmann::ordered_json out = statsToJson(evaluation.stats, format);
    if (withLayers) {
        nlohmann::ordered_json layers = nlohmann::ordered_json::array();
        for (const model::LayerStats &layer : evaluation.layers) {
            nlohmann::ordered_json record = nlohmann::ordered_json::object();
            record["name"] = layer.name;
            layer.forEach([&record](std::string_view name, double value) { record[std::string(name)] = value; });
            layers.push_back(std::move(record));
        }
        out["layers"] = std::move(layers);
    }
    return out;
}

nlohmann::ordered_json intervalToJson(const scenario::PredictionInterval &interval, const model::Stats &stats,
                                      bool withParameters)
{
    const auto range = [&](double value) {
        const auto [low, high] = interval.range(value);
        return nlohmann::ordered_json::array({ low, high });
    };
    nlohmann::ordered_json parameters = nlohmann::ordered_json::array();
    for (const scenario::ParameterSpread &p : interval.parameters)
        parameters.push_back({ { "name", p.name }, { "sigma", p.sigma } });
    nlohmann::ordered_json out = { { "sigma", interval.sigma },
                                   { "parameter_sigma", interval.parameterSigma },
                                   { "model_sigma", interval.modelSigma },
                                   { "basis", scenario::basisName(interval.basis) },
                                   { "total_time", range(stats.total_time) },
                                   { "sample_rate", range(stats.sample_rate) },
                                   { "total_efficiency", range(stats.total_efficiency) } };
    if (withParameters)
        out["parameters"] = parameters;
    return out;
}

} // namespace gapstudio::cli
