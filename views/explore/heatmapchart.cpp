#include "explore/heatmapchart.h"

#include "charts/chartformat.h"
#include "results/layoutformat.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

/// Short cell text: "1234", "56.7", "0.89".
QString shortRate(double rate)
{
    return cf::number(rate, rate >= 100 ? 0 : (rate >= 10 ? 1 : 2));
}

} // namespace

QCPColorGradient viridisGradient()
{
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(0x440154));
    g.setColorStopAt(0.25, QColor(0x3B528B));
    g.setColorStopAt(0.5, QColor(0x21918C));
    g.setColorStopAt(0.75, QColor(0x5EC962));
    g.setColorStopAt(1.0, QColor(0xFDE725));
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

HeatmapChart::HeatmapChart(QWidget *parent)
    : ExploreChart(QStringLiteral("heatmap"), tr("Throughput over TP x PP"), parent)
    , mScale(newColorScale(plot()))
{
    mScale->axis()->setLabel(tr("Throughput (samples/s)"));
    showMessage(tr("Run sweeps to see the throughput of every TP x PP split"));
}

QCPColorScale *newColorScale(QCustomPlot *plot)
{
    auto *scale = new QCPColorScale(plot);
    scale->setType(QCPAxis::atRight);
    scale->setBarWidth(14);
    auto *group = new QCPMarginGroup(plot);
    plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    return scale;
}

void takeColorScale(QCustomPlot *plot, QCPColorScale *scale)
{
    QCPLayoutGrid *grid = plot->plotLayout();
    if (scale->layout() == grid && grid->take(scale))
        grid->simplify();
}

void HeatmapChart::onCleared()
{
    takeColorScale(plot(), mScale);
}

void HeatmapChart::setData(explore::HeatmapData data, std::optional<model::SweepPoint> design)
{
    mData = std::move(data);
    mDesign = std::move(design);
    rebuild();
}

std::optional<std::pair<std::int64_t, std::int64_t>> HeatmapChart::bestTpPp() const
{
    const auto best = mData.bestCell();
    if (!best)
        return std::nullopt;
    return std::make_pair(mData.tps[best->second], mData.pps[best->first]);
}

void HeatmapChart::rebuild()
{
    clearPlot();
    const auto best = mData.bestCell();
    if (mData.tps.empty() || mData.pps.empty() || !best) {
        showMessage(mData.cancelled ? tr("Cancelled") : tr("No valid layout at %1 GPUs").arg(mData.numProcs));
        return;
    }
    QCustomPlot *p = plot();
    const int nx = static_cast<int>(mData.tps.size());
    const int ny = static_cast<int>(mData.pps.size());

    // The map: one cell per (TP, PP) index, NaN (transparent) where there is no layout.
    auto *map = new QCPColorMap(p->xAxis, p->yAxis);
    map->setName(tr("Best layout's samples/s per cell (empty: none)"));
    map->data()->setSize(nx, ny);
    map->data()->setRange(QCPRange(0, nx - 1), QCPRange(0, ny - 1));
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (int row = 0; row < ny; ++row)
        for (int column = 0; column < nx; ++column) {
            const auto &hit = mData.cell(static_cast<std::size_t>(row), static_cast<std::size_t>(column));
            const double rate = hit ? hit->stats.sample_rate : std::numeric_limits<double>::quiet_NaN();
            map->data()->setCell(column, row, rate);
            if (hit) {
                lo = std::min(lo, rate);
                hi = std::max(hi, rate);
            }
        }
    const QCPColorGradient gradient = viridisGradient();
    map->setGradient(gradient);
    map->setInterpolate(false);
    p->plotLayout()->addElement(2, 1, mScale);
    map->setColorScale(mScale); // the map then takes the scale's gradient and range
    mScale->setGradient(gradient);
    mScale->setDataRange(QCPRange(lo == hi ? 0 : lo, hi));

    if (nx <= 14 && ny <= 14) // cell values as text when the grid is small enough to read them
        labelCells(lo, hi, map->dataRange().size());
    if (!mData.exhaustive && mData.threshold > 0)
        greyCellsNotKept();
    outlineBest(*best);
    markDesign();
    setAxes();
    setSubtitle(subtitleText(*best));
    replot();
}

