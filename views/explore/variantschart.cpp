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

/// The variants by group, each group in the design's order; on a full-flat design the full-flat
/// variant is the design itself and is left out; in the fabric group, as designed comes first.
using Groups = std::array<std::vector<const model::SweepPoint *>, GroupCount>;

Groups groupsOf(const std::vector<model::SweepPoint> &points, bool flat)
{
    Groups groups;
    for (const model::SweepPoint &point : points)
        if (!(flat && point.label == "full-flat fabric"))
            groups[groupOf(point)].push_back(&point);
    std::stable_sort(
        groups[Fabric].begin(), groups[Fabric].end(),
        [](const model::SweepPoint *a, const model::SweepPoint *) { return a->label == "as designed"; });
    return groups;
}

/// Each group's header, naming the design's fabric and the datatypes compared.
std::array<QString, GroupCount> groupHeaders(const Groups &groups, const QString &fabric)
{
    QStringList types;
    for (const model::SweepPoint *point : groups[DatatypeGroup])
        types << QString::fromStdString(point->label);
    return {
        groups[Fabric].size() > 1 ? QObject::tr("Fabric: %1 (as designed) vs full-flat").arg(fabric)
        : fabric.isEmpty()        ? QObject::tr("Fabric: as designed")
                                  : QObject::tr("Fabric: %1 (as designed)").arg(fabric),
        QObject::tr("Collectives: hardware (in-network) vs software (ring)"),
        QObject::tr("Overlap: compute/communication on vs off"),
        QObject::tr("Datatype: %1").arg(types.join(QStringLiteral(", "))),
        QObject::tr("Other"),
    };
}

/// Bars down the left axis (key axis = yAxis), values along the bottom.
QCPBars *newBars(QCustomPlot *p, const QString &name, QColor colour)
{
    auto *bars = new QCPBars(p->yAxis, p->xAxis);
    bars->setName(name);
    bars->setPen(Qt::NoPen);
    bars->setBrush(colour);
    bars->setWidth(0.62);
    return bars;
}

/// The dotted line at the design's own value, labelled at the top.
void addReferenceLine(QCustomPlot *p, double reference, const QString &text)
{
    auto *line = new QCPItemStraightLine(p);
    line->point1->setCoords(reference, 0);
    line->point2->setCoords(reference, 1);
    line->setPen(QPen(QColor(0x30, 0x30, 0x30), 1.2, Qt::DotLine));
    auto *label = new QCPItemText(p);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(reference, 0.0);
    label->setPositionAlignment(Qt::AlignTop | Qt::AlignHCenter);
    label->setText(text);
    label->setColor(QColor(0x30, 0x30, 0x30));
    label->setPadding(QMargins(4, 2, 4, 2));
    label->setBrush(QColor(255, 255, 255, 220));
}

/// A group's header, at the left of the plot area on the group's first row.
void addGroupHeader(QCustomPlot *p, double key, const QFont &font, const QString &text)
{
    auto *header = new QCPItemText(p);
    header->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    header->position->setTypeY(QCPItemPosition::ptPlotCoords);
    header->position->setCoords(0.005, key);
    header->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    header->setFont(font);
    header->setColor(QColor(0x30, 0x30, 0x30));
    header->setText(text);
    header->setPadding(QMargins(2, 0, 2, 0));
}

/// Why a variant is infeasible, in a few words.
QString infeasibleText(const model::SweepPoint &point)
{
    const QString why = point.evaluation.diagnostics.empty()
                            ? QObject::tr("no diagnostic")
                            : QString::fromStdString(point.evaluation.diagnostics.front().message);
    return QObject::tr("infeasible: %1").arg(elided(why));
}

/// The value a bar shows: samples/s, or the step time.
double metricOf(const model::SweepPoint &point, bool rate)
{
    return rate ? point.evaluation.stats.sample_rate : point.evaluation.stats.total_time;
}

