#pragma once
// The region a widget was asked to repaint: the union of its paint events' regions from the
// moment this is made. A test of "repaints only what changed" reads it after the change.

#include <QEvent>
#include <QObject>
#include <QPaintEvent>
#include <QRegion>
#include <QWidget>

namespace gapstudio::test {

struct PaintedRegion : QObject {
    explicit PaintedRegion(QWidget *widget) { widget->installEventFilter(this); }
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            region |= static_cast<QPaintEvent *>(event)->region();
        return false;
    }
    QRegion region;
};

} // namespace gapstudio::test