void HeatmapChart::labelCells(double lo, double hi, double rangeSize)
{
    QCustomPlot *p = plot();
    const int nx = static_cast<int>(mData.tps.size());
    const int ny = static_cast<int>(mData.pps.size());
    for (int row = 0; row < ny; ++row)
        for (int column = 0; column < nx; ++column) {
            const auto &hit = mData.cell(static_cast<std::size_t>(row), static_cast<std::size_t>(column));
            if (!hit)
                continue;
            auto *text = new QCPItemText(p);
            text->position->setCoords(column, row);
            text->setText(shortRate(hit->stats.sample_rate));
            const double t = rangeSize > 0 ? (hit->stats.sample_rate - lo) / (hi - lo) : 1;
            text->setColor(t > 0.6 ? Qt::black : Qt::white);
            text->setFont(QFont(font().family(), 8));
        }
}

void HeatmapChart::greyCellsNotKept()
{
    QCustomPlot *p = plot();
    const int nx = static_cast<int>(mData.tps.size());
    const int ny = static_cast<int>(mData.pps.size());
    const QColor grey(0xD9, 0xD9, 0xD9);
    for (int row = 0; row < ny; ++row)
        for (int column = 0; column < nx; ++column) {
            if (mData.cell(static_cast<std::size_t>(row), static_cast<std::size_t>(column)))
                continue;
            auto *rect = new QCPItemRect(p);
            rect->topLeft->setCoords(column - 0.5, row + 0.5);
            rect->bottomRight->setCoords(column + 0.5, row - 0.5);
            rect->setPen(QPen(Qt::white));
            rect->setBrush(grey);
            auto *text = new QCPItemText(p);
            text->position->setCoords(column, row);
            text->setText(QStringLiteral("≤ ") + shortRate(mData.threshold));
            text->setColor(QColor(0x70, 0x70, 0x70));
            text->setFont(QFont(font().family(), 8));
        }
    auto *belowEntry = p->addGraph();
    belowEntry->setName(tr("Not among the top %1 (at most %2 samples/s, or none valid)")
                            .arg(mData.hitsKept)
                            .arg(shortRate(mData.threshold)));
    belowEntry->setLineStyle(QCPGraph::lsNone);
    belowEntry->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(grey), QBrush(grey), 10));
}

void HeatmapChart::outlineBest(const std::pair<std::size_t, std::size_t> &best)
{
    QCustomPlot *p = plot();
    const double bx = static_cast<double>(best.second), by = static_cast<double>(best.first);
    auto *outline = new QCPItemRect(p);
    outline->topLeft->setCoords(bx - 0.5, by + 0.5);
    outline->bottomRight->setCoords(bx + 0.5, by - 0.5);
    outline->setPen(QPen(QColor(0xE15759), 3));
    auto *bestEntry = p->addGraph();
    bestEntry->setName(tr("Best cell"));
    bestEntry->setLineStyle(QCPGraph::lsNone);
    bestEntry->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(QColor(0xE15759), 3), Qt::NoBrush, 10));
}

void HeatmapChart::markDesign()
{
    QCustomPlot *p = plot();
    // Its layout may differ from the cell's best in microbatch, recompute, interleaving, ...
    if (!mDesign || !mDesign->layout)
        return;
    const model::Execution &e = *mDesign->layout;
    const auto column = std::find(mData.tps.begin(), mData.tps.end(), e.tensorPar);
    const auto row = std::find(mData.pps.begin(), mData.pps.end(), e.pipelinePar);
    const QColor green(0x3B7A34);
    if (column != mData.tps.end() && row != mData.pps.end()) {
        const double x = static_cast<double>(column - mData.tps.begin());
        const double y = static_cast<double>(row - mData.pps.begin());
        auto *mine = new QCPItemRect(p);
        mine->topLeft->setCoords(x - 0.42, y + 0.42);
        mine->bottomRight->setCoords(x + 0.42, y - 0.42);
        mine->setPen(QPen(green, 2.5, Qt::DashLine));
    }
    auto *designEntry = p->addGraph();
    designEntry->setName(
        mDesign->evaluation.ok
            ? tr("This design (TP %1 x PP %2): %3 samples/s")
                  .arg(e.tensorPar)
                  .arg(e.pipelinePar)
                  .arg(cf::number(mDesign->evaluation.stats.sample_rate, 2))
            : tr("This design (TP %1 x PP %2): not feasible").arg(e.tensorPar).arg(e.pipelinePar));
    designEntry->setLineStyle(QCPGraph::lsNone);
    designEntry->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(green, 2.5, Qt::DashLine), Qt::NoBrush, 10));
}

