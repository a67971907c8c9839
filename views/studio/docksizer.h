#pragma once
/**
 * @file docksizer.h
 * The docks' first sizes as shares of the window, applied when the window is first shown (at its final
 * size: 1280 x 800 as well as 1600 x 1000), unless a saved window state was restored before.
 */

#include <QList>
#include <QObject>

class QDockWidget;
class QMainWindow;

namespace gapstudio::views {

/// `docks` side by side (Horizontal) or stacked (Vertical), sized as `shares` of the window's width or
/// height, each at least `minimum_px`.
struct DockShare {
    QList<QDockWidget *> docks;
    QList<double> shares;
    Qt::Orientation orientation = Qt::Horizontal;
    int minimum_px = 0;
};

class DockSizer final : public QObject {
    Q_OBJECT

public:
    /// Sizes `window`'s docks by `shares` (in order) when it is first shown; a child of `window`.
    DockSizer(QMainWindow *window, QList<DockShare> shares);

    /// Applies the shares to the window's current size now.
    void apply();
    /// The window's saved state takes over: `window`'s sizer (if any) no longer acts.
    static void cancel(QMainWindow *window);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QMainWindow *mWindow;
    QList<DockShare> mShares;
};

} // namespace gapstudio::views
