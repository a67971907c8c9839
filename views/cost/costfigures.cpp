#include "cost/costfigures.h"

#include "charts/chartformat.h"
#include "gapstudio/model/units.h"

#include <QObject>

namespace gapstudio::views {

namespace {

using units::kSecondsPerDay;

} // namespace

QString money(double usd)
{
    return QStringLiteral("$") + chartformat::significant(usd);
}

namespace {

/// The figures of `c`, then those of the goodput `g` (model/goodput.h) unless it is null.
QList<CostFigure> figuresOf(const model::CostResult &c, const model::GoodputResult *g)
{
    const auto fmt
        = [](double v, const QString &unit) { return chartformat::significant(v) + QLatin1Char(' ') + unit; };
    QList<CostFigure> figures {
        { QStringLiteral("cluster_usd_per_hour"), QObject::tr("Cluster cost per hour"), c.clusterUsdPerHour,
          money(c.clusterUsdPerHour) },
        { QStringLiteral("usd_per_million_tokens"), QObject::tr("Cost per million tokens"),
          c.usdPerMillionTokens, money(c.usdPerMillionTokens) },
        { QStringLiteral("joules_per_token"), QObject::tr("Energy per token"), c.joulesPerToken,
          fmt(c.joulesPerToken, QStringLiteral("J")) },
        { QStringLiteral("megawatts"), QObject::tr("Power at the meter"), c.megawatts,
          fmt(c.megawatts, QStringLiteral("MW")) },
        { QStringLiteral("tokens_per_second_per_megawatt"), QObject::tr("Tokens per second per MW"),
          c.tokensPerSecondPerMegawatt, chartformat::significant(c.tokensPerSecondPerMegawatt) },
        { QStringLiteral("run_seconds"), QObject::tr("Time to train the token budget"), c.runSeconds,
          fmt(c.runSeconds / kSecondsPerDay, QObject::tr("days")) },
        { QStringLiteral("run_usd"), QObject::tr("Cost to train the token budget"), c.runUsd,
          money(c.runUsd) },
        { QStringLiteral("run_megawatt_hours"), QObject::tr("Energy to train the token budget"),
          c.runMegawattHours, fmt(c.runMegawattHours, QStringLiteral("MWh")) },
        { QStringLiteral("gpu_hours"), QObject::tr("GPU-hours to train the token budget"), c.gpuHours,
          chartformat::significant(c.gpuHours) },
    };
    if (!g)
        return figures;
    // With failures, checkpoints and restarts: the keys are `eval --goodput`'s.
    constexpr double kPercent = 100;
    figures << CostFigure { QStringLiteral("goodput"), QObject::tr("Goodput under failures"), g->goodput,
                            fmt(kPercent * g->goodput, QStringLiteral("%")) }
            << CostFigure { QStringLiteral("effective_training_days"),
                            QObject::tr("Time to train the token budget with failures"),
                            g->effectiveTrainingDays, fmt(g->effectiveTrainingDays, QObject::tr("days")) }
            << CostFigure { QStringLiteral("effective_usd_per_million_tokens"),
                            QObject::tr("Cost per million tokens with failures"),
                            g->effectiveUsdPerMillionTokens, money(g->effectiveUsdPerMillionTokens) };
    return figures;
}

} // namespace

QList<CostFigure> costFigures(const ScenarioResults &results)
{
    if (!results.ok() || !results.cost) // the same rule as every view: only a design that runs has a cost
        return {};
    return figuresOf(*results.cost, results.shownGoodput());
}

QList<CostFigure> costFigureNames()
{
    const model::GoodputResult none;
    return figuresOf(model::CostResult {}, &none);
}

} // namespace gapstudio::views
