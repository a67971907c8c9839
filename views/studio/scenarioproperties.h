#pragma once
/**
 * @file scenarioproperties.h
 * Edit > Scenario properties: the design's name and notes. The name is what the window title,
 * reports and the provenance of exported charts show; until the user sets it here, it follows
 * edits ("Custom: <LLM> on <GPUs> × <GPU>, <topology>").
 */

#include <QDialog>

class QLineEdit;
class QPlainTextEdit;

namespace gapstudio::views {

class ScenarioDocument;

class ScenarioPropertiesDialog : public QDialog {
    Q_OBJECT

public:
    ScenarioPropertiesDialog(ScenarioDocument *document, QWidget *parent = nullptr);

    [[nodiscard]] QLineEdit *nameEdit() const { return mName; }
    [[nodiscard]] QPlainTextEdit *notesEdit() const { return mNotes; }

    /// Applies the fields to the document (one undoable command); what OK does.
    void apply();

private:
    ScenarioDocument *mDocument;
    QLineEdit *mName;
    QPlainTextEdit *mNotes;
};

} // namespace gapstudio::views
