#pragma once
/**
 * @file studioengine.h
 * The studio's one door to the scenario layer of the model: the preset library, compile(), the
 * scenario file format (io/preset_json.h) and the default scenario. Without a presets/ folder it
 * falls back to a small built-in library (builtinpresets.cpp); the rest of the studio never
 * knows which one it talks to.
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

/// The presets folder of this session: $GAPSTUDIO_PRESETS, share/gapstudio/presets next to the
/// executable, the AppDataLocation "presets" folders, then the source tree; empty if none.
[[nodiscard]] QString presetsDirectory();

/// The presets of this session: presetsDirectory(), else the built-in fallback.
[[nodiscard]] scenario::PresetLibrary loadStudioLibrary();

/// The built-in fallback library (a few GPUs, links, topologies, LLMs and layouts).
[[nodiscard]] scenario::PresetLibrary builtinLibrary();

/// Compiles `scenario` against `library` (never throws).
[[nodiscard]] scenario::CompileResult compileScenario(const scenario::Scenario &scenario,
                                                      const scenario::PresetLibrary &library);

/// The scenario the studio opens with: presets/scenarios/default.gapstudio.json when `library`
/// has its blocks, else GPT-3 175B on 4096 H100 of the built-in library (validation case 18).
[[nodiscard]] scenario::Scenario studioDefaultScenario(const scenario::PresetLibrary &library);

/// Whether two scenarios are the same design (compared through their file text, since the
/// model's input structs have no operator==).
[[nodiscard]] bool sameScenario(const scenario::Scenario &a, const scenario::Scenario &b);

/// Scenario file I/O (`*.gapstudio.json`). Errors come back in `error`, never as exceptions.
[[nodiscard]] std::optional<scenario::Scenario> readScenarioFile(const QString &path, QString *error);
[[nodiscard]] bool writeScenarioFile(const scenario::Scenario &scenario, const QString &path,
                                     QString *error);
/// The scenario as the file's text (for exact undo/redo comparisons and autosave).
[[nodiscard]] std::string scenarioToJsonText(const scenario::Scenario &scenario);
[[nodiscard]] std::optional<scenario::Scenario> scenarioFromJsonText(const std::string &text,
                                                                     QString *error);

} // namespace gapstudio::views
