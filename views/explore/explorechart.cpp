#include "explore/explorechart.h"

#include "charts/chartformat.h"
#include "charts/chartinteraction.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gapstudio::views {

ExploreChart::ExploreChart(QString id, QString title, QWidget *parent)
    : QWidget(parent)
    , mId(std::move(id))
    , mTitle(std::move(title))
    , mPlot(new QCustomPlot(this))
{
    mInteraction = new ChartInteraction(
        mPlot, [this] { return exportSource(); }, this);
    setObjectName(mId + QStringLiteral("_chart"));
    mPlot->setObjectName(mId + QStringLiteral("_plot"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mPlot);
    setMinimumSize(360, 230); // fits a 1280 x 800 screen under the canvas

    // Rows: title (0), subtitle (1), axis rect (2), legend (3, only as tall as needed).
    QCPLayoutGrid *grid = mPlot->plotLayout();
    grid->insertRow(0);
    grid->insertRow(0);
    mTitleElement = new QCPTextElement(mPlot, mTitle, QFont(font().family(), 12, QFont::Bold));
    mSubtitleElement = new QCPTextElement(mPlot, QString(), QFont(font().family(), 9));
    mSubtitleElement->setTextColor(QColor(0x50, 0x50, 0x50));
    mSubtitleElement->setMargins(QMargins(6, 0, 6, 4));
    grid->addElement(0, 0, mTitleElement);
    grid->addElement(1, 0, mSubtitleElement);
    mPlot->axisRect()->insetLayout()->take(mPlot->legend);
    grid->addElement(3, 0, mPlot->legend);
    grid->setRowStretchFactor(0, 0.001);
    grid->setRowStretchFactor(1, 0.001);
    grid->setRowStretchFactor(3, 0.001);
    mPlot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    mPlot->legend->setWrap(3);
    mPlot->legend->setBorderPen(Qt::NoPen);
    mPlot->legend->setMargins(QMargins(6, 0, 6, 6));
    mPlot->legend->setIconSize(14, 10);

    connect(mPlot, &QCustomPlot::mouseMove, this, &ExploreChart::onMouseMove);
}

ExploreChart::~ExploreChart() = default;

QString ExploreChart::subtitle() const
{
    return mSubtitleElement->text();
}

void ExploreChart::setSubtitle(const QString &text)
{
    mSubtitleElement->setText(text);
    mSubtitleElement->setVisible(!text.isEmpty());
}

ExportSource ExploreChart::exportSource() const
{
    const QSize size = mPlot->size();
    const bool laidOut = mPlot->isVisible() && size.width() >= 320 && size.height() >= 200;
    return { mPlot, laidOut ? size : QSize(1000, 560), mTitle, csvRows(), {}, {} };
}

void ExploreChart::clearPlot()
{
    mToolTips.clear();
    mMessage.clear();
    mMessageItem = nullptr; // deleted by clearItems()
    mPlot->clearPlottables();
    mPlot->clearItems();
    if (!mPlot->legend->layout()) { // taken out by showMessage()
        mPlot->plotLayout()->addElement(3, 0, mPlot->legend);
        mPlot->plotLayout()->setRowStretchFactor(3, 0.001);
    }
    mPlot->legend->setVisible(true);
    for (QCPAxis *axis : mPlot->axisRect()->axes()) {
        axis->setLabel({});
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setRangeReversed(false);
        axis->setScaleType(QCPAxis::stLinear);
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setTickLabelRotation(0);
        // One grid: the main axes'. Extra axes (the scaling chart's tokens/s, the right-hand
        // MFU axes) would draw a second set of lines at their own ticks.
        axis->grid()->setVisible(axis == mPlot->xAxis || axis == mPlot->yAxis);
    }
    mPlot->xAxis->setVisible(true);
    mPlot->yAxis->setVisible(true);
    mPlot->xAxis2->setVisible(false);
    mPlot->yAxis2->setVisible(false);
    setSubtitle({});
    onCleared();
}

void ExploreChart::showMessage(const QString &text)
{
    clearPlot();
    mMessage = text;
    // An empty legend, even hidden, caps the layout's width at its own (its maximum size is its
    // items'): the plot area, and the message centred on it, would sit in the left fifth of the
    // chart, the message cut at its left edge. Taken out until the next data (clearPlot()).
    if (mPlot->legend->layout()) {
        mPlot->plotLayout()->take(mPlot->legend);
        mPlot->plotLayout()->simplify();
    }
    mPlot->legend->setVisible(false);
    mPlot->xAxis->setVisible(false);
    mPlot->yAxis->setVisible(false);
    auto *item = new QCPItemText(mPlot);
    item->position->setType(QCPItemPosition::ptAxisRectRatio);
    item->position->setCoords(0.5, 0.5);
    item->setPositionAlignment(Qt::AlignCenter);
    item->setTextAlignment(Qt::AlignCenter);
    item->setFont(QFont(font().family(), 11));
    item->setText(chartformat::wrapped(text, item->font(), messageWidth()));
    item->setColor(QColor(0x60, 0x60, 0x60));
    item->setClipToAxisRect(false);
    mMessageItem = item;
    replot();
}

int ExploreChart::messageWidth() const
{
    // The plot's width once laid out (a chart on a hidden tab has been given its size too), else
    // the export width; never narrower than a few words.
    const int width = mPlot->testAttribute(Qt::WA_Resized) ? mPlot->width() : 1000;
    return std::max(120, width - 40);
}

void ExploreChart::rewrapMessage()
{
    if (mMessageItem) {
        mMessageItem->setText(chartformat::wrapped(mMessage, mMessageItem->font(), messageWidth()));
        replot();
    }
}

void ExploreChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    rewrapMessage();
}

