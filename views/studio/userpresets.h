#pragma once
/**
 * @file userpresets.h
 * The user's own blocks ("My blocks"): presets saved from the studio into the user data folder
 * (io::userPresetsDirectory(), by default ~/.local/share/gapstudio/presets). That folder comes
 * before the installed and shipped presets in the search order (io/preset_locations.h), so a
 * block saved under a shipped id replaces the shipped one for this user, in the studio, the CLI
 * and the report alike.
 */

#include "gapstudio/io/preset_json.h"
#include "studio/studioengine.h"

#include <QString>

#include <set>
#include <string>
#include <utility>

namespace gapstudio::views {

/// The user's preset folder (may not exist yet); empty when neither $XDG_DATA_HOME nor $HOME is set.
[[nodiscard]] QString userPresetFolder();

/// The kinds and ids of the presets in the user's folder (an unreadable folder has none).
[[nodiscard]] std::set<std::pair<BlockKind, std::string>> userPresetIds();

/// A preset id for a block named `name`: lower case, words joined by '-' ("My GPU 2" -> "my-gpu-2").
[[nodiscard]] std::string presetIdFor(const QString &name);

/// Writes `preset` (a GPU, interconnect, topology, LLM or layout) to <user folder>/<kind>/<id>.json,
/// creating the folders. Returns the path, or an empty string with the reason in `error`.
[[nodiscard]] QString saveUserPreset(const io::PresetFile &preset, QString *error);

/// The library of one saved preset (for ScenarioDocument::addToLibrary).
[[nodiscard]] scenario::PresetLibrary libraryOf(const io::PresetFile &preset);

} // namespace gapstudio::views
