#include "cost/costchart.h"

#include "charts/chartformat.h"

#include <qcustomplot.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

/// Capital in the palette's cool colours, energy and the facility charge in warm ones.
QColor shareColor(const std::string &key, int index)
{
    static const std::pair<const char *, QRgb> colors[] = {
        { "gpus", 0x4E79A7 },   { "hosts", 0xA0CBE8 },   { "scale_up", 0x59A14F }, { "scale_out", 0x8CD17D },
        { "spares", 0x76B7B2 }, { "storage", 0xB07AA1 }, { "energy", 0xF28E2B },   { "facility", 0xE15759 },
    };
    for (const auto &[name, rgb] : colors)
        if (key == name)
            return QColor::fromRgb(rgb);
    return cf::componentColor(key, index);
}

/// The value of the share with `key`, if there is one.
std::optional<double> valueOf(const std::vector<model::CostShare> &shares, const std::string &key)
{
    for (const model::CostShare &share : shares)
        if (share.key == key)
            return share.value;
    return std::nullopt;
}

/// A bar of the chart: a run's cost at `position`, pins first (those with a cost), the current run last.
struct CostBar {
    ChartRun run;
    const model::CostResult *cost;
    double position;
    QString label;
};

std::vector<CostBar> barsOf(const ChartRun &current, const std::vector<ChartRun> &pins)
{
    std::vector<CostBar> bars;
    double position = 1;
    for (const ChartRun &pin : pins)
        if (pin.results->cost)
            bars.push_back({ pin, &*pin.results->cost, position++,
                             pin.run.left(1).toUpper() + pin.run.mid(1) }); // "Baseline", "Pin 2"
    bars.push_back({ current, &*current.results->cost, position,
                     bars.empty() ? QObject::tr("This design") : QObject::tr("Current") });
    return bars;
}

/// The shares by key, the current run's first: a design with hot spares or storage has shares
/// another may lack.
std::vector<model::CostShare> sharesOf(const std::vector<CostBar> &bars)
{
    std::vector<model::CostShare> shares = bars.back().cost->usdPerHour;
    for (const CostBar &bar : bars)
        for (const model::CostShare &other : bar.cost->usdPerHour)
            if (!valueOf(shares, other.key))
                shares.push_back({ other.key, other.label, 0 });
    return shares;
}

} // namespace

CostChart::CostChart(QWidget *parent)
    : ChartView(QStringLiteral("cost_per_hour"), tr("Cost per hour"), parent)
{
}

QCPBars *CostChart::share(const QString &key) const
{
    for (int i = 0; i < plot()->plottableCount(); ++i)
        if (auto *bars = qobject_cast<QCPBars *>(plot()->plottable(i)); bars && bars->objectName() == key)
            return bars;
    return nullptr;
}

void CostChart::rebuild(const model::Analysis &, const std::vector<ChartRun> &pins)
{
    // rebuild() runs only for results this chart shows (Ok): their cost is the pipeline's.
    const ChartRun current = currentRun();
    if (!current.results || !current.results->cost)
        return;
    const std::vector<CostBar> bars = barsOf(current, pins);
    const model::CostResult &now = *bars.back().cost;
    QCustomPlot *p = plot();
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (const CostBar &bar : bars)
        ticker->addTick(bar.position, bar.label);
    QCPBars *below = nullptr;
    const std::vector<model::CostShare> shares = sharesOf(bars);
    for (std::size_t i = 0; i < shares.size(); ++i) {
        const model::CostShare &share = shares[i];
        if (std::all_of(bars.begin(), bars.end(), [&](const CostBar &bar) {
                return valueOf(bar.cost->usdPerHour, share.key).value_or(0) == 0;
            }))
            continue; // e.g. no facility charge: not drawn, not in the legend
        auto *series = new QCPBars(p->yAxis, p->xAxis);
        series->setObjectName(cf::qs(share.key));
        series->setName(cf::qs(share.label));
        series->setWidth(0.5);
        const QColor color = shareColor(share.key, int(i));
        series->setPen(QPen(color.darker(120), 0.8));
        series->setBrush(color);
        if (below)
            series->moveAbove(below);
        below = series;
        for (const CostBar &bar : bars) {
            const double value = valueOf(bar.cost->usdPerHour, share.key).value_or(0);
            series->addData(bar.position, value);
            setToolTip(
                series, bar.position,
                bar.run.isPin()
                    ? tr("%1 (%2): %3 per hour").arg(series->name(), bar.run.longName(), cf::usd(value))
                    : tr("%1: %2 per hour (%3 of the total)")
                          .arg(series->name(), cf::usd(value),
                               cf::percent(now.clusterUsdPerHour > 0 ? value / now.clusterUsdPerHour : 0)));
        }
    }
    addPinKeys(pins); // the axis names the runs
    double high = 0;
    for (const CostBar &bar : bars) {
        high = std::max(high, bar.cost->clusterUsdPerHour);
        addLabel(bar.cost->clusterUsdPerHour, bar.position,
                 QStringLiteral("  ") + cf::usd(bar.cost->clusterUsdPerHour),
                 Qt::AlignLeft | Qt::AlignVCenter);
    }
    p->yAxis->setTicker(ticker);
    p->yAxis->setRange(0.4, bars.back().position + 0.6);
    p->yAxis->grid()->setVisible(false);
    p->xAxis->setRange(0, high > 0 ? high * 1.25 : 1);
    p->xAxis->setLabel(
        tr("Cost of the cluster per hour ($): capital spread over %1 years, energy at $%2/kWh, PUE %3")
            .arg(cf::number(now.assumptions.depreciationYears, 1), cf::number(now.assumptions.usdPerKWh, 3),
                 cf::number(now.assumptions.pue, 2)));
    QString headline
        = tr("Cost per hour: %1 for %2 GPUs").arg(cf::usd(now.clusterUsdPerHour)).arg(now.bom.gpus);
    if (bars.size() > 1)
        headline += tr("  (%1 %2)").arg(bars.front().run.run, cf::usd(bars.front().cost->clusterUsdPerHour));
    setHeadline(headline);
}

QList<QStringList> CostChart::csvRows() const
{
    QList<QStringList> rows { { QStringLiteral("run"), QStringLiteral("share_key"), QStringLiteral("share"),
                                QStringLiteral("usd_per_hour") } };
    const ChartRun current = currentRun();
    if (!current.analysis || !current.results->cost)
        return rows;
    for (const CostBar &bar : barsOf(current, pinRuns()))
        for (const model::CostShare &share : bar.cost->usdPerHour)
            rows.append({ bar.run.run, cf::qs(share.key), cf::qs(share.label), cf::exact(share.value) });
    return rows;
}

} // namespace gapstudio::views
