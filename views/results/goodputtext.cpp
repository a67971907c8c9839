#include "results/goodputtext.h"

#include <QCoreApplication>
#include <QLocale>

namespace gapstudio::views {

namespace {

bool hasGoodput(const ScenarioResults &results)
{
    return results.goodput && results.goodput->valid && results.goodput->goodput > 0;
}

QString tr(const char *text)
{
    return QCoreApplication::translate("GoodputText", text);
}

} // namespace

QString goodputText(const ScenarioResults &results)
{
    if (!hasGoodput(results))
        return {};
    const model::GoodputResult &g = *results.goodput;
    const QLocale locale;
    return tr("%1 % of wall time trains (an interruption every %2 h, a checkpoint every %3 min)")
        .arg(locale.toString(100 * g.goodput, 'f', 1), locale.toString(g.mtti_s / 3600, 'f', 1),
             locale.toString(g.interval_s / 60, 'f', 0));
}

QString effectiveTokenRateText(const ScenarioResults &results)
{
    if (!hasGoodput(results) || !(results.goodput->effectiveTokensPerSecond > 0))
        return {};
    return tr("%1 tokens/s").arg(QLocale().toString(results.goodput->effectiveTokensPerSecond, 'f', 0));
}

} // namespace gapstudio::views
