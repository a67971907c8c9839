#pragma once
/**
 * @file commands.h
 * The studio's undo commands. The scenario is a few small structs, so every command is a value
 * snapshot (style B4): the scenario before and after, swapped by undo/redo. Slider drags merge
 * into one step per key, and a drag back to the start makes the step obsolete (Tiled's
 * ChangeValue).
 */

#include "gapstudio/scenario/scenario.h"

#include <QUndoCommand>

#include <string>

namespace gapstudio::views {

class ScenarioDocument;

/// Merge ids, one per kind of mergeable edit (Tiled's undocommands.h).
/// Cmd_EditLayout: consecutive edits of one layout field (spin box steps, a burst of wheel ticks on
/// a focused field) are one step, as a slider drag is.
enum CommandId { Cmd_SetOverride = 1, Cmd_SetGpuCount, Cmd_EditLayout };

class ChangeScenario final : public QUndoCommand {
public:
    /// `mergeId` < 0: never merges; else merges with the next command of the same id and key.
    ChangeScenario(ScenarioDocument *document, scenario::Scenario before, scenario::Scenario after,
                   const QString &text, int mergeId = -1, std::string mergeKey = {});

    void undo() override;
    void redo() override;
    [[nodiscard]] int id() const override { return mMergeId; }
    bool mergeWith(const QUndoCommand *other) override;
    /// The scenario before the (merged) edit and the merge key, for the document's naming.
    [[nodiscard]] const scenario::Scenario &before() const { return mBefore; }
    [[nodiscard]] const std::string &mergeKey() const { return mMergeKey; }

private:
    ScenarioDocument *mDocument;
    scenario::Scenario mBefore;
    scenario::Scenario mAfter;
    int mMergeId;
    std::string mMergeKey;
};

} // namespace gapstudio::views
