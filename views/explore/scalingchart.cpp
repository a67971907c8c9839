#include "explore/scalingchart.h"

#include "charts/chartformat.h"
#include "results/layoutformat.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Throughput (samples/s) and its linear scaling from the smallest count.
std::pair<QCPGraph *, QCPGraph *> addThroughputGraphs(QCustomPlot *p)
{
    auto *throughput = p->addGraph(p->xAxis, p->yAxis);
    throughput->setName(QObject::tr("Throughput (samples/s; tokens/s on the outer axis)"));
    throughput->setPen(QPen(QColor(0x4E79A7), 2.2));
    throughput->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0x4E79A7), Qt::white, 7));
    auto *linear = p->addGraph(p->xAxis, p->yAxis);
    linear->setName(QObject::tr("Linear scaling from the smallest count"));
    linear->setPen(QPen(QColor(0x9A9A9A), 1.4, Qt::DashLine));
    return { throughput, linear };
}

/// Throughput with failures (throughput x goodput).
QCPGraph *addEffectiveGraph(QCustomPlot *p)
{
    auto *effective = p->addGraph(p->xAxis, p->yAxis);
    effective->setName(QObject::tr("Effective throughput with failures (throughput x goodput)"));
    effective->setPen(QPen(QColor(0x4E79A7), 1.8, Qt::DashLine));
    effective->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, QColor(0x4E79A7), Qt::white, 6));
    return effective;
}

} // namespace

ScalingChart::ScalingChart(QWidget *parent)
    : ExploreChart(QStringLiteral("scaling"), tr("Scaling with GPU count"), parent)
{
    mTokensAxis = plot()->axisRect()->addAxis(QCPAxis::atLeft);
    mTokensAxis->setVisible(false);
    connect(plot()->yAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
            [this](const QCPRange &r) {
                mTokensAxis->setRange(r.lower * static_cast<double>(mSeqSize),
                                      r.upper * static_cast<double>(mSeqSize));
            });
    showMessage(tr("Run sweeps to see how throughput scales with the GPU count"));
}

double ScalingChart::effectiveSamplesPerSecond(const model::GoodputResult &goodput) const
{
    // The model's tokens/s with failures in the chart's unit, samples/s.
    return goodput.valid && goodput.effectiveTokensPerSecond > 0
               ? goodput.effectiveTokensPerSecond / static_cast<double>(mSeqSize)
               : kNaN;
}

void ScalingChart::setData(std::vector<model::SweepPoint> points, std::int64_t seqSize,
                           std::optional<model::SweepPoint> design, const QString &note,
                           std::vector<model::GoodputResult> goodput, model::GoodputResult designGoodput)
{
    mPoints = std::move(points);
    mGoodput = std::move(goodput);
    mGoodput.resize(mPoints.size());
    mDesignGoodput = std::move(designGoodput);
    mSeqSize = std::max<std::int64_t>(1, seqSize);
    mDesign = std::move(design);
    mNote = note;
    rebuild();
}

void ScalingChart::rebuild()
{
    clearPlot();
    mTokensAxis->setVisible(false);
    if (mPoints.empty()) {
        showMessage(tr("No GPU counts to show"));
        return;
    }
    QCustomPlot *p = plot();
    setSubtitle(mNote);

    const auto [throughput, linear] = addThroughputGraphs(p); // in the legend's order
    QCPGraph *mfu = addMfuGraph();
    QCPGraph *effective = addEffectiveGraph(p);
    QCPGraph *invalid = addInfeasibleGraph(tr("No valid layout"));

    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double maxRate = 0, maxMfu = 0;
    const model::SweepPoint *first = nullptr;
    bool anyInvalid = false;
    bool anyGoodput = false;
    for (std::size_t i = 0; i < mPoints.size(); ++i) {
        const model::SweepPoint &point = mPoints[i];
        ticker->addTick(point.x, QString::number(static_cast<qint64>(point.x)));
        const QString gpus = tr("%1 GPUs").arg(static_cast<qint64>(point.x));
        if (!point.evaluation.ok) {
            throughput->addData(point.x, kNaN);
            effective->addData(point.x, kNaN);
            mfu->addData(point.x, kNaN);
            invalid->addData(point.x, 0);
            anyInvalid = true;
            const QString reason = point.evaluation.diagnostics.empty()
                                       ? tr("no valid layout")
                                       : cf::qs(point.evaluation.diagnostics.front().message);
            setToolTip(invalid, point.x, gpus + QStringLiteral(": ") + reason);
            continue;
        }
        const model::Stats &s = point.evaluation.stats;
        if (!first)
            first = &point;
        throughput->addData(point.x, s.sample_rate);
        mfu->addData(point.x, s.total_efficiency * cf::kPercent);
        linear->addData(point.x, first->evaluation.stats.sample_rate * point.x / first->x);
        maxRate
            = std::max({ maxRate, s.sample_rate, first->evaluation.stats.sample_rate * point.x / first->x });
        maxMfu = std::max(maxMfu, s.total_efficiency * cf::kPercent);
        QString text = tr("%1\n%2 samples/s (%3 tokens/s)\nMFU %4, step time %5\nBest layout: %6")
                           .arg(gpus, cf::number(s.sample_rate, 2),
                                QLocale::c().toString(s.sample_rate * static_cast<double>(mSeqSize), 'f', 0),
                                cf::percent(s.total_efficiency), cf::ms(s.total_time),
                                point.layout ? layoutformat::summary(*point.layout) : tr("not known"));
        const double effectiveRate = effectiveSamplesPerSecond(mGoodput[i]);
        effective->addData(point.x, effectiveRate);
        if (std::isfinite(effectiveRate)) {
            anyGoodput = true;
            text += tr("\nGoodput under failures %1: %2 samples/s with failures")
                        .arg(cf::percent(mGoodput[i].goodput), cf::number(effectiveRate, 2));
            setToolTip(effective, point.x, text);
        }
        setToolTip(throughput, point.x, text);
        setToolTip(mfu, point.x, text);
    }
    if (!anyInvalid)
        invalid->removeFromLegend();
    if (!anyGoodput)
        effective->removeFromLegend();
    maxRate = std::max(maxRate, addDesignPoint());
    setAxes(ticker, maxRate, maxMfu);

    if (mDesign)
        markCurrent(mDesign->x);
    replot();
}

