#pragma once
/**
 * @file blockinspector.h
 * The parameters of one block of the design (the part selected on the canvas, or a fixed one),
 * read from the resolved scenario of the latest results. With a document, the block's own values
 * are editable in place (double-click a value, type a number; the unit shown is the one typed):
 * each edit is one undoable command that turns the block into an edited copy
 * (ScenarioDocument::editBlock). The layout is edited in the Layout panel.
 */

#include "results/scenarioresults.h"
#include "studio/canvasscene.h"
#include "studio/scenariodocument.h"

#include <QTableWidget>

#include <functional>
#include <optional>
#include <vector>

namespace gapstudio::views {

class BlockInspector : public QTableWidget {
    Q_OBJECT

public:
    explicit BlockInspector(QWidget *parent = nullptr);

    /// Makes the block's values editable through `document` (nullptr: read-only).
    void setDocument(ScenarioDocument *document);
    void setPart(CanvasScene::Part part);
    void setResults(ResultsPtr results);
    [[nodiscard]] CanvasScene::Part part() const { return mPart; }
    /// The block of the design the shown part is (nullopt for the layout and the total).
    [[nodiscard]] std::optional<ScenarioDocument::Slot> slot() const;

    /// Sets the value of the row named `parameter` ("HBM capacity") in the row's unit; false if
    /// there is no such editable row. What typing into the cell does.
    bool editValue(const QString &parameter, double value);
    /// Whether the row named `parameter` is editable.
    [[nodiscard]] bool isEditable(const QString &parameter) const;

private:
    /// How an editable row changes the block: `apply` gets the typed value in the row's unit.
    struct Edit {
        ScenarioDocument::Slot slot;
        std::function<void(scenario::ResolvedScenario &, double)> apply;
    };
    void refresh();
    /// The rows of the part shown (refresh() writes them over the rows already there).
    void fillRows();
    void addRow(const QString &name, const QString &value);
    /// Row mFilled: written over the row shown there if any, left as it is if it reads the same.
    void writeRow(const QString &name, const QString &value, const QString &toolTip,
                  Qt::ItemFlags valueFlags);
    /// An editable row showing `value` in `unit` (what the user types in).
    void addEditable(const QString &name, double value, const QString &unit, Edit edit);
    /// The block's name and preset id; a slider edit (a scenario override of the block's keys,
    /// those starting with `prefix`) changes the block but not its preset, so both say it and
    /// list the edits.
    void addIdentityRows(const scenario::BlockInfo &info, std::string_view prefix);
    void addGpuRows(const scenario::ResolvedScenario &r);
    void addLinkRows(const scenario::Interconnect &link, ScenarioDocument::Slot slot, const QString &role);
    void addTopologyRows(const scenario::ResolvedScenario &r);
    void addLlmRows(const scenario::ResolvedScenario &r);
    void onItemChanged(QTableWidgetItem *item);

    CanvasScene::Part mPart = CanvasScene::Part::None;
    ResultsPtr mResults;
    ScenarioDocument *mDocument = nullptr;
    std::vector<std::optional<Edit>> mEdits; ///< per row
    bool mFilling = false;
    int mFilled = 0;           ///< rows written by the refresh under way
    bool mRowsChanged = false; ///< a row's text changed in it (the rows are laid out again)
};

} // namespace gapstudio::views
