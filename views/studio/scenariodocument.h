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
    /// Opens a scenario file. A block written into the file whose id names a different local
    /// preset (say, the user's own block of that id) is the one used, and notice() says so.
    bool open(const QString &path, QString *error);
    /// Saves selfContained(): the file opens on any machine with GapStudio.
    bool saveAs(const QString &path, QString *error);
    /// The design with every block GapStudio does not ship (the user's own, "My blocks") written
    /// in (scenario::withUnshippedBlocksInline): what a saved file or an export embeds.
    [[nodiscard]] scenario::Scenario selfContained() const { return selfContained(mScenario); }
    /// The same for another design of this session (the one a report or chart shows).
    [[nodiscard]] scenario::Scenario selfContained(const scenario::Scenario &design) const;

    // Edits: each pushes one command (sliders merge per key while dragging).
    /// Sets the block of `kind` to preset `presetId`; interconnects go to the scale-out link
    /// unless `scaleUp`. False if the library has no such preset. A topology whose tiers the
    /// layout no longer fits remaps the layout's network tiers in the same command, and says so
    /// (notice()).
    bool applyPreset(BlockKind kind, const std::string &presetId, bool scaleUp = false);
    /// Sets (or, with nullopt, removes) a designer override, e.g. {"gpu.hbm_bandwidth_GBps", 4000}.
    void setOverride(const std::string &key, std::optional<double> value);
    /// Removes every override (one command).
    void clearOverrides();
    /// Sets the GPU count; DP and expert DP follow when they can (layoutrules.h balanceLayout).
    void setGpuCount(std::int64_t gpuCount);
    /// Edits the layout's execution (the layout becomes inline, "custom"); `field` is the JSON key.
    /// TP, CP, PP, EP and ES edits rebalance DP and expert DP to the GPU count; a DP edit sets the
    /// GPU count to TP x CP x PP x DP. Consecutive edits of one field merge into one undo step.
    void editLayout(const std::string &field, const std::function<void(model::Execution &)> &edit);

    /// The design's name and notes (Scenario properties); one command. A name set here is kept:
    /// the name no longer follows edits.
    void setProperties(const QString &name, const QString &notes);
    /// Whether edits rename the design ("Custom: <LLM> on <GPUs> <GPU>, <topology>"): while it
    /// still has the name of the example or default it was opened as, a "Custom: " name, or none.
    [[nodiscard]] bool nameFollowsEdits() const;
    /// The design's name for titles and reports ("Untitled design" when it has none).
    [[nodiscard]] QString displayName() const;

    /// The blocks of a design a user can edit in place.
    enum class Slot { Gpu, ScaleUp, ScaleOut, Topology, Llm };
    /// Edits one block of the design in place (one command, `what` names it for undo): the block
    /// as the design resolves it, its sliders' overrides included, becomes an inline copy
    /// ("<name> (edited)") and those overrides are dropped, so only the edited value changes.
    bool editBlock(Slot slot, const std::function<void(scenario::ResolvedScenario &)> &edit,
                   const QString &what);
    /// The block of `slot` as the design resolves it (overrides applied), if it resolves.
    [[nodiscard]] std::optional<scenario::ResolvedScenario> resolved() const;
    /// Whether the design's LLM is a mixture of experts.
    [[nodiscard]] bool isMoe() const;

    /// Adds presets the user saved (My blocks) to the library; later ids replace earlier ones.
    void addToLibrary(const scenario::PresetLibrary &presets);
    /// Makes `slot` use the preset `presetId` and drops the overrides of that block (they are in
    /// the preset already): one command. False if the library has no such preset.
    bool useSavedBlock(Slot slot, const std::string &presetId);

    /// The name of the library's preset `id` of `kind` (the id itself if there is none).
    [[nodiscard]] std::string presetName(BlockKind kind, const std::string &id) const;

    /// Adds a calibration preset to this session's library (one the user has just fitted and
    /// saved), replacing one of the same id; the results are recomputed.
    void addCalibration(const scenario::CalibrationSet &calibration);
    /// Makes the design run with calibration preset `presetId` (empty: the shipped default). One
    /// command; false if the library has no such preset.
    bool setCalibration(const std::string &presetId);

    /// Makes the design run on software preset `presetId` (its MoE dispatcher and all-to-all
    /// overlap apply where the layout names none). One command; false if the library has no such
    /// preset.
    bool setSoftware(const std::string &presetId);

    /// Makes the design write its checkpoints to storage preset `presetId` (empty: none, the
    /// goodput model's default bandwidth). One command; false if the library has no such preset.
    bool setStorage(const std::string &presetId);

    /// The layout the scenario uses (its inline block or its preset), if resolvable.
    [[nodiscard]] std::optional<scenario::Layout> currentLayout() const;

    /// Called by commands only.
    void setScenario(const scenario::Scenario &scenario);

    /// Replaces the whole document with an example or the default design: like reset(), but the
    /// name follows edits (it is not the user's name).
    void resetToExample(const scenario::Scenario &scenario);

signals:
    void changed();
    void fileNameChanged(const QString &fileName);
    /// addToLibrary() or addCalibration() added presets (the palette and pickers rebuild).
    void libraryChanged();
    /// Something an edit did beyond what the user asked, in words for the status bar (e.g. the
    /// layout's network tiers remapped to a new topology).
    void notice(const QString &text);

private:
    /// After a topology change in `s`: the layout's network tiers fitted to the new topology's
    /// (model::fitNetworkTiers) and the layout made custom; the moves in words ("DP network tier
    /// 2 → 1"), empty when nothing moves (the tiers fit, or no mapping fits).
    [[nodiscard]] QString refitNetworkTiers(scenario::Scenario &s) const;
    void push(scenario::Scenario after, const QString &text, int mergeId = -1, std::string mergeKey = {});
    /// Renames `after` as "Custom: ..." when the edit changes the design of one whose name follows
    /// edits; an edit back to where a merged gesture started gets that start's name back.
    void nameAfterEdit(scenario::Scenario &after, int mergeId, const std::string &mergeKey) const;

    scenario::PresetLibrary mLibrary;
    scenario::Scenario mScenario;
    QUndoStack mUndoStack;
    QString mFileName;
    std::string mExampleName; ///< the name of the example or default the document was opened as
};

} // namespace gapstudio::views
