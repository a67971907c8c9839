#include "explore/variantschart.h"

#include "charts/chartformat.h"

#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

enum Group { Fabric, Collectives, Overlap, DatatypeGroup, Other, GroupCount };

Group groupOf(const model::SweepPoint &point)
{
    const std::string &l = point.label;
    if (l == "as designed" || l == "full-flat fabric")
        return Fabric;
    if (l == "hardware collectives" || l == "software collectives")
        return Collectives;
    if (l == "overlap on" || l == "overlap off")
        return Overlap;
    if (point.layout && l == model::datatypeName(point.layout->datatype))
        return DatatypeGroup;
    return Other;
}

QString rateText(double rate)
{
    return cf::number(rate, rate >= 100 ? 0 : rate >= 10 ? 1 : 2) + QStringLiteral(" samples/s");
}

QString timeText(double seconds)
{
    return seconds >= 1 ? cf::number(seconds, 2) + QStringLiteral(" s") : cf::ms(seconds);
}

QString elided(const QString &text, qsizetype length = 110)
{
    return text.size() <= length ? text : text.left(length - 1) + QStringLiteral("…");
}

} // namespace

VariantsChart::VariantsChart(QWidget *parent)
    : ExploreChart(QStringLiteral("variants"), tr("Design variants (same GPUs, LLM and layout)"), parent)
{
    showMessage(tr("Set a design to compare its variants"));
}

void VariantsChart::setData(std::vector<model::SweepPoint> points, const model::System &system)
{
    mPoints = std::move(points);
    const std::size_t tiers = system.networks.size();
    mFlat = model::isFullFlat(system);
    mFabric = mFlat        ? tr("full-flat")
              : tiers == 2 ? tr("two-tier")
              : tiers > 2  ? tr("%1-tier").arg(tiers)
                           : QString();
    rebuild();
}

void VariantsChart::setMetric(Metric metric)
{
    if (metric == mMetric)
        return;
    mMetric = metric;
    if (!mPoints.empty())
        rebuild();
}

const model::SweepPoint *VariantsChart::designPoint() const
{
    for (const model::SweepPoint &point : mPoints)
        if (point.label == "as designed")
            return &point;
    return nullptr;
}

std::optional<double> VariantsChart::keyOf(const QString &label) const
{
    const auto it = mKeys.constFind(label);
    if (it == mKeys.cend())
        return std::nullopt;
    return *it;
}

