#include "charts/chartview.h"

#include "charts/chartformat.h"
#include "charts/chartinteraction.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace gapstudio::views {

ChartView::ChartView(QString id, QString title, QWidget *parent)
    : QWidget(parent), mId(std::move(id)), mTitle(std::move(title)), mPlot(new QCustomPlot(this))
{
    // First of the layout's listeners: the headline wraps before labels are fitted to the plot.
    connect(mPlot, &QCustomPlot::afterLayout, this, &ChartView::wrapHeadline);
    mInteraction = new ChartInteraction(
        mPlot, [this] { return exportSource(); }, this);
    setObjectName(mId + QStringLiteral("_chart"));
    mPlot->setObjectName(mId + QStringLiteral("_plot"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mPlot);
    setMinimumSize(360, 230); // fits a 1280 x 800 screen under the canvas

    // Layout: headline (row 0), axis rect (row 1), legend (row 2, wrapping, only as tall as needed).
    mPlot->plotLayout()->insertRow(0);
    mHeadline = new QCPTextElement(mPlot, mTitle, QFont(font().family(), 12, QFont::Bold));
    mPlot->plotLayout()->addElement(0, 0, mHeadline);
    mPlot->axisRect()->insetLayout()->take(mPlot->legend);
    mPlot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    mPlot->legend->setWrap(4);
    mPlot->legend->setBorderPen(Qt::NoPen);
    mPlot->legend->setMargins(QMargins(6, 0, 6, 12));
    mPlot->legend->setIconSize(14, 10);

    connect(mPlot, &QCustomPlot::mouseMove, this, &ChartView::onMouseMove);
    refresh();
}

ChartView::~ChartView() = default;

QString ChartView::headline() const
{
    return mHeadlineText;
}

void ChartView::wrapHeadline()
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

QSize ChartView::exportSize() const
{
    const QSize size = mPlot->size();
    if (!mPlot->isVisible() || size.width() < 320 || size.height() < 200)
        return kDefaultExportSize;
    return size;
}

ExportSource ChartView::exportSource() const
{
    return { mPlot, exportSize(), headline(), csvRows(), {}, {} };
}

void ChartView::setResults(ResultsPtr current)
{
    mCurrent = std::move(current);
    refresh();
}

void ChartView::setPins(QList<PinnedScenario> pins)
{
    mPins = std::move(pins);
    refresh();
}

void ChartView::setBaseline(ResultsPtr baseline)
{
    QList<PinnedScenario> pins;
    if (baseline)
        pins.append({ QString::fromStdString(baseline->scenario.info.name), std::move(baseline) });
    setPins(std::move(pins));
}

QString ChartRun::longName() const
{
    return name.isEmpty() ? run : QStringLiteral("%1 (%2)").arg(run, name);
}

bool ChartView::shows(const ResultsPtr &results) const
{
    return results && results->hasStats()
           && (results->ok()
               || (results->status == scenario::EvaluationStatus::OverCapacity && showsOverCapacity()));
}

const model::Analysis *ChartView::currentAnalysis() const
{
    return shows(mCurrent) ? &*mCurrent->analysis : nullptr;
}

std::vector<ChartRun> ChartView::pinRuns() const
{
    std::vector<ChartRun> runs;
    if (!currentAnalysis())
        return runs;
    for (int i = 0; i < mPins.size(); ++i) {
        const PinnedScenario &pin = mPins[i];
        if (!shows(pin.results))
            continue;
        const QString run
            = mPins.size() == 1 ? QStringLiteral("baseline") : QStringLiteral("pin %1").arg(i + 1);
        runs.push_back({ run, pin.name, &*pin.results->analysis, pin.results.get(), i + 1 });
    }
    return runs;
}

ChartRun ChartView::currentRun() const
{
    return { QStringLiteral("current"), {}, currentAnalysis(), mCurrent.get(), 0 };
}

void ChartView::addPinKeys(const std::vector<ChartRun> &pins,
                           const std::function<QBrush(const ChartRun &)> &brushOf)
{
    if (mPins.size() < 2)
        return;
    for (const ChartRun &pin : pins) {
        auto *key = new QCPBars(mPlot->yAxis, mPlot->xAxis); // no data: a legend entry only
        key->setObjectName(QStringLiteral("pinKey"));
        key->setName(QStringLiteral("%1: %2").arg(pin.run, pin.name));
        const QBrush brush = brushOf(pin);
        key->setBrush(brush);
        key->setPen(brush.style() == Qt::NoBrush ? QPen(Qt::NoPen) : QPen(brush.color().darker(120), 0.8));
    }
}

void ChartView::setHeadline(const QString &text)
{
    mHeadlineText = text;
    mHeadline->setText(text); // wrapped to the plot's width when laid out (wrapHeadline)
}

void ChartView::setToolTip(QCPAbstractPlottable *plottable, double key, const QString &text)
{
    mToolTips[plottable].insert(key, text);
}

QCPItemText *ChartView::addLabel(double x, double y, const QString &text, Qt::Alignment alignment, QCPAxis *yAxis)
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

void ChartView::refresh()
{
    clearPlot();
    if (!mCurrent) {
        showMessage(tr("No results"));
    } else if (const model::Analysis *current = currentAnalysis()) {
        rebuild(*current, pinRuns());
        // Legend items clip to their own rectangle, which is exactly one text line: leave room
        // for descenders when the painter's font metrics differ slightly from the screen's.
        for (int i = 0; i < mPlot->legend->elementCount(); ++i) // cells of a wrapped grid may be empty
            if (QCPLayoutElement *item = mPlot->legend->elementAt(i))
                item->setMargins(QMargins(0, 1, 0, 3));
        fitLegend(exportSize().width());
    } else if (mCurrent->status == scenario::EvaluationStatus::OverCapacity) {
        showMessage(tr("Not shown: the design cannot run. %1. See the Memory chart.")
                        .arg(QString::fromStdString(mCurrent->statusText)));
    } else {
        showMessage(tr("No results: %1").arg(QString::fromStdString(mCurrent->statusText)));
    }
    mInteraction->rememberHome();
    mPlot->replot(QCustomPlot::rpQueuedReplot);
}

void ChartView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (mMessageItem) { // re-wrap the message to the new width
        mMessageItem->setText(
            chartformat::wrapped(mMessage, mMessageItem->font(), std::max(200, width() - 40)));
        mPlot->replot(QCustomPlot::rpQueuedReplot);
    }
    if (mPlot->legend->layout()) {
        fitLegend(exportSize().width());
        mPlot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void ChartView::fitLegend(int width)
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
    const int columns = std::clamp((available + legend->columnSpacing()) / (widest + legend->columnSpacing()), 1, count);
    if (columns == legend->wrap())
        return;
    legend->setWrap(columns);
    legend->setFillOrder(legend->fillOrder(), true); // re-wrap the items already there
}

void ChartView::clearPlot()
{
    mToolTips.clear();
    mMessage.clear();
    mMessageItem = nullptr; // deleted by clearItems()
    mPlot->clearPlottables();
    mPlot->clearItems();
    if (!mPlot->legend->layout()) { // taken out by showMessage()
        mPlot->plotLayout()->addElement(2, 0, mPlot->legend);
        mPlot->plotLayout()->setRowStretchFactor(2, 0.001);
    }
    mPlot->legend->setVisible(true);
    for (QCPAxis *axis : mPlot->axisRect()->axes()) {
        axis->setLabel({});
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setRangeReversed(false);
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTickLabelRotation(0);
        axis->grid()->setVisible(axis->axisType() == QCPAxis::atBottom || axis->axisType() == QCPAxis::atLeft);
    }
    mPlot->xAxis->setVisible(true);
    mPlot->yAxis->setVisible(true);
    mPlot->xAxis2->setVisible(false);
    mPlot->yAxis2->setVisible(false);
    setHeadline(mTitle);
}

void ChartView::showMessage(const QString &text)
{
    mMessage = text;
    // An empty legend would cap the layout's width (its maximum size is its items'): take it out.
    mPlot->plotLayout()->take(mPlot->legend);
    mPlot->plotLayout()->simplify();
    mPlot->legend->setVisible(false);
    mPlot->xAxis->setVisible(false);
    mPlot->yAxis->setVisible(false);
    auto *item = new QCPItemText(mPlot);
    item->position->setType(QCPItemPosition::ptAxisRectRatio);
    item->position->setCoords(0.5, 0.5);
    item->setPositionAlignment(Qt::AlignCenter);
    item->setTextAlignment(Qt::AlignCenter);
    item->setFont(QFont(font().family(), 11));
    item->setText(chartformat::wrapped(text, item->font(), std::max(200, exportSize().width() - 40)));
    mMessageItem = item;
    item->setColor(QColor(0x60, 0x60, 0x60));
    item->setClipToAxisRect(false);
}

QString ChartView::toolTipAt(const QPointF &pos) const
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

void ChartView::onMouseMove(QMouseEvent *event)
{
    const QString text = toolTipAt(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, mPlot);
}

} // namespace gapstudio::views
