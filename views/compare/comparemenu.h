#pragma once
/**
 * @file comparemenu.h
 * The Compare menu: Pin for comparison (the current design joins the pinned scenarios), Unpin one of
 * them, Clear all pins. The pins themselves live in PinnedScenarios.
 */

#include "results/scenarioresults.h"

#include <QMenu>

#include <functional>

class QMainWindow;

namespace gapstudio::views {

class PinnedScenarios;

class CompareMenu final : public QMenu {
    Q_OBJECT

public:
    /// `current` gives the current design's results and `currentName` its name at the time of pinning;
    /// messages go to `window`'s status bar.
    CompareMenu(PinnedScenarios *pins, std::function<ResultsPtr()> current,
                std::function<QString()> currentName, QMainWindow *window);

    [[nodiscard]] QAction *pinAction() const { return mPin; }
    [[nodiscard]] QAction *clearAction() const { return mClear; }

private:
    void rebuildUnpinMenu();

    PinnedScenarios *mPins;
    QAction *mPin;
    QMenu *mUnpin;
    QAction *mClear;
};

} // namespace gapstudio::views
