#pragma once
/**
 * @file bestlayoutpanel.h
 * The "Best layout" panel: the "Judge at best layout" toggle, one "keep" box per layout choice
 * (kept at the design's own value while searching, e.g. keep TP = 8), the search's state, your
 * layout next to the best layout (throughput, MFU and the layout-choice loss, all read from the
 * model's two results) and "Use the best layout" (one undoable layout edit).
 */

#include "results/scenarioresults.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;

namespace gapstudio::views {

class BestLayoutSearch;
class ChartsPanel;
class ResultsTable;
class ScenarioDocument;

class BestLayoutPanel final : public QWidget {
    Q_OBJECT

public:
    explicit BestLayoutPanel(ScenarioDocument *document, QWidget *parent = nullptr);

    [[nodiscard]] BestLayoutSearch *search() const { return mSearch; }
    /// The design's results after a change (connect to Recalculator::resultsReady).
    void setResults(ResultsPtr results);
    /// Shows each best layout found in `charts` (the layout-choice loss) and `keyResults`.
    void showIn(ChartsPanel *charts, ResultsTable *keyResults);
    /// The "Judge at best layout" toggle.
    [[nodiscard]] QCheckBox *toggle() const { return mToggle; }
    /// The comparison text shown (your layout, best layout, layout choice loss).
    [[nodiscard]] QString comparisonText() const;

private:
    void updatePins();
    void showComparison();

    ScenarioDocument *mDocument;
    BestLayoutSearch *mSearch;
    QCheckBox *mToggle;
    QList<QCheckBox *> mKeep; ///< in the order of LayoutPinChoice's fields
    QLabel *mState;
    QLabel *mComparison;
    QPushButton *mUse;
};

} // namespace gapstudio::views
