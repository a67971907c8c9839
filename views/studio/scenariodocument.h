#pragma once
/**
 * @file scenariodocument.h
 * One document, one truth: the scenario being designed, its undo stack and its file. Views never
 * change the scenario directly; they call the edit functions below, which push commands.
 */

#include "gapstudio/scenario/scenario.h"
#include "studio/studioengine.h"

#include <QObject>
#include <QUndoStack>

#include <functional>
#include <optional>
#include <string>

namespace gapstudio::views {

class ScenarioDocument : public QObject {
    Q_OBJECT

public:
    explicit ScenarioDocument(scenario::PresetLibrary library, QObject *parent = nullptr);

    [[nodiscard]] const scenario::Scenario &scenario() const { return mScenario; }
    [[nodiscard]] const scenario::PresetLibrary &library() const { return mLibrary; }
    [[nodiscard]] QUndoStack *undoStack() { return &mUndoStack; }
    [[nodiscard]] QString fileName() const { return mFileName; }
    [[nodiscard]] bool isModified() const { return !mUndoStack.isClean(); }

    /// Replaces the whole document (New, Open, autosave restore): clears the undo history.
    void reset(const scenario::Scenario &scenario, const QString &fileName = {});
    bool open(const QString &path, QString *error);
    bool saveAs(const QString &path, QString *error);

    // Edits: each pushes one command (sliders merge per key while dragging).
    /// Sets the block of `kind` to preset `presetId`; interconnects go to the scale-out link
    /// unless `scaleUp`. False if the library has no such preset.
    bool applyPreset(BlockKind kind, const std::string &presetId, bool scaleUp = false);
    /// Sets (or, with nullopt, removes) a designer override, e.g. {"gpu.hbm_bandwidth_GBps", 4000}.
    void setOverride(const std::string &key, std::optional<double> value);
    /// Removes every override (one command).
    void clearOverrides();
    /// Sets the GPU count; DP follows when GPU count / (TP * PP) is whole.
    void setGpuCount(std::int64_t gpuCount);
    /// Edits the layout's execution (the layout becomes inline, "custom"); `field` is the JSON key.
    void editLayout(const std::string &field, const std::function<void(model::Execution &)> &edit);

    /// Adds a calibration preset to this session's library (one the user has just fitted and
    /// saved), replacing one of the same id; the results are recomputed.
    void addCalibration(const scenario::CalibrationSet &calibration);
    /// Makes the design run with calibration preset `presetId` (empty: the shipped default). One
    /// command; false if the library has no such preset.
    bool setCalibration(const std::string &presetId);

    /// The layout the scenario uses (its inline block or its preset), if resolvable.
    [[nodiscard]] std::optional<scenario::Layout> currentLayout() const;

    /// Called by commands only.
    void setScenario(const scenario::Scenario &scenario);

signals:
    void changed();
    void fileNameChanged(const QString &fileName);

private:
    void push(scenario::Scenario after, const QString &text, int mergeId = -1, std::string mergeKey = {});

    scenario::PresetLibrary mLibrary;
    scenario::Scenario mScenario;
    QUndoStack mUndoStack;
    QString mFileName;
};

} // namespace gapstudio::views
