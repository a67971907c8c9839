#include "charts/bandwidthchart.h"

#include "charts/chartformat.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

const QColor kPeak(0xD9, 0xD9, 0xD9);
const QColor kAchieved(0x4E, 0x79, 0xA7);
const QColor kRequired(0xE1, 0x57, 0x59);

/// A tier's name, without its users ("Network tier 0").
QString tierName(const model::TierUsage &tier)
{
    return cf::qs(tier.name);
}

/// The parallelisms communicating on a tier ("TP, EP"), or empty.
QString tierUsers(const model::TierUsage &tier)
{
    QStringList users;
    for (const std::string &user : tier.users)
        users << cf::qs(user);
    return users.join(QStringLiteral(", "));
}

/// A run drawn per tier: one bullet (peak behind, achieved in front), side by side with the pins'.
struct Run {
    ChartRun run;
    double offset;
    double width;
};

/// Every pin's run, then the current one, each at its place in a tier's category.
std::vector<Run> runsOf(const ChartRun &current, const std::vector<ChartRun> &pins)
{
    std::vector<ChartRun> runs = pins;
    runs.push_back(current);
    std::vector<Run> placed;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const cf::GroupSlot slot = cf::groupSlot(int(i), int(runs.size()));
        placed.push_back({ runs[i], slot.offset, slot.width });
    }
    return placed;
}

/// Tier names of every run, current order first (the runs' tiers are matched by name).
QStringList tierNames(const std::vector<Run> &runs)
{
    QStringList names;
    const auto add = [&names](const Run &run) {
        for (const model::TierUsage &tier : run.run.analysis->tiers)
            if (!names.contains(tierName(tier)))
                names << tierName(tier);
    };
    add(runs.back()); // the current run
    std::for_each(runs.begin(), runs.end() - 1, add);
    return names;
}

const model::TierUsage *findTier(const model::Analysis *analysis, const QString &name)
{
    if (!analysis)
        return nullptr;
    for (const model::TierUsage &tier : analysis->tiers)
        if (tierName(tier) == name)
            return &tier;
    return nullptr;
}

/// The category label: the tier's name, its users in the current run, and each pin's where they
/// differ.
QString tickLabel(const QString &name, const model::Analysis &current, const std::vector<ChartRun> &pins)
{
    QString text = name;
    const model::TierUsage *now = findTier(&current, name);
    if (now && !tierUsers(*now).isEmpty())
        text += QObject::tr("\nused by %1").arg(tierUsers(*now));
    for (const ChartRun &pin : pins) {
        const model::TierUsage *before = findTier(pin.analysis, name);
        if (before && (!now || tierUsers(*before) != tierUsers(*now)))
            text
                += QObject::tr("\n%1: %2")
                       .arg(pin.run, tierUsers(*before).isEmpty() ? QObject::tr("none") : tierUsers(*before));
    }
    return text;
}

QString describe(const model::TierUsage &tier, const QString &run)
{
    QString text = QObject::tr("%1 (%2)\nachieved %3 of peak %4\nbusy %5 of the step (%6)\n%7 moved per step")
                       .arg(cf::qs(tier.label), run, cf::gbps(tier.achieved_Bps), cf::gbps(tier.peak_Bps),
                            cf::percent(tier.busyFraction), cf::ms(tier.busySeconds), cf::bytes(tier.bytesPerStep));
    if (tier.requiredToHide_Bps > 0)
        text += QObject::tr("\n%1 would hide this tier's communication").arg(cf::gbps(tier.requiredToHide_Bps));
    return text;
}

/// A short horizontal dash: the "required to hide" level of a tier.
QCPScatterStyle dashStyle(const QColor &color)
{
    // A custom shape is drawn scaled by size / 6, pen included: 26 px wide, about 3.5 px thick.
    QPainterPath path;
    path.moveTo(-3, 0);
    path.lineTo(3, 0);
    return QCPScatterStyle(path, QPen(color, 0.8, Qt::SolidLine, Qt::FlatCap), Qt::NoBrush, 26);
}

