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

/// The network tier each communicating parallelism (degree > 1) uses, 0 = scale-up:
/// "TP 0, PP 1, DP 2"; "none" when every degree is 1.
[[nodiscard]] inline QString tiers(const model::Execution &e)
{
    struct Use {
        const char *name;
        std::int64_t degree, tier;
    };
    const Use uses[] = {
        { "TP", e.tensorPar, e.tensorParNet },
        { "CP", e.contextPar, e.contextParNet },
        { "PP", e.pipelinePar, e.pipelineParNet },
        { "DP", e.dataPar, e.dataParNet },
        { "EP", e.modelMoE ? e.expertPar : 1, e.expertParNet },
        { "ES", e.modelMoE ? e.expertSlice : 1, e.expertSliceNet },
        { "expert DP", e.modelMoE ? e.dataParExp : 1, e.dataParExpNet },
    };
    QStringList parts;
    for (const Use &u : uses)
        if (u.degree > 1)
            parts << QStringLiteral("%1 %2").arg(QLatin1String(u.name)).arg(u.tier);
    return parts.isEmpty() ? QStringLiteral("none") : parts.join(QStringLiteral(", "));
}

/// "TP 8 · PP 16 · DP 32 · microbatch 1 · interleaving 2 · recompute full · tiers TP 0, PP 1, DP 1",
/// with CP, EP, ES and expert DP when they apply, and ZeRO-1 and the offloads when they are on:
/// every choice a layout search makes, so that two different layouts never read the same.
[[nodiscard]] inline QString summary(const model::Execution &e)
{
    QStringList parts { QStringLiteral("TP %1").arg(e.tensorPar) };
    if (e.contextPar > 1)
        parts << QStringLiteral("CP %1").arg(e.contextPar);
    parts << QStringLiteral("PP %1").arg(e.pipelinePar) << QStringLiteral("DP %1").arg(e.dataPar);
    if (e.modelMoE)
        parts << QStringLiteral("EP %1").arg(e.expertPar) << QStringLiteral("ES %1").arg(e.expertSlice)
              << QStringLiteral("expert DP %1").arg(e.dataParExp);
    parts << QStringLiteral("microbatch %1").arg(e.microbatchSize)
          << QStringLiteral("interleaving %1").arg(e.pipelineInterleaving)
          << QStringLiteral("recompute %1").arg(recompute(e.activationRecompute));
    if (e.optimizerSharding)
        parts << QStringLiteral("ZeRO-1");
    if (e.weightOffload || e.activationsOffload || e.optimizerOffload)
        parts << QStringLiteral("offload %1").arg(offload(e));
    parts << QStringLiteral("tiers %1").arg(tiers(e));
    return parts.join(QStringLiteral(" · "));
}

} // namespace gapstudio::views::layoutformat
