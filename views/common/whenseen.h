#pragma once
/**
 * @file whenseen.h
 * Work for what is on screen only. A panel in a dock's tab behind another tab stays "visible" to
 * Qt (QMainWindow moves it off screen), so isVisible() does not tell; isSeen() does. WhenSeen
 * runs a panel's update at once when the panel is seen, or when its window is not shown (a panel
 * on its own, an export), and otherwise keeps the latest one until the panel is shown or its
 * dock's tab is raised: a change of the design costs nothing in panels nobody looks at.
 */

#include <QObject>

#include <functional>

class QWidget;

namespace gapstudio::views {

/// Whether `widget` is on screen: visible and inside each of its ancestors (not moved off the
/// window, as a dock's tab behind another is).
[[nodiscard]] bool isSeen(const QWidget *widget);

class WhenSeen : public QObject {
    Q_OBJECT

public:
    /// Watches `widget` (which owns this object).
    explicit WhenSeen(QWidget *widget);

    /// Runs `update` now if the widget is seen or its window is not shown, else keeps it (in place
    /// of one kept before) until the widget is seen.
    void run(std::function<void()> update);
    /// Runs the update kept, if any.
    void flush();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Connects to the enclosing dock's visibilityChanged (a tab raised), once it has one.
    void watchDock();

    QWidget *mWidget;
    std::function<void()> mPending;
    bool mWatchingDock = false;
};

} // namespace gapstudio::views
