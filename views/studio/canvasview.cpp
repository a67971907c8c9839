// The canvas view (declared in canvasscene.h): fits the drawing, zooms with Ctrl + wheel and the
// View menu, and accepts drops (CanvasScene handles them).
#include "studio/canvasscene.h"

#include <QFontInfo>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace gapstudio::views {

CanvasView::CanvasView(CanvasScene *scene, QWidget *parent)
    : QGraphicsView(scene, parent)
    , mCanvas(scene)
{
    setObjectName(QStringLiteral("canvasView"));
    setAcceptDrops(true);
    setRenderHint(QPainter::Antialiasing);
    setDragMode(QGraphicsView::NoDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setToolTip(tr("Drop blocks from the palette here. Ctrl + wheel zooms; Ctrl+0 fits the drawing."));
}

double CanvasView::canvasCpu_ms() const
{
    return mCanvas->updateCpu_ms() + mPaintCpu.total_ms();
}

void CanvasView::paintEvent(QPaintEvent *event)
{
    const CpuMeter::Scope timed(mPaintCpu);
    QGraphicsView::paintEvent(event);
}

double CanvasView::zoom() const
{
    return transform().m11();
}

void CanvasView::setZoom(double zoom)
{
    const double z = std::clamp(zoom, kMinZoom, kMaxZoom);
    setTransform(QTransform::fromScale(z, z));
}

void CanvasView::zoomIn()
{
    mAutoFit = false;
    setZoom(zoom() * 1.25);
}

void CanvasView::zoomOut()
{
    mAutoFit = false;
    setZoom(zoom() / 1.25);
}

void CanvasView::fitToView()
{
    mAutoFit = true;
    const QSizeF view = viewport()->size();
    const QRectF drawing = sceneRect();
    if (drawing.isEmpty() || view.isEmpty())
        return;
    const double fit = std::min(view.width() / drawing.width(), view.height() / drawing.height());
    const double readable = kMinTextPixels / std::max(1, QFontInfo(scene()->font()).pixelSize());
    setZoom(std::max({ fit * 0.98, kMinFitZoom, readable }));
    // A drawing larger than the view at a readable zoom is shown from its top left, where the
    // design starts (its LLM, layout and GPU-count cards), not from its middle, which a view
    // centres on by default.
    horizontalScrollBar()->setValue(horizontalScrollBar()->minimum());
    verticalScrollBar()->setValue(verticalScrollBar()->minimum());
}

void CanvasView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    if (mAutoFit)
        fitToView();
}

void CanvasView::wheelEvent(QWheelEvent *event)
{
    if (!(event->modifiers() & Qt::ControlModifier))
        return QGraphicsView::wheelEvent(event);
    const int steps = event->angleDelta().y() / 120;
    for (int i = 0; i < std::abs(steps); ++i)
        steps > 0 ? zoomIn() : zoomOut();
    event->accept();
}

} // namespace gapstudio::views
