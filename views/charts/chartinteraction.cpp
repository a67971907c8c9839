#include "charts/chartinteraction.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QClipboard>
#include <QMenu>

namespace gapstudio::views {

namespace {
const char *const kHomeLower = "gapstudioHomeLower";
const char *const kHomeUpper = "gapstudioHomeUpper";
const char *const kHomeClip = "gapstudioHomeClip";
} // namespace

ChartInteraction::ChartInteraction(QCustomPlot *plot, std::function<ExportSource()> source, QObject *parent)
    : QObject(parent)
    , mPlot(plot)
    , mSource(std::move(source))
{
    mPlot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    mPlot->axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    mPlot->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    mPlot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(mPlot, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        QMenu *menu = createMenu(mPlot);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(mPlot->mapToGlobal(pos));
    });
    // A double-click on the plot also returns to the full view.
    connect(mPlot, &QCustomPlot::mouseDoubleClick, this, [this] { resetZoom(); });
    connect(mPlot, &QCustomPlot::afterLayout, this, &ChartInteraction::keepLabelsInView);
}

void ChartInteraction::keepLabelsInView()
{
    const bool zoomed = isZoomed();
    const QRectF area = QRectF(mPlot->axisRect()->rect()).adjusted(-1, -1, 1, 1);
    for (int i = 0; i < mPlot->itemCount(); ++i) {
        auto *label = qobject_cast<QCPItemText *>(mPlot->item(i));
        if (!label || label->position->type() != QCPItemPosition::ptPlotCoords)
            continue; // a message or a note placed on the plot area, not at a data point
        if (!label->property(kHomeClip).isValid())
            label->setProperty(kHomeClip, label->clipToAxisRect());
        label->setClipToAxisRect(zoomed || label->property(kHomeClip).toBool());
        label->setVisible(!zoomed || area.contains(label->position->pixelPosition()));
    }
}

QWidget *ChartInteraction::plotWidget() const
{
    return mPlot;
}

void ChartInteraction::rememberHome()
{
    for (QCPAxis *axis : mPlot->axisRect()->axes()) {
        axis->setProperty(kHomeLower, axis->range().lower);
        axis->setProperty(kHomeUpper, axis->range().upper);
    }
}

void ChartInteraction::resetZoom()
{
    for (QCPAxis *axis : mPlot->axisRect()->axes()) {
        const QVariant lower = axis->property(kHomeLower), upper = axis->property(kHomeUpper);
        if (lower.isValid() && upper.isValid())
            axis->setRange(lower.toDouble(), upper.toDouble());
    }
    mPlot->replot(QCustomPlot::rpQueuedReplot);
}

bool ChartInteraction::isZoomed() const
{
    for (QCPAxis *axis : mPlot->axisRect()->axes()) {
        const QVariant lower = axis->property(kHomeLower), upper = axis->property(kHomeUpper);
        if (lower.isValid()
            && (axis->range().lower != lower.toDouble() || axis->range().upper != upper.toDouble()))
            return true;
    }
    return false;
}

void ChartInteraction::copyImage() const
{
    const ExportSource source = mSource();
    QApplication::clipboard()->setImage(
        mPlot->toPixmap(source.size.width(), source.size.height(), 2.0).toImage());
}

QMenu *ChartInteraction::createMenu(QWidget *parent)
{
    auto *menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("chartMenu"));
    menu->addAction(tr("Copy image"), this, &ChartInteraction::copyImage)
        ->setObjectName(QStringLiteral("copyImage"));
    QAction *exportAction = menu->addAction(tr("Export…"), this, &ChartInteraction::exportRequested);
    exportAction->setObjectName(QStringLiteral("exportChart"));
    // Without a receiver (a chart outside the studio window) there is nothing to export with.
    exportAction->setEnabled(isSignalConnected(QMetaMethod::fromSignal(&ChartInteraction::exportRequested)));
    QAction *reset = menu->addAction(tr("Reset zoom"), this, &ChartInteraction::resetZoom);
    reset->setObjectName(QStringLiteral("resetZoom"));
    reset->setEnabled(isZoomed());
    return menu;
}

} // namespace gapstudio::views
