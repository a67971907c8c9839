#pragma once
/**
 * @file costpanel.h
 * The Cost and power panel: the cost model's inputs as fields (electricity price, PUE,
 * depreciation, facility charge, the token budget of a training run and the main prices), each an
 * undoable override of the design (ScenarioDocument::setOverride, the keys `eval --cost` takes);
 * the key figures of the pipeline's cost result ($/hour, $/million tokens, J/token, MW, time and
 * cost to train the token budget); and the $/hour breakdown (CostChart). A design that does not
 * run (over capacity, infeasible, malformed) shows no cost figures, only why.
 */

#include "results/pinnedscenarios.h"
#include "results/scenarioresults.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace gapstudio::views {

class CostChart;
class ScenarioDocument;
class WhenSeen;

class CostPanel final : public QWidget {
    Q_OBJECT

public:
    explicit CostPanel(ScenarioDocument *document, QWidget *parent = nullptr);

    void setResults(ResultsPtr results);
    /// The cost chart draws every pin beside the current design.
    void setPins(const QList<PinnedScenario> &pins);

    [[nodiscard]] CostChart *chart() const { return mChart; }
    /// The field of override `key` ("cost.usd_per_kWh", ...), or nullptr; it shows the latest
    /// results (a change made while the panel was not seen is shown first).
    [[nodiscard]] QDoubleSpinBox *field(const QString &key) const;
    /// The checkpoint storage choice: "no storage block" (data "") and the library's storage presets.
    [[nodiscard]] QComboBox *storageChoice() const;
    /// The text shown for figure `key` (costfigures.h; "—" when there is none).
    [[nodiscard]] QString figureText(const QString &key) const;
    /// The status line (why there are no figures, or the bill of materials' notes).
    [[nodiscard]] QString statusText() const;

private:
    void apply(const QString &key, double displayValue);
    void fillStorage();
    /// The fields, figures and status of mResults (when the panel is seen: whenseen.h).
    void showResults();

    ScenarioDocument *mDocument;
    ResultsPtr mResults;
    QHash<QString, QDoubleSpinBox *> mFields;
    QComboBox *mStorage;
    QHash<QString, QLabel *> mFigures;
    QLabel *mStatus;
    QLabel *mBanner; ///< model::unpricedWarning, above the figures; hidden when every part is priced
    CostChart *mChart;
    WhenSeen *mWhenSeen;
};

} // namespace gapstudio::views
