#pragma once
/**
 * @file preset_locations.h
 * Where the presets come from: the one search order of the CLI, the studio and the report, the
 * copy of the shipped presets/ compiled into every binary, and the layered library they make.
 *
 * Search order, highest precedence first:
 *   1. $GAPSTUDIO_PRESETS
 *   2. the user's presets ("My blocks"): $XDG_DATA_HOME/gapstudio/presets, else
 *      ~/.local/share/gapstudio/presets. Before the installed ones, so that a user block saved
 *      under a shipped id hides the shipped block.
 *   3. <folder of the executable>/../share/gapstudio/presets (the installed presets)
 *   4. the source tree's presets/ (GAPSTUDIO_SOURCE_PRESETS_DIR of the build, for developer builds)
 *   5. the embedded copy (always present, so a binary moved away from everything still works)
 * The library holds the presets of every folder that exists; a preset id found in an earlier folder
 * hides the same id in later ones. An explicit folder (`gapstudio-cli --presets DIR`) is read
 * alone with io::loadPresetLibrary instead.
 */

#include "gapstudio/scenario/scenario.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gapstudio::io {

enum class PresetSource : std::uint8_t { Environment, Installed, UserData, SourceTree, Embedded };

/// "$GAPSTUDIO_PRESETS", "installed", "user", "source tree", "embedded".
[[nodiscard]] const char *presetSourceName(PresetSource source) noexcept;

/// One place of the search order.
struct PresetFolder {
    PresetSource source = PresetSource::Embedded;
    std::string path; ///< a directory; "<embedded>" for the embedded copy
};

/// What the search order is computed from: the process by default, anything in tests.
struct PresetEnvironment {
    std::string presetsVariable; ///< $GAPSTUDIO_PRESETS; empty = unset
    std::string executableDir;   ///< folder of the running executable; empty = unknown
    std::string dataHome;        ///< $XDG_DATA_HOME; empty = unset
    std::string home;            ///< $HOME; empty = unset
    std::string sourceTree;      ///< the source tree's presets/ this build was made from

    /// The running process: its environment variables and /proc/self/exe.
    [[nodiscard]] static PresetEnvironment current();
};

/// The folders of the search order that exist (always with $GAPSTUDIO_PRESETS when it is set, so
/// that a wrong value is an error, and always ending with the embedded copy). A folder that is
/// the same directory as an earlier one is listed once.
[[nodiscard]] std::vector<PresetFolder> presetSearchOrder(const PresetEnvironment &environment
                                                          = PresetEnvironment::current());

/// The user's own presets ("My blocks"): $XDG_DATA_HOME/gapstudio/presets, else
/// $HOME/.local/share/gapstudio/presets; empty when neither variable is set. May not exist yet.
[[nodiscard]] std::string userPresetsDirectory(const PresetEnvironment &environment
                                               = PresetEnvironment::current());

/// One file of the embedded copy: its path relative to presets/ ("gpus/nvidia-b200.json") and text.
struct EmbeddedPresetFile {
    std::string_view path;
    std::string_view text;
};

/// Every *.json of the shipped presets/ at build time (scenarios included), sorted by path.
[[nodiscard]] std::span<const EmbeddedPresetFile> embeddedPresetFiles() noexcept;

/// The presets of the embedded copy alone (the rules of io::loadPresetLibrary).
[[nodiscard]] scenario::PresetLibrary embeddedPresetLibrary();

/// The layered library of a search order.
struct PresetLibraryLoad {
    scenario::PresetLibrary library;
    std::vector<PresetFolder> folders; ///< the folders read, in order of precedence
    std::vector<std::string> warnings; ///< folders left out and why (one line each)
};

/// Reads every folder of `order` (see the file comment). A $GAPSTUDIO_PRESETS folder that cannot
/// be read throws io::InputError (the user asked for it); any other folder that cannot be read is
/// left out with a warning, so that the shipped presets always load.
[[nodiscard]] PresetLibraryLoad loadPresets(const std::vector<PresetFolder> &order = presetSearchOrder());

/// A scenario shipped with the presets, e.g. "scenarios/default.gapstudio.json", from the first
/// folder of `order` that has the file (the embedded copy last). Throws io::InputError if none has
/// it or it cannot be read.
[[nodiscard]] scenario::Scenario loadShippedScenario(const std::string &relativePath,
                                                     const std::vector<PresetFolder> &order
                                                     = presetSearchOrder());

/// The studio's and the report's default design.
inline constexpr const char *kDefaultScenarioFile = "scenarios/default.gapstudio.json";

} // namespace gapstudio::io