/// The value axis' length: the largest value and room for its label.
double extentOf(const std::vector<model::SweepPoint> &points, bool rate)
{
    double extent = 0;
    for (const model::SweepPoint &point : points)
        if (point.evaluation.ok)
            extent = std::max(extent, metricOf(point, rate));
    return extent > 0 ? extent * 1.42 : 1;
}

/// The label beside a bar (its value, or why the variant is infeasible), outside the plot area
/// where it must.
QCPItemText *newValueLabel(QCustomPlot *p)
{
    auto *text = new QCPItemText(p);
    text->setClipToAxisRect(false);
    text->setPadding(QMargins(5, 0, 5, 0));
    text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    return text;
}

QString pointTip(const QString &label, const model::SweepPoint &point)
{
    return QObject::tr("%1: %2 samples/s, step %3, MFU %4")
        .arg(label, cf::number(point.evaluation.stats.sample_rate, 2),
             timeText(point.evaluation.stats.total_time),
             cf::percent(point.evaluation.stats.total_efficiency));
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
    updateData();
    for (const model::SweepPoint &point : mPoints)
        if (point.label == "as designed")
            return &point;
    return nullptr;
}

std::optional<double> VariantsChart::keyOf(const QString &label) const
{
    updateData();
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
    const auto valueOf = [rate](const model::SweepPoint &point) { return metricOf(point, rate); };
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

    QCPBars *same = newBars(p, tr("As designed (or the same)"), QColor(0x4E79A7));
    QCPBars *better = newBars(p, rate ? tr("Faster than as designed") : tr("Shorter step than as designed"),
                              QColor(0x59A14F));
    QCPBars *worse = newBars(p, rate ? tr("Slower than as designed") : tr("Longer step than as designed"),
                             QColor(0xE15759));

    const Groups groups = groupsOf(mPoints, mFlat);
    const std::array<QString, GroupCount> headers = groupHeaders(groups, mFabric);

    // The reference line first: the value labels are drawn over it.
    if (haveReference)
        addReferenceLine(p, reference, tr("as designed: %1").arg(valueText(reference)));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    QFont headerFont = font();
    headerFont.setBold(true);
    double key = 0;
    for (int g = 0; g < GroupCount; ++g) {
        if (groups[g].empty())
            continue;
        key += key > 0 ? 1.5 : 1; // a gap between groups
        addGroupHeader(p, key, headerFont, headers[g]);
        for (const model::SweepPoint *point : groups[g]) {
            key += 1;
            const QString label = QString::fromStdString(point->label);
            mKeys.insert(label, key);
            ticker->addTick(key, tickText(*point, g == DatatypeGroup && label == designedType));
            QCPItemText *text = newValueLabel(p);
            if (!point->evaluation.ok) {
                text->position->setCoords(0, key);
                text->setText(infeasibleText(*point));
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
            setToolTip(bars, key, pointTip(label, *point));
        }
    }
    for (QCPBars *bars : { same, better, worse })
        if (bars->data()->isEmpty())
            bars->removeFromLegend();

    setAxes(ticker, key, rate);
    fitLabels();
    replot();
}

QString VariantsChart::tickText(const model::SweepPoint &point, bool designedDatatype) const
{
    const QString label = QString::fromStdString(point.label);
    if (point.label == "as designed")
        return mFabric.isEmpty() ? tr("as designed") : tr("%1 (as designed)").arg(mFabric);
    return designedDatatype ? tr("%1 (as designed)").arg(label) : label;
}

void VariantsChart::setAxes(const QSharedPointer<QCPAxisTickerText> &ticker, double lastKey, bool rate)
{
    QCustomPlot *p = plot();
    p->yAxis->setTicker(ticker);
    p->yAxis->setRangeReversed(true); // the first group on top
    p->yAxis->setRange(0.4, lastKey + 0.6);
    p->yAxis->grid()->setVisible(false);
    p->yAxis->setTickLength(0, 0);
    p->xAxis->setLabel(rate ? tr("Samples per second") : tr("Step time (s)"));
    mExtent = extentOf(mPoints, rate);
    p->xAxis->setRange(0, mExtent);
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
    updateData();
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