void HeatmapChart::setAxes()
{
    QCustomPlot *p = plot();
    const int nx = static_cast<int>(mData.tps.size());
    const int ny = static_cast<int>(mData.pps.size());
    QSharedPointer<QCPAxisTickerText> xTicks(new QCPAxisTickerText), yTicks(new QCPAxisTickerText);
    for (int column = 0; column < nx; ++column)
        xTicks->addTick(column, QString::number(mData.tps[static_cast<std::size_t>(column)]));
    for (int row = 0; row < ny; ++row)
        yTicks->addTick(row, QString::number(mData.pps[static_cast<std::size_t>(row)]));
    p->xAxis->setTicker(xTicks);
    p->yAxis->setTicker(yTicks);
    p->xAxis->setLabel(tr("Tensor parallelism TP (GPUs)"));
    p->yAxis->setLabel(tr("Pipeline parallelism PP (stages)"));
    p->xAxis->setRange(-0.5, nx - 0.5);
    p->yAxis->setRange(-0.5, ny - 0.5);
    p->xAxis->grid()->setVisible(false);
    p->yAxis->grid()->setVisible(false);
}

QString HeatmapChart::subtitleText(const std::pair<std::size_t, std::size_t> &best) const
{
    const model::SearchHit &top = *mData.cell(best.first, best.second);
    QString note = tr("%1 GPUs; best TP %2 x PP %3 (DP %4): %5 samples/s, MFU %6")
                       .arg(mData.numProcs)
                       .arg(top.execution.tensorPar)
                       .arg(top.execution.pipelinePar)
                       .arg(top.execution.dataPar)
                       .arg(cf::number(top.stats.sample_rate, 2), cf::percent(top.stats.total_efficiency));
    note += QStringLiteral("\n")
            + (mData.exhaustive ? tr("All %1 valid layouts searched; empty cells have none").arg(mData.valid)
                                : tr("Best of the search's top %1 of %2 valid layouts per cell; grey cells "
                                     "have none among them")
                                      .arg(mData.hitsKept)
                                      .arg(mData.valid));
    return note;
}

QString HeatmapChart::toolTipAt(const QPointF &pos) const
{
    if (!message().isEmpty() || mData.tps.empty())
        return {};
    const long column = std::lround(plot()->xAxis->pixelToCoord(pos.x()));
    const long row = std::lround(plot()->yAxis->pixelToCoord(pos.y()));
    if (column < 0 || row < 0 || column >= static_cast<long>(mData.tps.size())
        || row >= static_cast<long>(mData.pps.size()))
        return {};
    const auto &hit = mData.cell(static_cast<std::size_t>(row), static_cast<std::size_t>(column));
    const QString cell = tr("TP %1 x PP %2")
                             .arg(mData.tps[static_cast<std::size_t>(column)])
                             .arg(mData.pps[static_cast<std::size_t>(row)]);
    if (!hit)
        return cell + QStringLiteral(": ")
               + (mData.exhaustive
                      ? tr("no valid layout")
                      : tr("no layout among the search's top %1: at most %2 samples/s, or none valid")
                            .arg(mData.hitsKept)
                            .arg(cf::number(mData.threshold, 2)));
    return tr("%1: %2 samples/s, MFU %3, step time %4\n%5")
        .arg(cell, cf::number(hit->stats.sample_rate, 2), cf::percent(hit->stats.total_efficiency),
             cf::ms(hit->stats.total_time), layoutformat::summary(hit->execution));
}

QList<QStringList> HeatmapChart::csvRows() const
{
    QList<QStringList> rows { { QStringLiteral("tp"), QStringLiteral("pp"), QStringLiteral("samples_per_s"),
                                QStringLiteral("mfu"), QStringLiteral("best_layout"),
                                QStringLiteral("point") } };
    for (std::size_t row = 0; row < mData.pps.size(); ++row)
        for (std::size_t column = 0; column < mData.tps.size(); ++column) {
            const auto &hit = mData.cell(row, column);
            rows << QStringList { QString::number(mData.tps[column]),
                                  QString::number(mData.pps[row]),
                                  hit ? cf::exact(hit->stats.sample_rate) : QString(),
                                  hit ? cf::exact(hit->stats.total_efficiency) : QString(),
                                  hit ? layoutformat::summary(hit->execution) : QString(),
                                  QStringLiteral("best in cell") };
        }
    if (mDesign && mDesign->layout) {
        const model::Execution &e = *mDesign->layout;
        const bool ok = mDesign->evaluation.ok;
        rows << QStringList { QString::number(e.tensorPar),
                              QString::number(e.pipelinePar),
                              ok ? cf::exact(mDesign->evaluation.stats.sample_rate) : QString(),
                              ok ? cf::exact(mDesign->evaluation.stats.total_efficiency) : QString(),
                              layoutformat::summary(e),
                              QStringLiteral("this design") };
    }
    return rows;
}

} // namespace gapstudio::views
