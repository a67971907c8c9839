#include "cost/costchart.h"

#include "charts/chartformat.h"

#include <qcustomplot.h>

#include <optional>

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

void CostChart::rebuild(const model::Analysis &, const model::Analysis *baseline)
{
    // rebuild() runs only for results this chart shows (Ok): their cost is the pipeline's.
    const model::CostResult *now = results() && results()->cost ? &*results()->cost : nullptr;
    const model::CostResult *before
        = baseline && this->baseline() && this->baseline()->cost ? &*this->baseline()->cost : nullptr;
    if (!now)
        return;
    QCustomPlot *p = plot();
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const double currentKey = before ? 2 : 1;
    ticker->addTick(currentKey, before ? tr("Current") : tr("This design"));
    if (before)
        ticker->addTick(1, tr("Baseline"));
    // The shares by key: a design with hot spares or storage has shares the other may lack.
    std::vector<model::CostShare> shares = now->usdPerHour;
    if (before)
        for (const model::CostShare &old : before->usdPerHour)
            if (!valueOf(shares, old.key))
                shares.push_back({ old.key, old.label, 0 });
    QCPBars *below = nullptr;
    for (std::size_t i = 0; i < shares.size(); ++i) {
        const model::CostShare &share = shares[i];
        const double old = before ? valueOf(before->usdPerHour, share.key).value_or(0) : 0;
        if (share.value == 0 && old == 0)
            continue; // e.g. no facility charge: not drawn, not in the legend
        auto *bars = new QCPBars(p->yAxis, p->xAxis);
        bars->setObjectName(cf::qs(share.key));
        bars->setName(cf::qs(share.label));
        bars->setWidth(0.5);
        const QColor color = shareColor(share.key, int(i));
        bars->setPen(QPen(color.darker(120), 0.8));
        bars->setBrush(color);
        if (below)
            bars->moveAbove(below);
        below = bars;
        bars->addData(currentKey, share.value);
        setToolTip(
            bars, currentKey,
            tr("%1: %2 per hour (%3 of the total)")
                .arg(cf::qs(share.label), cf::usd(share.value),
                     cf::percent(now->clusterUsdPerHour > 0 ? share.value / now->clusterUsdPerHour : 0)));
        if (before) {
            bars->addData(1, old);
            setToolTip(bars, 1, tr("%1 (baseline): %2 per hour").arg(cf::qs(share.label), cf::usd(old)));
        }
    }
    const double high = std::max(now->clusterUsdPerHour, before ? before->clusterUsdPerHour : 0.0);
    addLabel(now->clusterUsdPerHour, currentKey, QStringLiteral("  ") + cf::usd(now->clusterUsdPerHour),
             Qt::AlignLeft | Qt::AlignVCenter);
    if (before)
        addLabel(before->clusterUsdPerHour, 1, QStringLiteral("  ") + cf::usd(before->clusterUsdPerHour),
                 Qt::AlignLeft | Qt::AlignVCenter);
    p->yAxis->setTicker(ticker);
    p->yAxis->setRange(0.4, (before ? 2 : 1) + 0.6);
    p->yAxis->grid()->setVisible(false);
    p->xAxis->setRange(0, high > 0 ? high * 1.25 : 1);
    p->xAxis->setLabel(
        tr("Cost of the cluster per hour ($): capital spread over %1 years, energy at $%2/kWh, PUE %3")
            .arg(cf::number(now->assumptions.depreciationYears, 1), cf::number(now->assumptions.usdPerKWh, 3),
                 cf::number(now->assumptions.pue, 2)));
    QString headline
        = tr("Cost per hour: %1 for %2 GPUs").arg(cf::usd(now->clusterUsdPerHour)).arg(now->bom.gpus);
    if (before)
        headline += tr("  (baseline %1)").arg(cf::usd(before->clusterUsdPerHour));
    setHeadline(headline);
}

QList<QStringList> CostChart::csvRows() const
{
    QList<QStringList> rows { { QStringLiteral("run"), QStringLiteral("share_key"), QStringLiteral("share"),
                                QStringLiteral("usd_per_hour") } };
    for (const auto &[results, run] : { std::pair { baseline(), QStringLiteral("baseline") },
                                        std::pair { this->results(), QStringLiteral("current") } }) {
        if (!results || !results->ok() || !results->cost || !currentAnalysis())
            continue;
        for (const model::CostShare &share : results->cost->usdPerHour)
            rows.append({ run, cf::qs(share.key), cf::qs(share.label), cf::exact(share.value) });
    }
    return rows;
}

} // namespace gapstudio::views
