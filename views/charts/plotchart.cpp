#include "charts/plotchart.h"

#include "charts/chartformat.h"
#include "charts/chartinteraction.h"
#include "charts/legendtexts.h"
#include "common/whenseen.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace gapstudio::views {

PlotChart::PlotChart(QString id, QString title, QWidget *parent, Rows rows)
    : QWidget(parent)
    , mId(std::move(id))
    , mTitle(std::move(title))
    , mPlot(new QCustomPlot(this))
    , mLegendTexts(std::make_unique<LegendTexts>())
{
    // First of the layout's listeners: the headline wraps before labels are fitted to the plot.
    connect(mPlot, &QCustomPlot::afterLayout, this, &PlotChart::wrapHeadline);
    mInteraction = new ChartInteraction(
        mPlot, [this] { return exportSource(); }, this);
    setObjectName(mId + QStringLiteral("_chart"));
    mPlot->setObjectName(mId + QStringLiteral("_plot"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mPlot);
    setMinimumSize(360, 230); // fits a 1280 x 800 screen under the canvas

    // Rows: headline (0), the subtitle if any (1), axis rect, legend (only as tall as needed).
    QCPLayoutGrid *grid = mPlot->plotLayout();
    grid->insertRow(0);
    mHeadline = new QCPTextElement(mPlot, mTitle, QFont(font().family(), 12, QFont::Bold));
    grid->addElement(0, 0, mHeadline);
    if (rows == Rows::HeadlineAndSubtitle) {
        grid->insertRow(1);
        mSubtitle = new QCPTextElement(mPlot, QString(), QFont(font().family(), 9));
        mSubtitle->setTextColor(QColor(0x50, 0x50, 0x50));
        mSubtitle->setMargins(QMargins(6, 0, 6, 4));
        grid->addElement(1, 0, mSubtitle);
    }
    mLegendRow = grid->rowCount();
    mPlot->axisRect()->insetLayout()->take(mPlot->legend);
    grid->addElement(mLegendRow, 0, mPlot->legend);
    for (int row = 0; row < grid->rowCount(); ++row)
        if (grid->element(row, 0) != mPlot->axisRect())
            grid->setRowStretchFactor(row, 0.001);
    mPlot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    mPlot->legend->setWrap(4);
    mPlot->legend->setBorderPen(Qt::NoPen);
    mPlot->legend->setMargins(QMargins(6, 0, 6, 12));
    mPlot->legend->setIconSize(14, 10);

    // One paint buffer: QCustomPlot buffers its "overlay" layer (for a selection rectangle, which
    // these charts do not use) apart, and blends that chart-sized, empty buffer over the chart at
    // every repaint.
    mPlot->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);

    connect(mPlot, &QCustomPlot::mouseMove, this, &PlotChart::onMouseMove);
    mPlot->installEventFilter(this); // a put-off draw when the plot is painted (eventFilter)
    mHeadlineText = mTitle;
}

PlotChart::~PlotChart() = default;

QString PlotChart::subtitle() const
{
    drawIfStale();
    return mSubtitle ? mSubtitle->text() : QString();
}

void PlotChart::requestDraw()
{
    if (!isSeen(this)) {
        mStale = true;
        return;
    }
    mStale = false;
    ++mDraws;
    draw();
}

void PlotChart::updateData() const
{
    if (mDataStale && mDataUpdater) {
        mDataStale = false;
        mDataUpdater(); // sets the data: a draw now, or put off (mStale) while hidden
    }
}

void PlotChart::drawIfStale() const
{
    updateData();
    if (!mStale)
        return;
    mStale = false;
    auto *self = const_cast<PlotChart *>(this); // a put-off draw: the chart's state as set, drawn
    ++self->mDraws;
    self->draw();
}

bool PlotChart::eventFilter(QObject *watched, QEvent *event)
{
    // Shown (a tab clicked) or uncovered (a dock's tab raised): the plot is painted.
    if (watched == mPlot && event->type() == QEvent::Paint && (mStale || mDataStale))
        drawIfStale(); // its replot is queued: the next frame shows it
    return QWidget::eventFilter(watched, event);
}

QSize PlotChart::exportSize() const
{
    const QSize size = mPlot->size();
    if (!mPlot->isVisible() || size.width() < 320 || size.height() < 200)
        return kDefaultExportSize;
    return size;
}

ExportSource PlotChart::exportSource() const
{
    return { plot(), exportSize(), headline(), csvRows(), {}, {} };
}

