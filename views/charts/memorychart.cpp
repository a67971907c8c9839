#include "charts/memorychart.h"

#include "charts/chartformat.h"

#include <qcustomplot.h>

#include <algorithm>
#include <vector>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

const QColor kTier2(0x76, 0xB7, 0xB2);
const QColor kOverflow(0xD6, 0x27, 0x28);
/// The part of a bar above capacity: red hatching over the components, which stay visible beneath
/// it. A translucent red tint mixed with the components' colours into another component's
/// (activations' yellow under it read as the checkpoints' orange).
const QBrush kOverflowBrush(kOverflow, Qt::BDiagPattern);
constexpr double kWidth = 0.6;

/// One bar: a run's tier 1 or tier 2, drawn at `position`.
struct Bar {
    ChartRun run;
    int tier; // 1 or 2
    double position;
    const model::MemoryUse *memory;
    [[nodiscard]] double need_B() const { return tier == 1 ? memory->tier1Need_B : memory->tier2Need_B; }
    [[nodiscard]] double capacity_B() const { return tier == 1 ? memory->tier1Capacity_B : memory->tier2Capacity_B; }
};

/// Tier 1 of every pin and the current run (1, 2, ...), then their tier 2 when any run has one.
std::vector<Bar> barsOf(const ChartRun &current, const std::vector<ChartRun> &pins)
{
    std::vector<ChartRun> runs = pins;
    runs.push_back(current);
    const bool tier2 = std::any_of(runs.begin(), runs.end(), [](const ChartRun &run) {
        return run.analysis->memory.tier2Capacity_B > 0;
    });
    std::vector<Bar> bars;
    double position = 1;
    for (int tier = 1; tier <= (tier2 ? 2 : 1); ++tier) {
        for (const ChartRun &run : runs)
            bars.push_back({ run, tier, position++, &run.analysis->memory });
        position += 0.4;
    }
    return bars;
}

QString barLabel(const Bar &bar, bool compared)
{
    QString text = bar.tier == 1 ? QObject::tr("Tier 1 (HBM)") : QObject::tr("Tier 2 (offload)");
    return compared ? text + QStringLiteral("\n(%1)").arg(bar.run.run) : text;
}

/// The tier-1 components of all bars, one stacked series each (current order first).
std::vector<const model::TimeComponent *> tier1Components(const std::vector<Bar> &bars)
{
    std::vector<const model::TimeComponent *> components;
    for (const Bar &bar : bars)
        for (const model::TimeComponent &c : bar.memory->tier1)
            if (std::none_of(components.begin(), components.end(), [&](auto *k) { return k->key == c.key; }))
                components.push_back(&c);
    return components;
}

/// One tier-1 component's series, stacked on `below` (if any).
QCPBars *newComponentSeries(QCustomPlot *p, const model::TimeComponent &component, int colorIndex,
                            QCPBars *below)
{
    auto *series = new QCPBars(p->xAxis, p->yAxis);
    series->setName(cf::qs(component.label));
    series->setWidth(kWidth);
    const QColor color = cf::componentColor(component.key, colorIndex);
    series->setPen(QPen(color.darker(125), 0.8));
    series->setBrush(color);
    if (below)
        series->moveAbove(below);
    return series;
}

/// Tier 2 (host memory, often 5-10x the HBM): its bars, on the right axis' own scale.
QCPBars *newTier2Series(QCustomPlot *p)
{
    auto *tier2 = new QCPBars(p->xAxis, p->yAxis2);
    tier2->setName(QObject::tr("Tier-2 use"));
    tier2->setWidth(kWidth);
    tier2->setPen(QPen(kTier2.darker(125), 0.8));
    tier2->setBrush(kTier2);
    return tier2;
}

/// The label over a bar: need of capacity (over capacity: the reference's message in numbers) and,
/// for the current run, the change from the first pin. `narrow`: more than two bars per tier, on two
/// lines.
QString barText(const Bar &bar, const model::Analysis *baseline, bool narrow)
{
    QString text
        = bar.need_B() > bar.capacity_B()
              ? QObject::tr("needs %1,\nhas %2").arg(cf::gib(bar.need_B()), cf::gib(bar.capacity_B()))
          : narrow ? QObject::tr("%1\nof %2").arg(cf::gib(bar.need_B()), cf::gib(bar.capacity_B()))
                   : QObject::tr("%1 of %2").arg(cf::gib(bar.need_B()), cf::gib(bar.capacity_B()));
    if (baseline && !bar.run.isPin()) {
        const double base = bar.tier == 1 ? baseline->memory.tier1Need_B : baseline->memory.tier2Need_B;
        text += QStringLiteral("\n(%1 GiB)").arg(cf::signedNumber((bar.need_B() - base) / cf::kBytesPerGiB));
    }
    return text;
}

