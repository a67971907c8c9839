#pragma once
/**
 * @file helpmenu.h
 * The Help menu: Getting started (a short guided tour, also shown once at the first start),
 * Keyboard shortcuts (every shortcut of the window's menus) and About GapStudio (version, the
 * model and where it comes from, the calibration in use).
 */

#include "results/scenarioresults.h"

#include <QDialog>
#include <QMenu>

#include <functional>

class QCheckBox;
class QLabel;
class QPushButton;
class QStackedWidget;

namespace gapstudio::views {

/// The About text (HTML): version, the model, its sources, and the calibration `results` ran with.
[[nodiscard]] QString aboutText(const ScenarioResults *results);

/// Every action with a shortcut in `window`'s menu bar: "Menu > Action" and its shortcut, in the
/// order of the menus.
[[nodiscard]] QList<QPair<QString, QString>> shortcutList(const QWidget *window);

/// Getting started: four short steps with Back and Next.
class GettingStartedDialog : public QDialog {
    Q_OBJECT

public:
    explicit GettingStartedDialog(QWidget *parent = nullptr);
    [[nodiscard]] int stepCount() const;
    [[nodiscard]] int step() const;
    void setStep(int step);

private:
    QStackedWidget *mSteps;
    QLabel *mCounter;
    QPushButton *mBack;
    QPushButton *mNext;
    QCheckBox *mShowAtStart;
};

class HelpMenu : public QMenu {
    Q_OBJECT

public:
    /// `latest` gives the latest results (for the calibration in About).
    HelpMenu(QWidget *window, std::function<ResultsPtr()> latest);

    /// Shows Getting started unless the user has seen it (or turned it off); once per user.
    void showFirstRunHintOnce();
    void showGettingStarted();
    void showShortcuts();
    void showAbout();

private:
    QWidget *mWindow;
    std::function<ResultsPtr()> mLatest;
};

} // namespace gapstudio::views