void PlotChart::setHeadline(const QString &text)
{
    mHeadlineText = text;
    mHeadline->setText(text); // wrapped to the plot's width when laid out (wrapHeadline)
}

void PlotChart::wrapHeadline()
{
    if (!mHeadline)
        return;
    // The plot's width as drawn: the widget's on screen, an export's own while it renders.
    const QString text = chartformat::wrapped(mHeadlineText, mHeadline->font(),
                                              std::max(200, mPlot->viewport().width() - 20));
    if (text == mHeadline->text())
        return;
    mHeadline->setText(text);
    for (const auto phase :
         { QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout })
        mPlot->plotLayout()->update(phase);
}

void PlotChart::setSubtitle(const QString &text)
{
    if (!mSubtitle)
        return;
    mSubtitle->setText(text);
    mSubtitle->setVisible(!text.isEmpty());
}

void PlotChart::setToolTip(QCPAbstractPlottable *plottable, double key, const QString &text)
{
    mToolTips[plottable].insert(key, text);
}

QCPItemText *PlotChart::addLabel(double x, double y, const QString &text, Qt::Alignment alignment,
                                 QCPAxis *yAxis)
{
    auto *label = new QCPItemText(mPlot);
    label->position->setAxes(mPlot->xAxis, yAxis ? yAxis : mPlot->yAxis);
    label->position->setCoords(x, y);
    label->setPositionAlignment(alignment);
    label->setText(text);
    label->setClipToAxisRect(false);
    label->setPadding(QMargins(3, 1, 3, 1));
    return label;
}

void PlotChart::layOutLegend()
{
    if (mPlot->legend->layout() != nullptr) // not while a message shows
        fitLegend(exportSize().width());
}

void PlotChart::replot()
{
    mLegendTexts->adopt(mPlot->legend);
    layOutLegend();
    mInteraction->rememberHome();
    mPlot->replot(QCustomPlot::rpQueuedReplot);
}

void PlotChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (mMessageItem) // re-wrap the message to the new width
        mMessageItem->setText(chartformat::wrapped(mMessage, mMessageItem->font(), messageWidth()));
    if (mPlot->legend->layout())
        fitLegend(exportSize().width());
    mPlot->replot(QCustomPlot::rpQueuedReplot);
}

void PlotChart::fitLegend(int width)
{
    QCPLegend *legend = mPlot->legend;
    int widest = 0, count = 0;
    for (int i = 0; i < legend->elementCount(); ++i)
        if (QCPLayoutElement *item = legend->elementAt(i)) {
            widest = std::max(widest, item->minimumOuterSizeHint().width());
            ++count;
        }
    if (count == 0)
        return;
    const int available = width - legend->margins().left() - legend->margins().right();
    const int columns
        = std::clamp((available + legend->columnSpacing()) / (widest + legend->columnSpacing()), 1, count);
    if (columns == legend->wrap())
        return;
    legend->setWrap(columns);
    legend->setFillOrder(legend->fillOrder(), true); // re-wrap the items already there
}

void PlotChart::clearPlot()
{
    mToolTips.clear();
    mMessage.clear();
    mMessageItem = nullptr; // deleted by clearItems()
    // The legend emptied at once: a plottable deleted with its entry still in the legend removes
    // it with QCPLegend::removeItem, which orders the whole legend again for each entry.
    mPlot->legend->clearItems();
    mPlot->clearPlottables();
    mPlot->clearItems();
    if (!mPlot->legend->layout()) { // taken out by showMessage()
        mPlot->plotLayout()->addElement(mLegendRow, 0, mPlot->legend);
        mPlot->plotLayout()->setRowStretchFactor(mLegendRow, 0.001);
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
    setHeadline(mTitle);
    setSubtitle({});
    onCleared();
}

void PlotChart::showMessage(const QString &text)
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

int PlotChart::messageWidth() const
{
    // The plot's width once laid out (a chart on a hidden tab has been given its size too), else
    // the export width; never narrower than a few words.
    const int width = mPlot->testAttribute(Qt::WA_Resized) ? mPlot->width() : kDefaultExportSize.width();
    return std::max(120, width - 40);
}

QString PlotChart::toolTipAt(const QPointF &pos) const
{
    drawIfStale();
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

void PlotChart::onMouseMove(QMouseEvent *event)
{
    const QString text = toolTipAt(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, mPlot);
}

} // namespace gapstudio::views
