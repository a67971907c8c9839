#include "studio/docksizer.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>

#include <algorithm>
#include <cmath>

namespace gapstudio::views {

DockSizer::DockSizer(QMainWindow *window, QList<DockShare> shares)
    : QObject(window)
    , mWindow(window)
    , mShares(std::move(shares))
{
    setObjectName(QStringLiteral("dockSizer"));
    window->installEventFilter(this);
}

void DockSizer::apply()
{
    for (const DockShare &share : std::as_const(mShares)) {
        const int extent = share.orientation == Qt::Horizontal ? mWindow->width() : mWindow->height();
        QList<int> sizes;
        for (double fraction : share.shares)
            sizes << std::max(share.minimum_px, static_cast<int>(std::lround(fraction * extent)));
        mWindow->resizeDocks(share.docks, sizes, share.orientation);
    }
}

void DockSizer::cancel(QMainWindow *window)
{
    delete window->findChild<DockSizer *>(QStringLiteral("dockSizer"), Qt::FindDirectChildrenOnly);
}

bool DockSizer::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == mWindow && event->type() == QEvent::Show) {
        mWindow->removeEventFilter(this);
        apply();
        deleteLater(); // the first show only: from then on the user's splitters rule
    }
    return QObject::eventFilter(watched, event);
}

} // namespace gapstudio::views
