#include "studio/parameternames.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <string_view>
#include <vector>

namespace gapstudio::views {

namespace {

struct Entry {
    const char *key;
    const char *label;
    const char *unit;
    const char *help;
};

// Override keys (scenario::overrideKeys()) and layout keys (the reference's execution keys).
constexpr Entry kEntries[] = {
    { "gpu.compute_scale", "GPU peak compute", "TFLOP/s",
      "Peak matrix throughput of one GPU in the design's datatype; every peak of the GPU scales with it" },
    { "gpu.hbm_bandwidth_GBps", "HBM bandwidth", "GB/s", "Memory bandwidth of one GPU's HBM" },
    { "gpu.hbm_capacity_GiB", "HBM capacity", "GiB", "Memory capacity of one GPU's HBM" },
    { "gpu.tier2_capacity_GiB", "Offload memory capacity", "GiB",
      "Host memory a GPU can offload to (0 = none)" },
    { "gpu.tier2_bandwidth_GBps", "Offload memory bandwidth", "GB/s", "Bandwidth to the offload memory" },
    { "scale_up.bandwidth_GBps", "Scale-up bandwidth", "GB/s",
      "Bandwidth per GPU, one direction, inside a scale-up domain (e.g. NVLink)" },
    { "scale_up.latency_us", "Scale-up latency", "µs",
      "Latency of one communication operation inside a scale-up domain" },
    { "scale_up.efficiency", "Scale-up efficiency", "%",
      "Share of the scale-up bandwidth that collectives achieve" },
    { "scale_out.bandwidth_GBps", "Scale-out bandwidth", "GB/s",
      "Bandwidth per GPU, one direction, between scale-up domains (e.g. InfiniBand)" },
    { "scale_out.latency_us", "Scale-out latency", "µs",
      "Latency of one communication operation between scale-up domains" },
    { "scale_out.efficiency", "Scale-out efficiency", "%",
      "Share of the scale-out bandwidth that collectives achieve" },
    { "topology.scale_up_domain_size", "Scale-up domain size", "GPUs", "GPUs joined by one scale-up domain" },
    { "gpu_count", "GPU count", "GPUs", "GPUs in the whole design" },
    { "num_procs", "GPU count", "GPUs", "GPUs in the whole design" },
    { "batch_size", "Global batch", "samples", "Samples per training step, over all data-parallel replicas" },
    { "microbatch_size", "Microbatch", "samples", "Samples per pipeline microbatch" },
    { "seq_size", "Sequence length", "tokens", "Tokens per sample" },
    { "tensor_par", "TP (tensor parallel)", "GPUs", "GPUs that split every layer's matrices" },
    { "pipeline_par", "PP (pipeline parallel)", "stages", "Pipeline stages the layers are split into" },
    { "data_par", "DP (data parallel)", "replicas", "Copies of the model that train on different samples" },
    { "context_par", "CP (context parallel)", "GPUs", "GPUs that split each sequence" },
    { "expert_par", "EP (expert parallel)", "GPUs", "GPUs the experts of a layer are spread over" },
    { "expert_slice", "ES (expert slicing)", "GPUs", "GPUs that split each expert's matrices" },
    { "data_par_exp", "Expert DP", "replicas", "Copies of each expert that train on different samples" },
    { "pipeline_interleaving", "Interleaving", "", "Virtual pipeline stages per GPU" },
    { "activation_recompute", "Recompute", "", "Activations recomputed in the backward pass" },
    { "datatype", "Datatype", "", "Number format of the matrix multiplications" },
    { "tensor_par_comm_type", "TP communication", "", "Collective used by tensor parallelism" },
    { "tensor_par_overlap", "TP overlap", "", "How tensor-parallel communication hides behind compute" },
    { "seq_par_ag_redo", "Redo the sequence-parallel all-gather", "",
      "Repeat the all-gather in the backward pass instead of keeping it" },
    { "data_par_overlap", "Overlap DP communication", "",
      "Hide the gradient reduction behind the backward pass" },
    { "optimizer_sharding", "ZeRO-1 (shard the optimizer)", "",
      "Split the optimizer state over the data-parallel replicas" },
    { "weight_offload", "Offload weights", "", "Keep weights in the offload memory" },
    { "activations_offload", "Offload activations", "", "Keep activations in the offload memory" },
    { "optimizer_offload", "Offload the optimizer", "", "Keep the optimizer state in the offload memory" },
    { "tensor_par_net", "TP network tier", "", "Network tier TP communicates over (0 = scale-up)" },
    { "pipeline_par_net", "PP network tier", "", "Network tier PP communicates over (0 = scale-up)" },
    { "data_par_net", "DP network tier", "", "Network tier DP communicates over (0 = scale-up)" },
    { "context_par_net", "CP network tier", "", "Network tier CP communicates over (0 = scale-up)" },
    { "expert_par_net", "EP network tier", "", "Network tier EP communicates over (0 = scale-up)" },
    { "expert_slice_net", "ES network tier", "", "Network tier ES communicates over (0 = scale-up)" },
    { "data_par_exp_net", "Expert DP network tier", "",
      "Network tier expert DP communicates over (0 = scale-up)" },
    { "num_experts", "Experts", "", "Experts per MoE layer" },
    { "top_k_experts", "Experts per token", "", "Experts each token is routed to" },
    { "attn_heads", "Attention heads", "", "Attention heads of the LLM" },
    { "num_blocks", "Layers", "", "Transformer layers of the LLM" },
    { "hidden", "Hidden size", "", "Width of the LLM's hidden state" },
    { "feedforward", "Feed-forward size", "", "Width of the LLM's feed-forward layers" },
    { "attn_size", "Head size", "", "Width of one attention head" },
    { "first_stage_blocks", "Layers on the first stage", "", "Layers placed on the first pipeline stage" },
    { "scale_out", "Scale-out link", "", "Link between scale-up domains" },
    { "scale_up", "Scale-up link", "", "Link inside a scale-up domain" },
};

QString translated(const char *text)
{
    return QCoreApplication::translate("ParameterNames", text);
}

/// The key without a block prefix ("layout.tensor_par", "layout/tensor_par" -> "tensor_par").
const Entry *find(const std::string &key)
{
    for (const Entry &e : kEntries)
        if (key == e.key)
            return &e;
    for (const char *prefix : { "layout.", "layout/", "llm.", "llm/" })
        if (key.rfind(prefix, 0) == 0)
            return find(key.substr(std::char_traits<char>::length(prefix)));
    return nullptr;
}

} // namespace

ParameterWords parameterWords(const std::string &key)
{
    const Entry *e = find(key);
    if (!e)
        return { QString::fromStdString(key), {}, {} };
    return { translated(e->label), QString::fromUtf8(e->unit), translated(e->help) };
}

QString parameterLabel(const std::string &key)
{
    return parameterWords(key).label;
}

QString parameterToolTip(const std::string &key)
{
    const ParameterWords words = parameterWords(key);
    const QString unit = words.unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(words.unit);
    return QCoreApplication::translate("ParameterNames", "%1%2.\nKey in the scenario file: %3")
        .arg(words.help.isEmpty() ? words.label : words.help, unit, QString::fromStdString(key));
}

QString hardwareParameterLabel(model::HardwareParameter parameter)
{
    using P = model::HardwareParameter;
    switch (parameter) {
    case P::PeakFlops:
        return parameterLabel("gpu.compute_scale");
    case P::HbmBandwidth:
        return parameterLabel("gpu.hbm_bandwidth_GBps");
    case P::HbmCapacity:
        return parameterLabel("gpu.hbm_capacity_GiB");
    case P::ScaleUpBandwidth:
        return parameterLabel("scale_up.bandwidth_GBps");
    case P::ScaleOutBandwidth:
        return parameterLabel("scale_out.bandwidth_GBps");
    case P::NetworkLatency: // model::scaled() multiplies the latency of every tier
        return QCoreApplication::translate("ParameterNames", "Network latency, every tier");
    case P::ScaleUpDomainSize:
        return parameterLabel("topology.scale_up_domain_size");
    }
    return {};
}

QString inWords(const QString &message)
{
    QString text = message;
    text.replace(QStringLiteral("Mem tier1"),
                 QCoreApplication::translate("ParameterNames", "GPU memory (HBM)"));
    text.replace(QStringLiteral("Mem tier2"),
                 QCoreApplication::translate("ParameterNames", "Offload memory"));
    static const QRegularExpression tier(QStringLiteral("Network tier(\\d)"));
    text.replace(tier, QCoreApplication::translate("ParameterNames", "Network tier \\1"));
    // Only keys with an underscore: plain words ("hidden", "datatype") stay as they are. `\b`
    // counts '_' as a word character, so "data_par" never matches inside "data_par_exp".
    static const std::vector<const Entry *> keys = [] {
        std::vector<const Entry *> entries;
        for (const Entry &e : kEntries) {
            const std::string_view key(e.key);
            if (key.find('.') == std::string_view::npos && key.find('_') != std::string_view::npos)
                entries.push_back(&e);
        }
        return entries;
    }();
    for (const Entry *e : keys) {
        const QRegularExpression word(QStringLiteral("\\b%1\\b").arg(QLatin1String(e->key)));
        text.replace(word, translated(e->label));
    }
    text.replace(QStringLiteral(" * "), QStringLiteral(" × "));
    text.replace(QStringLiteral("!="), QStringLiteral("≠"));
    return text;
}

} // namespace gapstudio::views
