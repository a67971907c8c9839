#include "results/goodputtext.h"

#include "gapstudio/model/units.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace gapstudio::views {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("GoodputText", text);
}

} // namespace

QString goodputText(const ScenarioResults &results)
{
    const model::GoodputResult *shown = results.shownGoodput();
    if (!shown)
        return {};
    const model::GoodputResult &g = *shown;
    const QLocale locale;
    const QString percent = locale.toString(100 * g.goodput, 'f', 1);
    if (!std::isfinite(g.mtti_s)) // no failures assumed: only checkpoints, if any, cost time
        return tr("%1 % of wall time trains (no interruptions assumed)").arg(percent);
    constexpr double kSecondsPerMinute = 60;
    return tr("%1 % of wall time trains (an interruption every %2 h, a checkpoint every %3 min)")
        .arg(percent, locale.toString(g.mtti_s / units::kSecondsPerHour, 'f', 1),
             locale.toString(g.interval_s / kSecondsPerMinute, 'f', 0));
}

QString effectiveTokenRateText(const ScenarioResults &results)
{
    const model::GoodputResult *g = results.shownGoodput();
    if (!g || !(g->effectiveTokensPerSecond > 0))
        return {};
    return tr("%1 tokens/s").arg(QLocale().toString(g->effectiveTokensPerSecond, 'f', 0));
}

} // namespace gapstudio::views
