#pragma once
/**
 * @file blockactions.h
 * The studio's actions on blocks that write the user's presets (My blocks, userpresets.h): save
 * a block of the design as a preset, add a new GPU or interconnect, import a Hugging Face model.
 * Each has a plain function (used by tests) and an interactive one with its dialogs (the menus).
 */

#include "gapstudio/io/preset_json.h"
#include "studio/newblockdialog.h"
#include "studio/scenariodocument.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <string>

class QWidget;

namespace gapstudio::views {

/// Saves the block in `slot` as the design resolves it (slider changes included) as the user's
/// preset named `name`, adds it to the library and makes the design use it (one command; the
/// block's slider changes are then in the preset). Returns the preset id; nullopt with `error`.
std::optional<std::string> saveBlockAsPreset(ScenarioDocument *document, ScenarioDocument::Slot slot,
                                             const QString &name, QString *error = nullptr);

/// Saves `block` under My blocks and adds it to the library. Returns the path written.
std::optional<QString> addUserBlock(ScenarioDocument *document, const io::PresetFile &block,
                                    QString *error = nullptr);

/// A Hugging Face model imported as an LLM of My blocks.
struct ImportedModel {
    std::string id;
    QStringList approximations; ///< what the model's transformer does not represent exactly
    QString path;               ///< the preset written
};

/// Imports `configPath` (a Hugging Face config.json) as an LLM in My blocks, id "hf-<model folder>",
/// and makes the design train it (one command).
std::optional<ImportedModel> importModel(ScenarioDocument *document, const QString &configPath,
                                         QString *error = nullptr);

// With dialogs, for the menus (they report errors in message boxes).
void saveBlockAsPresetInteractive(QWidget *parent, ScenarioDocument *document,
                                  std::optional<ScenarioDocument::Slot> slot);
void newBlockInteractive(QWidget *parent, ScenarioDocument *document, NewBlockDialog::Kind kind);
void importModelInteractive(QWidget *parent, ScenarioDocument *document);

} // namespace gapstudio::views