QCPGraph *ExploreChart::addMfuGraph()
{
    auto *mfu = mPlot->addGraph(mPlot->xAxis, mPlot->yAxis2);
    mfu->setName(tr("MFU (%)"));
    mfu->setPen(QPen(QColor(0xF28E2B), 2.0));
    mfu->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QColor(0xF28E2B), QColor(0xF28E2B), 7));
    return mfu;
}

QCPGraph *ExploreChart::addInfeasibleGraph(const QString &name)
{
    auto *invalid = mPlot->addGraph(mPlot->xAxis, mPlot->yAxis);
    invalid->setName(name);
    invalid->setLineStyle(QCPGraph::lsNone);
    invalid->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(0xE15759), 2.5), Qt::NoBrush, 11));
    return invalid;
}

void ExploreChart::setToolTip(QCPAbstractPlottable *plottable, double key, const QString &text)
{
    mToolTips[plottable].insert(key, text);
}

void ExploreChart::markCurrent(double x)
{
    auto *line = new QCPItemStraightLine(mPlot);
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
    line->setPen(QPen(QColor(0x59A14F), 1.2, Qt::DotLine));
    auto *label = new QCPItemText(mPlot);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(x, 0.02);
    // The label sits on the side of the line with more room (log or linear axis alike).
    const QCPRange range = mPlot->xAxis->range();
    const bool log = mPlot->xAxis->scaleType() == QCPAxis::stLogarithmic && range.lower > 0 && x > 0;
    const double at = log ? std::log(x / range.lower) / std::log(range.upper / range.lower)
                          : (x - range.lower) / range.size();
    const bool leftHalf = at < 0.5;
    label->setPositionAlignment(Qt::AlignTop | (leftHalf ? Qt::AlignLeft : Qt::AlignRight));
    label->setText(tr("this design"));
    label->setColor(QColor(0x3B7A34));
    label->setPadding(QMargins(4, 0, 4, 0));
}

void ExploreChart::replot()
{
    mInteraction->rememberHome();
    mPlot->replot(QCustomPlot::rpQueuedReplot);
}

QString ExploreChart::toolTipAt(const QPointF &pos) const
{
    QString best;
    double bestDistance = std::numeric_limits<double>::max();
    for (auto it = mToolTips.cbegin(); it != mToolTips.cend(); ++it) {
        QCPAbstractPlottable *plottable = it.key();
        QVariant details;
        const double distance = plottable->selectTest(pos, false, &details);
        if (distance < 0 || distance >= mPlot->selectionTolerance() || distance >= bestDistance)
            continue;
        const QCPDataSelection selection = details.value<QCPDataSelection>();
        if (selection.isEmpty() || !plottable->interface1D())
            continue;
        const double key = plottable->interface1D()->dataMainKey(selection.dataRange().begin());
        const auto text = it.value().constFind(key);
        if (text == it.value().cend())
            continue;
        best = *text;
        bestDistance = distance;
    }
    return best;
}

void ExploreChart::onMouseMove(QMouseEvent *event)
{
    const QString text = toolTipAt(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, mPlot);
}

} // namespace gapstudio::views
