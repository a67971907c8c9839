#include "studio/parameternames.h"

#include "gapstudio/scenario/override_keys.h"
#include "gapstudio/scenario/scenario.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <string_view>
#include <utility>
#include <vector>

namespace gapstudio::views {

namespace {

struct Entry {
    const char *key;
    const char *label;
    const char *unit;
    const char *help;
};

// The execution's keys (the reference's file keys) and the blocks' words; an override key's words
// are the model's table (scenario::overrideKeys()).
constexpr Entry kEntries[] = {
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

/// The override key `key` names: itself, or the execution's or the LLM's key of the same value
/// ("tensor_par" is "layout.tensor_par", "seq_size" "llm.seq_size", "num_procs" "gpu_count").
const scenario::OverrideKey *overrideKeyOf(const std::string &key)
{
    if (key == "num_procs")
        return scenario::findOverrideKey("gpu_count");
    std::string name = key; // a JSON pointer's "layout/tensor_par" is the key "layout.tensor_par"
    if (name.starts_with("layout/") || name.starts_with("llm/"))
        name[name.find('/')] = '.';
    for (const char *prefix : { "", "layout.", "llm." })
        if (const scenario::OverrideKey *k = scenario::findOverrideKey(prefix + name))
            return k;
    return nullptr;
}

} // namespace

ParameterWords parameterWords(const std::string &key)
{
    if (const scenario::OverrideKey *k = overrideKeyOf(key)) {
        // The sliders show two kinds of key in other units than the key's own: the compute scale
        // as the peak it gives (parameterpanel.cpp), and fractions in percent.
        if (key == scenario::keys::kComputeScale)
            return { QCoreApplication::translate("ParameterNames", "GPU peak compute"), QStringLiteral("TFLOP/s"),
                     translated(k->description) };
        const bool fraction = key.ends_with(".efficiency");
        return { translated(k->label), fraction ? QStringLiteral("%") : QString::fromUtf8(k->unit),
                 translated(k->description) };
    }
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
    static const std::vector<std::pair<const char *, const char *>> keys = [] {
        std::vector<std::pair<const char *, const char *>> words; // key, label
        const auto take = [&words](const char *key, const char *label) {
            const std::string_view k(key);
            if (k.find('.') == std::string_view::npos && k.find('_') != std::string_view::npos)
                words.emplace_back(key, label);
        };
        for (const Entry &e : kEntries)
            take(e.key, e.label);
        for (const scenario::OverrideKey &k : scenario::overrideKeys()) {
            const std::string_view key(k.key);
            const std::size_t dot = key.find('.');
            // "layout.tensor_par" names tensor_par of the messages; "gpu_count" itself.
            take(dot == std::string_view::npos || key.starts_with("layout.") || key.starts_with("llm.")
                     ? k.key + (dot == std::string_view::npos ? 0 : dot + 1)
                     : k.key,
                 k.label);
        }
        take("num_procs", scenario::findOverrideKey("gpu_count")->label);
        return words;
    }();
    for (const auto &[key, label] : keys) {
        const QRegularExpression word(QStringLiteral("\\b%1\\b").arg(QLatin1String(key)));
        text.replace(word, translated(label));
    }
    text.replace(QStringLiteral(" * "), QStringLiteral(" × "));
    text.replace(QStringLiteral("!="), QStringLiteral("≠"));
    return text;
}

} // namespace gapstudio::views
