#include "common/whenseen.h"

#include <QDockWidget>
#include <QEvent>
#include <QRect>
#include <QWidget>

namespace gapstudio::views {

bool isSeen(const QWidget *widget)
{
    // Not visibleRegion(): it also takes away opaque children (a chart's plot covers it all).
    if (!widget->isVisible())
        return false;
    QRect area = widget->rect();
    for (const QWidget *w = widget; !w->isWindow() && w->parentWidget(); w = w->parentWidget()) {
        area = area.translated(w->pos()) & w->parentWidget()->rect();
        if (area.isEmpty())
            return false;
    }
    return true;
}

WhenSeen::WhenSeen(QWidget *widget)
    : QObject(widget)
    , mWidget(widget)
{
    widget->installEventFilter(this);
}

void WhenSeen::run(std::function<void()> update)
{
    watchDock();
    if (!mWidget->window()->isVisible() || isSeen(mWidget)) {
        mPending = {};
        update();
        return;
    }
    mPending = std::move(update);
}

void WhenSeen::flush()
{
    if (!mPending)
        return;
    const std::function<void()> update = std::move(mPending);
    mPending = {};
    update();
}

void WhenSeen::watchDock()
{
    if (mWatchingDock)
        return;
    for (QWidget *parent = mWidget->parentWidget(); parent; parent = parent->parentWidget())
        if (auto *dock = qobject_cast<QDockWidget *>(parent)) {
            connect(dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
                if (visible)
                    flush();
            });
            mWatchingDock = true;
            return;
        }
}

bool WhenSeen::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == mWidget && event->type() == QEvent::Show)
        flush();
    return QObject::eventFilter(watched, event);
}

} // namespace gapstudio::views
