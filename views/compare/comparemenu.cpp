#include "compare/comparemenu.h"

#include "results/pinnedscenarios.h"

#include <QMainWindow>
#include <QStatusBar>

namespace gapstudio::views {

CompareMenu::CompareMenu(PinnedScenarios *pins, std::function<ResultsPtr()> current,
                         std::function<QString()> currentName, QMainWindow *window)
    : QMenu(tr("&Compare"), window)
    , mPins(pins)
{
    setObjectName(QStringLiteral("compareMenu"));
    mPin = addAction(tr("&Pin for comparison"), QKeySequence(tr("Ctrl+B")), this,
                     [this, window, current = std::move(current), currentName = std::move(currentName)] {
                         const ResultsPtr results = current();
                         if (!results)
                             return;
                         mPins->pin(results, currentName());
                         if (window)
                             window->statusBar()->showMessage(
                                 tr("Pinned \"%1\" for comparison (%n pinned)", nullptr, mPins->count())
                                     .arg(mPins->pins().back().name),
                                 4000);
                     });
    mPin->setObjectName(QStringLiteral("pinForComparison"));
    mPin->setToolTip(tr("Keep the current design's results next to the design as you change it"));
    mUnpin = addMenu(tr("&Unpin"));
    mUnpin->setObjectName(QStringLiteral("unpinMenu"));
    mClear = addAction(tr("&Clear all pins"), mPins, &PinnedScenarios::clear);
    mClear->setObjectName(QStringLiteral("clearPins"));
    connect(mPins, &PinnedScenarios::changed, this, &CompareMenu::rebuildUnpinMenu);
    rebuildUnpinMenu();
}

void CompareMenu::rebuildUnpinMenu()
{
    mUnpin->clear();
    for (int i = 0; i < mPins->count(); ++i)
        mUnpin->addAction(mPins->pins()[i].name, mPins, [this, i] { mPins->unpin(i); });
    mUnpin->setEnabled(mPins->count() > 0);
    mClear->setEnabled(mPins->count() > 0);
}

} // namespace gapstudio::views
