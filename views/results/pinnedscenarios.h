#pragma once
/**
 * @file pinnedscenarios.h
 * The scenarios pinned for comparison: any number of earlier designs, each with its name and its own
 * pipeline result, kept side by side with the current design (Key results columns, the charts, the
 * report). The charts draw every pin; differences are taken from the first.
 */

#include "results/scenarioresults.h"

#include <QList>
#include <QObject>
#include <QString>

namespace gapstudio::views {

struct PinnedScenario {
    QString name;       ///< unique among the pins ("GPT-3 175B on 4096 H100", "… (2)")
    ResultsPtr results; ///< never null
};

/// A design compared with alone (the one-pin case, "baseline"), named by its design; empty for nullptr.
[[nodiscard]] QList<PinnedScenario> baselinePin(ResultsPtr baseline);

class PinnedScenarios final : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;

    /// Pins `results` under `name` (made unique with " (2)", " (3)", ...); null results are ignored.
    void pin(ResultsPtr results, const QString &name);
    /// Removes the pin at `index` (no-op when out of range).
    void unpin(int index);
    void clear();

    [[nodiscard]] const QList<PinnedScenario> &pins() const { return mPins; }
    [[nodiscard]] int count() const { return static_cast<int>(mPins.size()); }
    /// The results of every pin, in pin order (for the report and exports).
    [[nodiscard]] std::vector<const ScenarioResults *> results() const;

signals:
    void changed();

private:
    QList<PinnedScenario> mPins;
};

} // namespace gapstudio::views
