#include "studio/layoutrules.h"

#include "studio/parameternames.h"

#include <QCoreApplication>

#include <algorithm>

namespace gapstudio::views {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("LayoutRules", text);
}

std::int64_t attentionGroup(const model::Execution &e) // GPUs of one data-parallel replica
{
    return e.tensorPar * std::max<std::int64_t>(1, e.contextPar) * e.pipelinePar;
}

std::int64_t expertGroup(const model::Execution &e) // GPUs of one expert-data-parallel replica
{
    return e.expertPar * e.expertSlice * e.pipelinePar;
}

QString attentionProduct(const model::Execution &e)
{
    return e.contextPar > 1 ? QStringLiteral("TP × CP × PP = %1 × %2 × %3")
                                  .arg(e.tensorPar)
                                  .arg(e.contextPar)
                                  .arg(e.pipelinePar)
                            : QStringLiteral("TP × PP = %1 × %2").arg(e.tensorPar).arg(e.pipelinePar);
}

/// The GPU-count rule that `e` breaks, in words, with the field to change.
QString gpuCountProblem(const model::Execution &e, std::string *field)
{
    const std::int64_t gpus = e.numProcs;
    const std::int64_t group = attentionGroup(e);
    if (group > 0 && group * e.dataPar != gpus) {
        if (gpus % group == 0) {
            *field = "data_par";
            return tr("%1 × DP %2 uses %3 GPUs, but the design has %4: set DP to %5.")
                .arg(attentionProduct(e))
                .arg(e.dataPar)
                .arg(group * e.dataPar)
                .arg(gpus)
                .arg(gpus / group);
        }
        *field = "tensor_par";
        return tr("%1 = %2 does not divide the %3 GPUs: choose TP and PP whose product divides %3, or change "
                  "the GPU count.")
            .arg(attentionProduct(e))
            .arg(group)
            .arg(gpus);
    }
    const std::int64_t experts = expertGroup(e);
    if (e.modelMoE && experts > 0 && experts * e.dataParExp != gpus) {
        if (gpus % experts == 0) {
            *field = "data_par_exp";
            return tr("EP × ES × PP = %1 × %2 × %3 with expert DP %4 uses %5 GPUs, but the design has %6: "
                      "set "
                      "expert DP to %7.")
                .arg(e.expertPar)
                .arg(e.expertSlice)
                .arg(e.pipelinePar)
                .arg(e.dataParExp)
                .arg(experts * e.dataParExp)
                .arg(gpus)
                .arg(gpus / experts);
        }
        *field = "expert_par";
        return tr("EP × ES × PP = %1 × %2 × %3 = %4 does not divide the %5 GPUs: choose EP and ES whose "
                  "product with PP divides %5, or change the GPU count.")
            .arg(e.expertPar)
            .arg(e.expertSlice)
            .arg(e.pipelinePar)
            .arg(experts)
            .arg(gpus);
    }
    return {};
}

/// Model checks on LLM dimensions name the LLM's key; the layout field that fixes them.
std::string fixingField(const std::string &field)
{
    static const std::pair<const char *, const char *> kFixedBy[]
        = { { "attn_heads", "tensor_par" },   { "hidden", "tensor_par" },
            { "feedforward", "tensor_par" },  { "seq_size", "tensor_par" },
            { "num_blocks", "pipeline_par" }, { "num_experts", "expert_par" },
            { "top_k_experts", "expert_par" } };
    for (const auto &[from, to] : kFixedBy)
        if (field == from)
            return to;
    for (const char *prefix : { "layout.", "layout/" })
        if (field.rfind(prefix, 0) == 0)
            return field.substr(std::char_traits<char>::length(prefix));
    return field;
}

} // namespace

bool balanceLayout(model::Execution &e, std::int64_t gpuCount, bool moe)
{
    bool filled = true;
    const std::int64_t group = attentionGroup(e);
    if (group > 0 && gpuCount % group == 0)
        e.dataPar = gpuCount / group;
    else
        filled = false;
    if (moe) {
        const std::int64_t experts = expertGroup(e);
        if (experts > 0 && gpuCount % experts == 0)
            e.dataParExp = gpuCount / experts;
        else
            filled = false;
    }
    return filled;
}

QString balanceRule(bool moe)
{
    return moe ? tr("DP and expert DP follow the GPU count: DP = GPUs ÷ (TP × CP × PP), expert DP = GPUs ÷ "
                    "(EP × ES × PP).")
               : tr("DP follows the GPU count: DP = GPUs ÷ (TP × CP × PP).");
}

bool gpuCountFits(const model::Execution &execution, std::int64_t gpuCount, bool moe)
{
    model::Execution e = execution;
    if (gpuCount < 1 || !balanceLayout(e, gpuCount, moe) || e.dataPar < 1 || e.microbatchSize < 1)
        return false;
    return e.batchSize % e.dataPar == 0 && (e.batchSize / e.dataPar) % e.microbatchSize == 0;
}

QString diagnosticInWords(const model::Diagnostic &d, const model::Execution *execution, std::string *field)
{
    std::string at = fixingField(d.field);
    QString text;
    if (d.field == "num_procs" && execution)
        text = gpuCountProblem(*execution, &at);
    else if (d.field == "batch_size" && execution && execution->dataPar > 0
             && execution->batchSize % execution->dataPar != 0)
        text
            = tr("The global batch of %1 samples does not split over DP = %2 replicas: choose a global batch "
                 "that is a multiple of %2.")
                  .arg(execution->batchSize)
                  .arg(execution->dataPar);
    else if (d.field == "microbatch_size" && execution && execution->dataPar > 0)
        text = tr("A microbatch of %1 does not divide the %2 samples each DP replica gets: choose a "
                  "microbatch "
                  "that divides %2.")
                   .arg(execution->microbatchSize)
                   .arg(execution->batchSize / execution->dataPar);
    if (text.isEmpty()) {
        text = inWords(QString::fromStdString(d.message));
        if (!at.empty() && at != "num_procs")
            text = QStringLiteral("%1: %2").arg(parameterLabel(at), text);
    }
    if (field)
        *field = at == "num_procs" ? std::string() : at;
    return text;
}

std::vector<LayoutProblem> layoutProblems(const ScenarioResults &results)
{
    const model::Execution *execution = results.compiled ? &results.compiled->execution : nullptr;
    std::vector<LayoutProblem> problems;
    for (const model::Diagnostic &d : results.diagnostics) {
        LayoutProblem problem;
        problem.text = diagnosticInWords(d, execution, &problem.field);
        problems.push_back(std::move(problem));
    }
    return problems;
}

} // namespace gapstudio::views