void VariantsChart::rebuild()
{
    clearPlot();
    mKeys.clear();
    if (mPoints.empty()) {
        showMessage(tr("No variants: the design has none to compare"));
        return;
    }
    QCustomPlot *p = plot();
    const bool rate = mMetric == Metric::SampleRate;
    const auto valueOf = [rate](const model::SweepPoint &point) {
        return rate ? point.evaluation.stats.sample_rate : point.evaluation.stats.total_time;
    };
    const auto valueText = [rate](double v) { return rate ? rateText(v) : timeText(v); };

    // The design as it is: the reference of every other bar.
    const model::SweepPoint *designed = designPoint();
    const bool haveReference = designed && designed->evaluation.ok && valueOf(*designed) > 0;
    const double reference = haveReference ? valueOf(*designed) : 0;
    const QString designedType
        = designed && designed->layout ? QString::fromUtf8(model::datatypeName(designed->layout->datatype)) : QString();

    setSubtitle((rate ? tr("Training throughput (samples/s; longer is better)")
                      : tr("Step time (shorter is better)"))
                + tr(" with one thing changed per bar; the dotted line is the design as it is"));

    // Categories run down the left axis (key axis = yAxis), values along the bottom.
    const auto makeBars = [p](const QString &name, QColor colour) {
        auto *bars = new QCPBars(p->yAxis, p->xAxis);
        bars->setName(name);
        bars->setPen(Qt::NoPen);
        bars->setBrush(colour);
        bars->setWidth(0.62);
        return bars;
    };
    QCPBars *same = makeBars(tr("As designed (or the same)"), QColor(0x4E79A7));
    QCPBars *better = makeBars(rate ? tr("Faster than as designed") : tr("Shorter step than as designed"),
                               QColor(0x59A14F));
    QCPBars *worse = makeBars(rate ? tr("Slower than as designed") : tr("Longer step than as designed"),
                              QColor(0xE15759));

    std::array<std::vector<const model::SweepPoint *>, GroupCount> groups;
    for (const model::SweepPoint &point : mPoints)
        if (!(mFlat && point.label == "full-flat fabric")) // on a full-flat design: the design itself
            groups[groupOf(point)].push_back(&point);
    // Fabric: as designed first, then full-flat.
    std::stable_sort(groups[Fabric].begin(), groups[Fabric].end(),
                     [](const model::SweepPoint *a, const model::SweepPoint *) { return a->label == "as designed"; });

    QStringList types;
    for (const model::SweepPoint *point : groups[DatatypeGroup])
        types << QString::fromStdString(point->label);
    const std::array<QString, GroupCount> headers {
        groups[Fabric].size() > 1 ? tr("Fabric: %1 (as designed) vs full-flat").arg(mFabric)
        : mFabric.isEmpty()       ? tr("Fabric: as designed")
                                  : tr("Fabric: %1 (as designed)").arg(mFabric),
        tr("Collectives: hardware (in-network) vs software (ring)"),
        tr("Overlap: compute/communication on vs off"),
        tr("Datatype: %1").arg(types.join(QStringLiteral(", "))),
        tr("Other"),
    };

    double extent = 0;
    for (const model::SweepPoint &point : mPoints)
        if (point.evaluation.ok)
            extent = std::max(extent, valueOf(point));
    extent = extent > 0 ? extent * 1.42 : 1;

    // The reference line first: the value labels are drawn over it.
    if (haveReference) {
        auto *line = new QCPItemStraightLine(p);
        line->point1->setCoords(reference, 0);
        line->point2->setCoords(reference, 1);
        line->setPen(QPen(QColor(0x30, 0x30, 0x30), 1.2, Qt::DotLine));
        auto *label = new QCPItemText(p);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(reference, 0.0);
        label->setPositionAlignment(Qt::AlignTop | Qt::AlignHCenter);
        label->setText(tr("as designed: %1").arg(valueText(reference)));
        label->setColor(QColor(0x30, 0x30, 0x30));
        label->setPadding(QMargins(4, 2, 4, 2));
        label->setBrush(QColor(255, 255, 255, 220));
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    QFont headerFont = font();
    headerFont.setBold(true);
    double key = 0;
    for (int g = 0; g < GroupCount; ++g) {
        if (groups[g].empty())
            continue;
        key += key > 0 ? 1.5 : 1; // a gap between groups
        auto *header = new QCPItemText(p);
        header->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        header->position->setTypeY(QCPItemPosition::ptPlotCoords);
        header->position->setCoords(0.005, key);
        header->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        header->setFont(headerFont);
        header->setColor(QColor(0x30, 0x30, 0x30));
        header->setText(headers[g]);
        header->setPadding(QMargins(2, 0, 2, 0));
        for (const model::SweepPoint *point : groups[g]) {
            key += 1;
            const QString label = QString::fromStdString(point->label);
            mKeys.insert(label, key);
            QString tick = label;
            if (point->label == "as designed")
                tick = mFabric.isEmpty() ? tr("as designed") : tr("%1 (as designed)").arg(mFabric);
            else if (g == DatatypeGroup && label == designedType)
                tick = tr("%1 (as designed)").arg(label);
            ticker->addTick(key, tick);

            auto *text = new QCPItemText(p);
            text->setClipToAxisRect(false);
            text->setPadding(QMargins(5, 0, 5, 0));
            text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            if (!point->evaluation.ok) {
                const QString why = point->evaluation.diagnostics.empty()
                                        ? tr("no diagnostic")
                                        : QString::fromStdString(point->evaluation.diagnostics.front().message);
                text->position->setCoords(0, key);
                text->setText(tr("infeasible: %1").arg(elided(why)));
                text->setColor(QColor(0x80, 0x80, 0x80));
                continue;
            }
            const double v = valueOf(*point);
            const double change = haveReference ? (v / reference - 1) * cf::kPercent : 0;
            const bool isSame = !haveReference || point == designed || std::fabs(change) < 0.05;
            const bool isBetter = rate ? change > 0 : change < 0;
            QCPBars *bars = isSame ? same : isBetter ? better : worse;
            bars->addData(key, v);
            QString value = valueText(v);
            if (haveReference && point != designed)
                value += QStringLiteral("  (%1 %)").arg(cf::signedNumber(change, 1));
            text->position->setCoords(v, key);
            text->setText(value);
            text->setColor(QColor(0x20, 0x20, 0x20));
            text->setBrush(QColor(255, 255, 255, 210));
            setToolTip(bars, key,
                       tr("%1: %2 samples/s, step %3, MFU %4")
                           .arg(label, cf::number(point->evaluation.stats.sample_rate, 2),
                                timeText(point->evaluation.stats.total_time),
                                cf::percent(point->evaluation.stats.total_efficiency)));
        }
    }
    for (QCPBars *bars : { same, better, worse })
        if (bars->data()->isEmpty())
            bars->removeFromLegend();

    p->yAxis->setTicker(ticker);
    p->yAxis->setRangeReversed(true); // the first group on top
    p->yAxis->setRange(0.4, key + 0.6);
    p->yAxis->grid()->setVisible(false);
    p->yAxis->setTickLength(0, 0);
    p->xAxis->setLabel(rate ? tr("Samples per second") : tr("Step time (s)"));
    p->xAxis->setRange(0, extent);
    mExtent = extent;
    fitLabels();
    replot();
}

void VariantsChart::resizeEvent(QResizeEvent *event)
{
    ExploreChart::resizeEvent(event);
    if (mExtent > 0 && message().isEmpty()) {
        fitLabels();
        replot();
    }
}

void VariantsChart::fitLabels()
{
    QCustomPlot *p = plot();
    // Lay the plot out at its current size (as a replot does) to know the axis' width in pixels.
    p->plotLayout()->setOuterRect(p->viewport());
    for (const auto phase :
         { QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout })
        p->plotLayout()->update(phase);
    const double width = p->axisRect()->width();
    double upper = mExtent;
    for (int i = 0; i < p->itemCount() && width > 0; ++i) {
        const auto *label = qobject_cast<QCPItemText *>(p->item(i));
        if (!label || label->position->typeX() != QCPItemPosition::ptPlotCoords
            || !(label->positionAlignment() & Qt::AlignLeft))
            continue;
        // A label of w pixels at value v fits when v / upper * width + w <= width.
        const double w = QFontMetricsF(label->font()).horizontalAdvance(label->text())
                         + label->padding().left() + label->padding().right() + 2;
        if (w < 0.8 * width)
            upper = std::max(upper, label->position->coords().x() * width / (width - w));
    }
    p->xAxis->setRange(0, upper);
}

QList<QStringList> VariantsChart::csvRows() const
{
    QList<QStringList> rows { { QStringLiteral("label"), QStringLiteral("samples_per_s"),
                                QStringLiteral("step_time_s"), QStringLiteral("mfu"), QStringLiteral("ok") } };
    for (const model::SweepPoint &point : mPoints) {
        const model::Evaluation &e = point.evaluation;
        rows << QStringList { QString::fromStdString(point.label),
                              e.ok ? cf::exact(e.stats.sample_rate) : QString(),
                              e.ok ? cf::exact(e.stats.total_time) : QString(),
                              e.ok ? cf::exact(e.stats.total_efficiency) : QString(),
                              e.ok ? QStringLiteral("1") : QStringLiteral("0") };
    }
    return rows;
}

} // namespace gapstudio::views