/// The value axis: a log scale when tiers differ by more than 30x (HBM next to a scale-out
/// network), its bars then rising from `floor`.
struct ValueScale {
    bool log = false;
    double floor = 0, hi = 0; // GB/s
};

ValueScale scaleOf(const std::vector<Run> &runs)
{
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (const Run &run : runs)
        for (const model::TierUsage &tier : run.run.analysis->tiers)
            for (double v : {tier.peak_Bps, tier.achieved_Bps, tier.requiredToHide_Bps})
                if (v > 0) {
                    lo = std::min(lo, v / cf::kBpsPerGBps);
                    hi = std::max(hi, v / cf::kBpsPerGBps);
                }
    const bool logScale = hi > 0 && hi / lo > 30;
    return { logScale, logScale ? std::pow(10.0, std::floor(std::log10(lo)) - 1) : 0.0, hi };
}

void setValueAxis(QCustomPlot *p, const ValueScale &scale)
{
    p->yAxis->setLabel(QObject::tr("Bandwidth per GPU (GB/s)"));
    if (scale.log) {
        p->yAxis->setScaleType(QCPAxis::stLogarithmic);
        p->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        p->yAxis->setRange(scale.floor, scale.hi * 8);
    } else {
        p->yAxis->setRange(0, std::max(scale.hi, 1e-3) * 1.3);
    }
}

/// A tier's tooltip in `run`; for the current run, the differences from every pin.
QString tierTip(const model::TierUsage &tier, const ChartRun &run, const std::vector<ChartRun> &pins,
                const QString &name)
{
    QString text = describe(tier, run.longName());
    if (run.isPin())
        return text;
    for (const ChartRun &pin : pins)
        if (const model::TierUsage *base = findTier(pin.analysis, name))
            text += QObject::tr("\nvs %1: achieved %2 GB/s, busy %3 points")
                        .arg(pin.run,
                             cf::signedNumber((tier.achieved_Bps - base->achieved_Bps) / cf::kBpsPerGBps),
                             cf::signedNumber((tier.busyFraction - base->busyFraction) * cf::kPercent));
    return text;
}

/// A run's series: peak behind, achieved in front, the "needed to hide" dashes.
struct Series {
    QCPBars *peak, *achieved;
    QCPGraph *required;
};

Series newSeries(QCustomPlot *p, const ChartRun &run, double width, const QString &suffix, double floor)
{
    auto *peak = new QCPBars(p->xAxis, p->yAxis);
    peak->setName(QObject::tr("Peak bandwidth") + suffix);
    peak->setWidth(width);
    peak->setPen(QPen(QColor(0x9A, 0x9A, 0x9A), 1));
    peak->setBrush(run.isPin() ? kPeak.lighter(110) : kPeak);
    auto *achieved = new QCPBars(p->xAxis, p->yAxis);
    achieved->setName(QObject::tr("Achieved bandwidth") + suffix);
    achieved->setWidth(width * 0.55);
    achieved->setPen(run.pin > 1 ? QPen(kAchieved, 0.8) : QPen(Qt::NoPen)); // a hatch needs its outline
    achieved->setBrush(cf::pinBrush(kAchieved, run.pin));
    auto *required = new QCPGraph(p->xAxis, p->yAxis);
    required->setName(QObject::tr("Needed to hide its comm.") + suffix);
    required->setLineStyle(QCPGraph::lsNone);
    required->setScatterStyle(dashStyle(run.isPin() ? cf::baselineShade(kRequired) : kRequired));
    for (QCPBars *bars : { peak, achieved })
        bars->setBaseValue(floor);
    return { peak, achieved, required };
}

} // namespace

BandwidthChart::BandwidthChart(QWidget *parent)
    : ChartView(QStringLiteral("bandwidth"), tr("Bandwidth per tier"), parent)
{
}

