#include "roadmap/roadmapchart.h"

#include "charts/chartformat.h"
#include "charts/chartinteraction.h"
#include "charts/likelyrange.h"

#include <qcustomplot.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

/// One colour per metric (the charts' palette).
const QColor kColors[] = { QColor(0x4E79A7), QColor(0x59A14F), QColor(0xF28E2B), QColor(0xE15759) };

QString valueText(RoadmapMetric metric, double value)
{
    switch (metric) {
    case RoadmapMetric::Throughput:
        return QLocale::c().toString(value, 'f', value < 100 ? 2 : 0);
    case RoadmapMetric::Mfu:
        return cf::number(value, 1) + QStringLiteral(" %");
    case RoadmapMetric::UsdPerMillionTokens:
        return QStringLiteral("$") + cf::number(value, 2);
    case RoadmapMetric::JoulesPerToken:
        return cf::number(value, value < 10 ? 2 : 1) + QStringLiteral(" J");
    }
    return {};
}

/// The gain in words: a speedup is "x1.80 faster", a cost or energy ratio "x0.55".
QString gainText(double gain)
{
    return QStringLiteral("\u00d7") + cf::number(gain, 2);
}

std::size_t panelOf(RoadmapMetric metric)
{
    return static_cast<std::size_t>(metric);
}

} // namespace

RoadmapChart::RoadmapChart(QWidget *parent)
    : ExploreChart(QStringLiteral("roadmap"), tr("Roadmap: throughput, MFU, cost and energy per step"),
                   parent)
{
    // The base's single axis rect becomes the first of a 2 x 2 grid of panels (row 2 of its layout).
    QCustomPlot *p = plot();
    QCPLayoutGrid *layout = p->plotLayout();
    QCPAxisRect *first = p->axisRect();
    layout->take(first);
    auto *panels = new QCPLayoutGrid;
    layout->addElement(2, 0, panels);
    mRects[0] = first;
    panels->addElement(0, 0, first);
    for (std::size_t i = 1; i < mRects.size(); ++i) {
        mRects[i] = new QCPAxisRect(p);
        // Zoom and pan stay on the first panel: Reset zoom (chartinteraction.h) knows only its axes.
        mRects[i]->setRangeDrag({});
        mRects[i]->setRangeZoom({});
        panels->addElement(int(i / 2), int(i % 2), mRects[i]);
    }
    connect(p, &QCustomPlot::mouseRelease, this, [this](QMouseEvent *event) {
        if (event->button() != Qt::LeftButton)
            return;
        if (const int step = stepAt(event->position()); step >= 0)
            emit stepClicked(step);
    });
    setRoadmap(nullptr);
}

void RoadmapChart::onCleared()
{
    mBars.fill(nullptr);               // deleted by clearPlottables()
    plot()->legend->setVisible(false); // each panel says what it shows
    for (std::size_t i = 1; i < mRects.size(); ++i)
        for (QCPAxis *axis : mRects[i]->axes()) {
            axis->setVisible(false);
            axis->setLabel({});
        }
}

void RoadmapChart::setRoadmap(RoadmapPtr roadmap)
{
    mRoadmap = std::move(roadmap);
    if (!mRoadmap || mRoadmap->steps.empty()) {
        showMessage(mRoadmap
                        ? tr("This roadmap has no steps")
                        : tr("Open a roadmap (File > Open roadmap…) to see what each step of a design buys"));
        // Centre the message on the whole chart, not on the first panel.
        if (auto *message = qobject_cast<QCPItemText *>(plot()->item(plot()->itemCount() - 1)))
            message->position->setType(QCPItemPosition::ptViewportRatio);
        replot();
        return;
    }
    clearPlot();
    setSubtitle(tr("%1  ·  ×: over the step before  ·  I: likely range (±1σ of the model's error)")
                    .arg(QString::fromStdString(mRoadmap->roadmap.name)));
    for (const RoadmapMetric metric : kRoadmapMetrics)
        drawMetric(panelOf(metric), metric);
    replot();
    interaction()->rememberHome();
}

double RoadmapChart::displayValue(RoadmapMetric metric, double modelValue)
{
    return metric == RoadmapMetric::Mfu ? modelValue * cf::kPercent : modelValue;
}