/// A dashed line at the bar's capacity, a little wider than the bar.
void addCapacityLine(QCustomPlot *p, const Bar &bar, QCPAxis *valueAxis, double capacity_GiB, const QPen &pen)
{
    auto *line = new QCPItemLine(p);
    line->start->setAxes(p->xAxis, valueAxis);
    line->end->setAxes(p->xAxis, valueAxis);
    line->start->setCoords(bar.position - kWidth * 0.75, capacity_GiB);
    line->end->setCoords(bar.position + kWidth * 0.75, capacity_GiB);
    line->setPen(pen);
}

/// The part of the bar above capacity, outlined in red and hatched; its legend entry (bars
/// without data) is made once, in `legendKey`.
void addOverflow(QCustomPlot *p, const Bar &bar, QCPAxis *valueAxis, double need_GiB, double capacity_GiB,
                 QCPBars *&legendKey)
{
    auto *rect = new QCPItemRect(p);
    rect->topLeft->setAxes(p->xAxis, valueAxis);
    rect->bottomRight->setAxes(p->xAxis, valueAxis);
    rect->topLeft->setCoords(bar.position - kWidth / 2, need_GiB);
    rect->bottomRight->setCoords(bar.position + kWidth / 2, capacity_GiB);
    rect->setPen(QPen(kOverflow, 2.5));
    rect->setBrush(kOverflowBrush);
    if (!legendKey) {
        legendKey = new QCPBars(p->xAxis, p->yAxis);
        legendKey->setObjectName(QStringLiteral("overflowKey"));
        legendKey->setName(QObject::tr("Over capacity"));
        legendKey->setPen(QPen(kOverflow, 2.5));
        legendKey->setBrush(kOverflowBrush);
    }
}

/// Tier 2's own scale on the right axis and a dotted line between the tiers' bars, after `runs`
/// bars of tier 1 (barsOf: 1, ..., runs | runs + 1.4, ...).
void showTier2Axis(QCustomPlot *p, double top_GiB, int runs)
{
    p->yAxis2->setVisible(true);
    p->yAxis2->setLabel(QObject::tr("Tier 2 per GPU (GiB, right scale)"));
    p->yAxis2->setRange(0, std::max(top_GiB, 1e-3) * 1.25);
    auto *divider = new QCPItemStraightLine(p);
    const double x = runs + 0.7;
    divider->point1->setCoords(x, 0);
    divider->point2->setCoords(x, 1);
    divider->setPen(QPen(QColor(0xA0, 0xA0, 0xA0), 1, Qt::DotLine));
}

QString headlineOf(const model::Analysis &current, const std::vector<ChartRun> &pins)
{
    const model::MemoryUse &m = current.memory;
    QString headline
        = m.tier1Need_B > m.tier1Capacity_B
              ? QObject::tr("Memory: HBM over capacity, needs %1, has %2")
                    .arg(cf::gib(m.tier1Need_B), cf::gib(m.tier1Capacity_B))
              : QObject::tr("Memory: %1 of %2 HBM").arg(cf::gib(m.tier1Need_B), cf::gib(m.tier1Capacity_B));
    if (!pins.empty()) {
        const model::MemoryUse &first = pins.front().analysis->memory;
        headline += QObject::tr("  (%1 %2, %3 GiB)")
                        .arg(pins.front().run, cf::gib(first.tier1Need_B),
                             cf::signedNumber((m.tier1Need_B - first.tier1Need_B) / cf::kBytesPerGiB));
    }
    return headline;
}

} // namespace

MemoryChart::MemoryChart(QWidget *parent)
    : ChartView(QStringLiteral("memory"), tr("Memory per GPU"), parent)
{
}