void BandwidthChart::rebuild(const model::Analysis &current, const std::vector<ChartRun> &pins)
{
    QCustomPlot *p = plot();
    const std::vector<Run> runs = runsOf(currentRun(), pins);
    const QStringList labels = tierNames(runs);
    const ValueScale scale = scaleOf(runs);
    const bool logScale = scale.log;
    const double floor = scale.floor;
    // One pin: each series twice, "(baseline)" and "(current)". Several: the current run's series,
    // and one key per pin (its hatch).
    const bool keyed = numbersPins();

    for (const Run &run : runs) {
        const ChartRun &r = run.run;
        const QString suffix = pins.empty() || keyed ? QString() : tr(" (%1)").arg(r.run);
        const Series series = newSeries(p, r, run.width, suffix, floor);
        QCPBars *peak = series.peak, *achieved = series.achieved;
        QCPGraph *required = series.required;
        if (keyed && r.isPin())
            for (QCPAbstractPlottable *plottable :
                 std::initializer_list<QCPAbstractPlottable *> { peak, achieved, required })
                plottable->removeFromLegend();

        for (int i = 0; i < labels.size(); ++i) {
            const model::TierUsage *tier = findTier(r.analysis, labels[i]);
            if (!tier)
                continue;
            const double key = i + 1 + run.offset;
            const QString text = tierTip(*tier, r, pins, labels[i]);
            // A log axis cannot show a zero-height bar: leave it out.
            if (!logScale || tier->peak_Bps > 0)
                peak->addData(key, tier->peak_Bps / cf::kBpsPerGBps);
            if (!logScale || tier->achieved_Bps > 0)
                achieved->addData(key, tier->achieved_Bps / cf::kBpsPerGBps);
            setToolTip(peak, key, text);
            setToolTip(achieved, key, text);
            if (tier->requiredToHide_Bps > 0) {
                required->addData(key, tier->requiredToHide_Bps / cf::kBpsPerGBps);
                setToolTip(required, key, text);
            }
            const double top = std::max(tier->peak_Bps, tier->requiredToHide_Bps) / cf::kBpsPerGBps;
            QCPItemText *busy = addLabel(key, std::max(top, floor), tr("busy\n%1").arg(cf::percent(tier->busyFraction, 0)),
                                         Qt::AlignHCenter | Qt::AlignBottom);
            busy->setFont(QFont(font().family(), runs.size() > 3 ? 7 : 8));
            busy->setPadding(QMargins(2, 0, 2, 6)); // clear of the "needed to hide" dash
        }
        if (required->dataCount() == 0)
            p->removePlottable(required);
    }
    addPinKeys(pins, [](const ChartRun &pin) { return cf::pinBrush(kAchieved, pin.pin); });

    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < labels.size(); ++i)
        ticker->addTick(i + 1, tickLabel(labels[i], current, pins));
    p->xAxis->setTicker(ticker);
    p->xAxis->grid()->setVisible(false);
    p->xAxis->setRange(0.4, labels.size() + 0.6);
    setValueAxis(p, scale);
    const QString compared = pins.empty()     ? QString()
                             : !numbersPins() ? tr(": current vs baseline")
                                              : tr(": current vs %n pins", nullptr, int(pins.size()));
    setHeadline(tr("Bandwidth per tier") + compared + (logScale ? tr(" (log scale)") : QString()));
}

QList<QStringList> BandwidthChart::csvRows() const
{
    QList<QStringList> csv{{QStringLiteral("run"), QStringLiteral("tier"), QStringLiteral("bytes_per_step"),
                            QStringLiteral("busy_ms"), QStringLiteral("busy_percent"), QStringLiteral("peak_GBps"),
                            QStringLiteral("achieved_GBps"), QStringLiteral("required_to_hide_GBps")}};
    const model::Analysis *current = currentAnalysis();
    if (!current)
        return csv;
    for (const Run &run : runsOf(currentRun(), pinRuns()))
        for (const model::TierUsage &t : run.run.analysis->tiers)
            csv.append({ run.run.run, cf::qs(t.label), cf::exact(t.bytesPerStep),
                         cf::exact(t.busySeconds * cf::kMsPerSecond),
                         cf::exact(t.busyFraction * cf::kPercent), cf::exact(t.peak_Bps / cf::kBpsPerGBps),
                         cf::exact(t.achieved_Bps / cf::kBpsPerGBps),
                         cf::exact(t.requiredToHide_Bps / cf::kBpsPerGBps) });
    return csv;
}

} // namespace gapstudio::views