void RoadmapChart::drawMetric(std::size_t panel, RoadmapMetric metric)
{
    QCPAxisRect *rect = mRects[panel];
    QCPAxis *x = rect->axis(QCPAxis::atBottom);
    QCPAxis *y = rect->axis(QCPAxis::atLeft);
    x->setVisible(true);
    y->setVisible(true);
    auto *bars = new QCPBars(x, y);
    bars->setObjectName(QStringLiteral("metric:") + metricKey(metric));
    bars->setName(metricTitle(metric));
    bars->setWidth(0.6);
    bars->setPen(QPen(kColors[panel].darker(120), 0.8));
    bars->setBrush(kColors[panel]);
    mBars[panel] = bars;

    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    std::vector<LikelyRange> ranges;
    double high = 0;
    const std::size_t count = mRoadmap->steps.size();
    for (std::size_t i = 0; i < count; ++i) {
        const double key = double(i + 1);
        ticker->addTick(key, QString::number(i + 1));
        const std::optional<double> value = mRoadmap->value(i, metric);
        if (!value) { // a step that does not run: no bar, the reason in words
            auto *why = new QCPItemText(plot());
            why->setClipAxisRect(rect);
            why->position->setAxes(x, y);
            why->position->setCoords(key, 0);
            why->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
            why->setText(tr("does not run"));
            why->setColor(QColor(0x80, 0x80, 0x80));
            continue;
        }
        const double shown = displayValue(metric, *value);
        bars->addData(key, shown);
        QString text = valueText(metric, shown);
        QString tip = tr("%1\n%2: %3").arg(mRoadmap->stepName(i), metricTitle(metric), text);
        double top = shown; // the label sits above the bar, or above its likely range
        if (const auto range = mRoadmap->likelyRange(i, metric)) {
            const double low = displayValue(metric, range->first),
                         upper = displayValue(metric, range->second);
            ranges.push_back({ key, shown, low, upper });
            tip += tr("\nlikely %1 \u2013 %2").arg(valueText(metric, low), valueText(metric, upper));
            top = upper;
        }
        high = std::max(high, top);
        if (const std::optional<double> gain = mRoadmap->gain(i, metric)) {
            text += QLatin1Char('\n') + gainText(*gain);
            tip += tr("\n%1 the step before").arg(gainText(*gain));
        }
        setToolTip(bars, key, tip);
        auto *label = new QCPItemText(plot());
        label->setClipToAxisRect(false);
        label->position->setAxes(x, y);
        label->position->setCoords(key, top);
        label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        label->setTextAlignment(Qt::AlignCenter);
        label->setFont(QFont(font().family(), 8));
        label->setText(text);
    }
    addLikelyRanges(x, y, ranges, tr("Likely range (\u00b11\u03c3)"));
    x->setTicker(ticker);
    x->setRange(0.4, double(count) + 0.6);
    x->setLabel(metric == RoadmapMetric::JoulesPerToken || metric == RoadmapMetric::UsdPerMillionTokens
                    ? tr("Step")
                    : QString());
    y->setRange(0, high > 0 ? high * 1.45 : 1); // room for the labels above the bars
    y->setLabel(metricTitle(metric));
    y->grid()->setVisible(true);
}

QCPBars *RoadmapChart::bars(RoadmapMetric metric) const
{
    return mBars[panelOf(metric)];
}

int RoadmapChart::stepAt(const QPointF &pos) const
{
    if (!mRoadmap || !hasData())
        return -1;
    for (QCPAxisRect *rect : mRects) {
        if (!rect->rect().contains(pos.toPoint()))
            continue;
        const int step = qRound(rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x())) - 1;
        return step >= 0 && std::size_t(step) < mRoadmap->steps.size() ? step : -1;
    }
    return -1;
}

QList<QStringList> RoadmapChart::csvRows() const
{
    QStringList header { QStringLiteral("step"), QStringLiteral("name"), QStringLiteral("status") };
    for (const RoadmapMetric metric : kRoadmapMetrics)
        header << metricKey(metric);
    header << QStringLiteral("speedup") << QStringLiteral("cost_ratio") << QStringLiteral("energy_ratio");
    // The goodput's columns come last, as in `gapstudio-cli roadmap`'s CSV.
    header << QStringLiteral("goodput") << QStringLiteral("effective_usd_per_million_tokens")
           << QStringLiteral("effective_cost_ratio");
    header << QStringLiteral("mfu_low") << QStringLiteral("mfu_high"); // the MFU's likely range, last
    QList<QStringList> rows { header };
    if (!mRoadmap)
        return rows;
    const auto cell = [](std::optional<double> v) { return v ? cf::exact(*v) : QString(); };
    for (std::size_t i = 0; i < mRoadmap->steps.size(); ++i) {
        QStringList row { QString::number(i + 1), QString::fromStdString(mRoadmap->roadmap.steps[i].name),
                          QString::fromLatin1(scenario::statusName(mRoadmap->steps[i].result.status)) };
        for (const RoadmapMetric metric : kRoadmapMetrics)
            row << cell(mRoadmap->value(i, metric)); // the model's units: MFU as a fraction
        for (const RoadmapMetric metric :
             { RoadmapMetric::Throughput, RoadmapMetric::UsdPerMillionTokens, RoadmapMetric::JoulesPerToken })
            row << cell(mRoadmap->gain(i, metric));
        row << cell(mRoadmap->goodput(i)) << cell(mRoadmap->effectiveUsdPerMillionTokens(i))
            << cell(mRoadmap->effectiveCostRatio(i));
        const auto mfuRange = mRoadmap->likelyRange(i, RoadmapMetric::Mfu);
        row << cell(mfuRange ? std::optional(mfuRange->first) : std::nullopt)
            << cell(mfuRange ? std::optional(mfuRange->second) : std::nullopt);
        rows << row;
    }
    return rows;
}

} // namespace gapstudio::views
