#pragma once
/**
 * @file examplemenu.h
 * File > Open example: the scenarios shipped with the presets (scenarios/ of every preset folder
 * of the search order, the embedded copy included), listed when the menu opens, so that examples
 * added to presets/scenarios appear without a code change. They are grouped by their subfolder of
 * scenarios/, else by the LLM they train; the default design comes first.
 */

#include "gapstudio/scenario/scenario.h"

#include <QMenu>
#include <QString>

#include <optional>
#include <vector>

namespace gapstudio::views {

struct ExampleScenario {
    QString group;        ///< "GPT-3 175B", or the subfolder's name
    QString name;         ///< the scenario's name
    QString relativePath; ///< "scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json"
};

/// The shipped scenarios, grouped and sorted (the default first); `library` names their LLMs.
/// A scenario file that cannot be read is left out.
[[nodiscard]] std::vector<ExampleScenario> exampleScenarios(const scenario::PresetLibrary &library);

/// The shipped scenario at `relativePath` (from the first preset folder that has it).
[[nodiscard]] std::optional<scenario::Scenario> loadExample(const QString &relativePath,
                                                            QString *error = nullptr);

class ExampleMenu : public QMenu {
    Q_OBJECT

public:
    /// `library` is read each time the menu opens (it may grow during the session).
    ExampleMenu(const scenario::PresetLibrary *library, QWidget *parent = nullptr);

signals:
    void exampleChosen(const QString &relativePath);

private:
    void populate();

    const scenario::PresetLibrary *mLibrary;
};

} // namespace gapstudio::views
