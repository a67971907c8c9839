#include "explore/explorechart.h"

#include <qcustomplot.h>

#include <cmath>

namespace gapstudio::views {

ExploreChart::ExploreChart(QString id, QString title, QWidget *parent)
    : PlotChart(std::move(id), std::move(title), parent, Rows::HeadlineAndSubtitle)
{
    plot()->legend->setMargins(QMargins(6, 0, 6, 6)); // the sweeps' plots are short: a tighter legend
}

QCPGraph *ExploreChart::addMfuGraph()
{
    auto *mfu = plot()->addGraph(plot()->xAxis, plot()->yAxis2);
    mfu->setName(tr("MFU (%)"));
    mfu->setPen(QPen(QColor(0xF28E2B), 2.0));
    mfu->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QColor(0xF28E2B), QColor(0xF28E2B), 7));
    return mfu;
}

QCPGraph *ExploreChart::addInfeasibleGraph(const QString &name)
{
    auto *invalid = plot()->addGraph(plot()->xAxis, plot()->yAxis);
    invalid->setName(name);
    invalid->setLineStyle(QCPGraph::lsNone);
    invalid->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(0xE15759), 2.5), Qt::NoBrush, 11));
    return invalid;
}

void ExploreChart::markCurrent(double x)
{
    auto *line = new QCPItemStraightLine(plot());
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
    line->setPen(QPen(QColor(0x59A14F), 1.2, Qt::DotLine));
    auto *label = new QCPItemText(plot());
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(x, 0.02);
    // The label sits on the side of the line with more room (log or linear axis alike).
    const QCPRange range = plot()->xAxis->range();
    const bool log = plot()->xAxis->scaleType() == QCPAxis::stLogarithmic && range.lower > 0 && x > 0;
    const double at = log ? std::log(x / range.lower) / std::log(range.upper / range.lower)
                          : (x - range.lower) / range.size();
    const bool leftHalf = at < 0.5;
    label->setPositionAlignment(Qt::AlignTop | (leftHalf ? Qt::AlignLeft : Qt::AlignRight));
    label->setText(tr("this design"));
    label->setColor(QColor(0x3B7A34));
    label->setPadding(QMargins(4, 0, 4, 0));
}

} // namespace gapstudio::views