double ScalingChart::addDesignPoint()
{
    // This design with its own layout: at most as fast as the best layout at its count when the
    // search space holds its layout.
    if (!mDesign || !mDesign->evaluation.ok)
        return 0;
    QCustomPlot *p = plot();
    const model::Stats &s = mDesign->evaluation.stats;
    auto *self = p->addGraph(p->xAxis, p->yAxis);
    self->setName(tr("This design (its own layout)"));
    self->setLineStyle(QCPGraph::lsNone);
    self->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssStar, QPen(QColor(0x3B7A34), 2.2), Qt::NoBrush, 14));
    self->addData(mDesign->x, s.sample_rate);
    setToolTip(self, mDesign->x,
               tr("This design on %1 GPUs\n%2 samples/s, MFU %3, step time %4\nLayout: %5")
                   .arg(static_cast<qint64>(mDesign->x))
                   .arg(cf::number(s.sample_rate, 2), cf::percent(s.total_efficiency), cf::ms(s.total_time),
                        mDesign->layout ? layoutformat::summary(*mDesign->layout) : tr("not known")));
    return s.sample_rate;
}

void ScalingChart::setAxes(const QSharedPointer<QCPAxisTickerText> &ticker, double maxRate, double maxMfu)
{
    QCustomPlot *p = plot();
    p->xAxis->setScaleType(QCPAxis::stLogarithmic);
    p->xAxis->setTicker(ticker);
    p->xAxis->setLabel(tr("GPU count"));
    const double lo = mPoints.front().x, hi = mPoints.back().x;
    p->xAxis->setRange(lo / 1.25, hi * 1.25);
    p->yAxis->setLabel(tr("Throughput (samples/s)"));
    p->yAxis->setRange(0, maxRate > 0 ? maxRate * 1.12 : 1);
    mTokensAxis->setVisible(true);
    mTokensAxis->setLabel(tr("Throughput (tokens/s)"));
    mTokensAxis->setNumberFormat(QStringLiteral("gbc"));
    mTokensAxis->setNumberPrecision(2);
    mTokensAxis->setRange(p->yAxis->range().lower * static_cast<double>(mSeqSize),
                          p->yAxis->range().upper * static_cast<double>(mSeqSize));
    p->yAxis2->setVisible(true);
    p->yAxis2->setLabel(tr("MFU (%)"));
    p->yAxis2->setRange(0, maxMfu > 0 ? std::min(100.0, maxMfu * 1.25) : 100);
}

QList<QStringList> ScalingChart::csvRows() const
{
    QList<QStringList> rows { { QStringLiteral("gpus"), QStringLiteral("valid"),
                                QStringLiteral("samples_per_s"), QStringLiteral("tokens_per_s"),
                                QStringLiteral("mfu"), QStringLiteral("step_time_s"),
                                QStringLiteral("best_layout"), QStringLiteral("point"),
                                QStringLiteral("goodput"), QStringLiteral("effective_samples_per_s") } };
    const auto row
        = [&](const model::SweepPoint &point, const QString &kind, const model::GoodputResult &goodput) {
              const model::Stats &s = point.evaluation.stats;
              const bool ok = point.evaluation.ok;
              const double effectiveRate = effectiveSamplesPerSecond(goodput);
              const bool known = ok && std::isfinite(effectiveRate);
              rows << QStringList { QString::number(static_cast<qint64>(point.x)),
                                    ok ? QStringLiteral("1") : QStringLiteral("0"),
                                    ok ? cf::exact(s.sample_rate) : QString(),
                                    ok ? cf::exact(s.sample_rate * static_cast<double>(mSeqSize)) : QString(),
                                    ok ? cf::exact(s.total_efficiency) : QString(),
                                    ok ? cf::exact(s.total_time) : QString(),
                                    point.layout ? layoutformat::summary(*point.layout) : QString(),
                                    kind,
                                    known ? cf::exact(goodput.goodput) : QString(),
                                    known ? cf::exact(effectiveRate) : QString() };
          };
    for (std::size_t i = 0; i < mPoints.size(); ++i)
        row(mPoints[i], QStringLiteral("best layout"), mGoodput[i]);
    if (mDesign)
        row(*mDesign, QStringLiteral("this design"), mDesignGoodput);
    return rows;
}

} // namespace gapstudio::views