void MemoryChart::rebuild(const model::Analysis &current, const std::vector<ChartRun> &pins)
{
    QCustomPlot *p = plot();
    const std::vector<Bar> bars = barsOf(currentRun(), pins);
    const model::Analysis *baseline = pins.empty() ? nullptr : pins.front().analysis; // differences from it

    // Tier-1 components, one stacked series each (union of both runs, current order first).
    QCPBars *below = nullptr;
    int colorIndex = 0;
    for (const model::TimeComponent *component : tier1Components(bars)) {
        QCPBars *series = newComponentSeries(p, *component, colorIndex++, below);
        below = series;
        for (const Bar &bar : bars) {
            if (bar.tier != 1)
                continue;
            const auto it = std::find_if(bar.memory->tier1.begin(), bar.memory->tier1.end(),
                                         [&](const model::TimeComponent &c) { return c.key == component->key; });
            const double bytes = it == bar.memory->tier1.end() ? 0.0 : it->seconds; // `seconds` holds bytes
            series->addData(bar.position, bytes / cf::kBytesPerGiB);
            setToolTip(series, bar.position,
                       tr("%1 (%2)\n%3 of %4 needed in tier 1")
                           .arg(series->name(), bar.run.longName(), cf::gib(bytes),
                                cf::gib(bar.memory->tier1Need_B)));
        }
    }
    QCPBars *tier2 = newTier2Series(p);

    // A legend entry for the capacity lines (a graph without data).
    auto *capacityKey = new QCPGraph(p->xAxis, p->yAxis);
    capacityKey->setName(tr("Capacity"));
    const QPen capacityPen(QColor(0x30, 0x30, 0x30), 2, Qt::DashLine);
    capacityKey->setPen(capacityPen);

    QCPBars *overflowKey = nullptr;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double top_GiB[3] = {0, 0, 0}; // per tier
    for (const Bar &bar : bars) {
        QCPAxis *valueAxis = bar.tier == 1 ? p->yAxis : p->yAxis2;
        ticker->addTick(bar.position, barLabel(bar, !pins.empty()));
        const double need = bar.need_B() / cf::kBytesPerGiB, capacity = bar.capacity_B() / cf::kBytesPerGiB;
        if (bar.tier == 2) {
            tier2->addData(bar.position, need);
            setToolTip(tier2, bar.position,
                       tr("Tier 2 (%1)\nneeds %2, has %3")
                           .arg(bar.run.longName(), cf::gib(bar.need_B()), cf::gib(bar.capacity_B())));
        }
        addCapacityLine(p, bar, valueAxis, capacity, capacityPen);

        const bool overflow = bar.need_B() > bar.capacity_B();
        if (overflow) // the part above capacity, outlined in red
            addOverflow(p, bar, valueAxis, need, capacity, overflowKey);
        QCPItemText *label
            = addLabel(bar.position, std::max(need, capacity), barText(bar, baseline, pins.size() > 1),
                       Qt::AlignHCenter | Qt::AlignBottom, valueAxis);
        label->setFont(QFont(font().family(), 8, overflow ? QFont::Bold : QFont::Normal));
        if (overflow)
            label->setColor(kOverflow);
        top_GiB[bar.tier] = std::max({top_GiB[bar.tier], need, capacity});
    }
    if (tier2->dataCount() == 0) {
        p->removePlottable(tier2);
    } else {
        showTier2Axis(p, top_GiB[2], int(pins.size()) + 1);
    }

    p->xAxis->setTicker(ticker);
    p->xAxis->grid()->setVisible(false);
    p->xAxis->setRange(0.3, bars.back().position + 0.7);
    p->yAxis->setRange(0, std::max(top_GiB[1], 1e-3) * 1.25);
    p->yAxis->setLabel(p->yAxis2->visible() ? tr("Tier 1 (HBM) per GPU (GiB)") : tr("Memory per GPU (GiB)"));

    addPinKeys(pins); // the axis names the runs
    setHeadline(headlineOf(current, pins));
}

QList<QStringList> MemoryChart::csvRows() const
{
    QList<QStringList> csv{{QStringLiteral("run"), QStringLiteral("tier"), QStringLiteral("item_key"),
                            QStringLiteral("item"), QStringLiteral("GiB")}};
    const model::Analysis *current = currentAnalysis();
    if (!current)
        return csv;
    for (const Bar &bar : barsOf(currentRun(), pinRuns())) {
        const QString tier = QString::number(bar.tier);
        const QString &run = bar.run.run;
        if (bar.tier == 1)
            for (const model::TimeComponent &c : bar.memory->tier1)
                csv.append(
                    { run, tier, cf::qs(c.key), cf::qs(c.label), cf::exact(c.seconds / cf::kBytesPerGiB) });
        csv.append(
            { run, tier, QStringLiteral("need"), tr("Needed"), cf::exact(bar.need_B() / cf::kBytesPerGiB) });
        csv.append({ run, tier, QStringLiteral("capacity"), tr("Capacity"),
                     cf::exact(bar.capacity_B() / cf::kBytesPerGiB) });
    }
    return csv;
}

} // namespace gapstudio::views
