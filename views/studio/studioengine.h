#pragma once
/**
 * @file studioengine.h
 * The studio's one door to the scenario layer of the model: the preset library (the search order
 * of io/preset_locations.h), the scenario file format (io/preset_json.h) and the default scenario.
 * Results come from the scenario pipeline (recalculator.h).
 */

#include "gapstudio/scenario/scenario.h"

#include <QString>

#include <optional>
#include <string>

namespace gapstudio::views {

/// The kinds of palette block a user can drop on the canvas.
enum class BlockKind { Gpu, Interconnect, Topology, Llm, Layout };

[[nodiscard]] QString blockKindName(BlockKind kind);            ///< "gpu", "interconnect", ...
[[nodiscard]] std::optional<BlockKind> blockKindFromName(const QString &name);

/// The presets of this session: the layered library of io::presetSearchOrder() (a wrong
/// $GAPSTUDIO_PRESETS or a broken user folder is reported with qWarning and left out).
[[nodiscard]] scenario::PresetLibrary loadStudioLibrary();

/// The scenario the studio opens with: scenarios/default.gapstudio.json of the first preset folder
/// that has it (io::loadShippedScenario; the embedded copy at the latest).
[[nodiscard]] scenario::Scenario studioDefaultScenario();

/// Scenario file I/O (`*.gapstudio.json`). Errors come back in `error`, never as exceptions.
[[nodiscard]] std::optional<scenario::Scenario> readScenarioFile(const QString &path, QString *error);
[[nodiscard]] bool writeScenarioFile(const scenario::Scenario &scenario, const QString &path,
                                     QString *error);
/// The scenario as the file's text (for exact undo/redo comparisons and autosave).
[[nodiscard]] std::string scenarioToJsonText(const scenario::Scenario &scenario);
[[nodiscard]] std::optional<scenario::Scenario> scenarioFromJsonText(const std::string &text,
                                                                     QString *error);

} // namespace gapstudio::views
