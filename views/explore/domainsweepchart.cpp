#include "explore/domainsweepchart.h"

#include "charts/chartformat.h"

#include <qcustomplot.h>

#include <algorithm>
#include <limits>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Why no domain size in `points` (none feasible) makes the design feasible.
QString noneFeasibleText(const std::vector<model::SweepPoint> &points)
{
    const model::Diagnostics &d = points.front().evaluation.diagnostics;
    return QObject::tr("No scale-up domain size from %1 to %2 GPUs makes the design feasible%3")
        .arg(static_cast<qint64>(points.front().x))
        .arg(static_cast<qint64>(points.back().x))
        .arg(d.empty() ? QString() : QStringLiteral(": ") + cf::qs(d.front().message));
}

/// The subtitle: what changes (tier 0's size) and the layout every point keeps.
QString subtitleOf(const model::SweepPoint &first)
{
    QString layout;
    if (first.layout) {
        const model::Execution &e = *first.layout;
        layout = QObject::tr(":\nTP %1 on tier %2, PP %3 on tier %4, DP %5 on tier %6")
                     .arg(e.tensorPar)
                     .arg(e.tensorParNet)
                     .arg(e.pipelinePar)
                     .arg(e.pipelineParNet)
                     .arg(e.dataPar)
                     .arg(e.dataParNet);
    }
    return QObject::tr(
               "Only the size of network tier 0 (GPUs per scale-up domain) changes; the layout is kept%1")
        .arg(layout);
}

} // namespace

DomainSweepChart::DomainSweepChart(QWidget *parent)
    : ExploreChart(QStringLiteral("domain_sweep"), tr("Scale-up domain size"), parent)
{
    showMessage(tr("Run sweeps to see the effect of the scale-up domain size"));
}

void DomainSweepChart::setData(std::vector<model::SweepPoint> points, std::int64_t currentSize)
{
    mPoints = std::move(points);
    mCurrentSize = currentSize;
    rebuild();
}

const model::SweepPoint *DomainSweepChart::designPoint() const
{
    updateData();
    for (const model::SweepPoint &point : mPoints)
        if (mCurrentSize > 0 && point.x == static_cast<double>(mCurrentSize))
            return &point;
    return nullptr;
}

void DomainSweepChart::rebuild()
{
    clearPlot();
    if (mPoints.empty()) {
        showMessage(tr("The system has no network tier to resize"));
        return;
    }
    const auto feasible = std::find_if(mPoints.begin(), mPoints.end(),
                                       [](const model::SweepPoint &p) { return p.evaluation.ok; });
    if (feasible == mPoints.end()) { // nothing to plot: say why instead of empty axes
        showMessage(noneFeasibleText(mPoints));
        return;
    }
    QCustomPlot *p = plot();
    setSubtitle(subtitleOf(mPoints.front()));
    auto *step = p->addGraph(p->xAxis, p->yAxis);
    step->setName(tr("Step time (ms)"));
    step->setPen(QPen(QColor(0x4E79A7), 2.2));
    step->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0x4E79A7), Qt::white, 7));
    QCPGraph *mfu = addMfuGraph();
    QCPGraph *invalid = addInfeasibleGraph(tr("Infeasible (hover for the reason)"));

    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double maxMs = 0, maxMfu = 0;
    bool anyInvalid = false;
    for (const model::SweepPoint &point : mPoints) {
        ticker->addTick(point.x, QString::number(static_cast<qint64>(point.x)));
        const QString size = tr("Scale-up domain of %1 GPUs").arg(static_cast<qint64>(point.x));
        if (!point.evaluation.ok) {
            step->addData(point.x, kNaN);
            mfu->addData(point.x, kNaN);
            invalid->addData(point.x, 0);
            anyInvalid = true;
            const QString reason = point.evaluation.diagnostics.empty()
                                       ? tr("infeasible")
                                       : cf::qs(point.evaluation.diagnostics.front().message);
            setToolTip(invalid, point.x, size + QStringLiteral(":\n") + reason);
            continue;
        }
        const model::Stats &s = point.evaluation.stats;
        step->addData(point.x, s.total_time * cf::kMsPerSecond);
        mfu->addData(point.x, s.total_efficiency * cf::kPercent);
        maxMs = std::max(maxMs, s.total_time * cf::kMsPerSecond);
        maxMfu = std::max(maxMfu, s.total_efficiency * cf::kPercent);
        const QString text = tr("%1\nStep time %2, MFU %3\n%4 samples/s")
                                 .arg(size, cf::ms(s.total_time), cf::percent(s.total_efficiency),
                                      cf::number(s.sample_rate, 2));
        setToolTip(step, point.x, text);
        setToolTip(mfu, point.x, text);
    }
    if (!anyInvalid)
        invalid->removeFromLegend();

    p->xAxis->setScaleType(QCPAxis::stLogarithmic);
    p->xAxis->setTicker(ticker);
    p->xAxis->setLabel(tr("Scale-up domain size (GPUs)"));
    p->xAxis->setRange(mPoints.front().x / 1.3, mPoints.back().x * 1.3);
    p->yAxis->setLabel(tr("Step time (ms)"));
    p->yAxis->setRange(0, maxMs > 0 ? maxMs * 1.12 : 1);
    p->yAxis2->setVisible(true);
    p->yAxis2->setLabel(tr("MFU (%)"));
    p->yAxis2->setRange(0, maxMfu > 0 ? std::min(100.0, maxMfu * 1.25) : 100);

    if (mCurrentSize > 0)
        markCurrent(static_cast<double>(mCurrentSize));
    replot();
}

QList<QStringList> DomainSweepChart::csvRows() const
{
    updateData();
    QList<QStringList> rows { { QStringLiteral("scale_up_domain_gpus"), QStringLiteral("valid"),
                                QStringLiteral("step_time_s"), QStringLiteral("mfu"),
                                QStringLiteral("samples_per_s"), QStringLiteral("diagnostic") } };
    for (const model::SweepPoint &point : mPoints) {
        const model::Stats &s = point.evaluation.stats;
        const bool ok = point.evaluation.ok;
        rows << QStringList { QString::number(static_cast<qint64>(point.x)),
                              ok ? QStringLiteral("1") : QStringLiteral("0"),
                              ok ? cf::exact(s.total_time) : QString(),
                              ok ? cf::exact(s.total_efficiency) : QString(),
                              ok ? cf::exact(s.sample_rate) : QString(),
                              point.evaluation.diagnostics.empty()
                                  ? QString()
                                  : cf::qs(point.evaluation.diagnostics.front().message) };
    }
    return rows;
}

} // namespace gapstudio::views
