#pragma once
/**
 * @file layoutformat.h
 * Display names of a parallel layout's options, in words (the JSON spellings stay in files and
 * tool tips), and a one-line layout summary, shared by the search table and the explore charts.
 */

#include "gapstudio/model/calculon_inputs.h"

#include <QString>
#include <QStringList>

namespace gapstudio::views::layoutformat {

[[nodiscard]] inline QString recompute(model::Recompute r)
{
    static const char *const names[] = { "none", "attention only", "full" };
    return QLatin1String(names[static_cast<int>(r)]);
}

[[nodiscard]] inline QString tpCommType(model::TpCommType t)
{
    static const char *const names[]
        = { "all-reduce", "p2p reduce-scatter + all-gather", "reduce-scatter + all-gather" };
    return QLatin1String(names[static_cast<int>(t)]);
}

[[nodiscard]] inline QString tpOverlap(model::TpOverlap o)
{
    static const char *const names[] = { "none", "ring", "pipelined" };
    return QLatin1String(names[static_cast<int>(o)]);
}

[[nodiscard]] inline QString yesNo(bool value)
{
    return value ? QStringLiteral("yes") : QStringLiteral("no");
}

/// What a layout keeps in the offload memory, in words ("none", "weights, optimizer").
[[nodiscard]] inline QString offload(const model::Execution &e)
{
    QStringList parts;
    if (e.weightOffload)
        parts << QStringLiteral("weights");
    if (e.activationsOffload)
        parts << QStringLiteral("activations");
    if (e.optimizerOffload)
        parts << QStringLiteral("optimizer");
    return parts.isEmpty() ? QStringLiteral("none") : parts.join(QStringLiteral(", "));
}

/// "TP 8 · PP 16 · DP 32 · EP 1 · ES 1 · microbatch 1 · interleaving 2 · recompute attn_only"
[[nodiscard]] inline QString summary(const model::Execution &e)
{
    QStringList parts { QStringLiteral("TP %1").arg(e.tensorPar), QStringLiteral("PP %1").arg(e.pipelinePar),
                        QStringLiteral("DP %1").arg(e.dataPar) };
    if (e.modelMoE)
        parts << QStringLiteral("EP %1").arg(e.expertPar) << QStringLiteral("ES %1").arg(e.expertSlice);
    parts << QStringLiteral("microbatch %1").arg(e.microbatchSize)
          << QStringLiteral("interleaving %1").arg(e.pipelineInterleaving)
          << QStringLiteral("recompute %1").arg(recompute(e.activationRecompute));
    return parts.join(QStringLiteral(" · "));
}

} // namespace gapstudio::views::layoutformat
