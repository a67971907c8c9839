#pragma once
/**
 * @file preset_json.h
 * GapStudio's own JSON files: the building-block presets (gpu, interconnect, topology, llm,
 * layout) and whole designs (`*.gapstudio.json`). Each file starts with the header
 * {"fileType": "gapstudio.<kind>", "version": N, "id", "name", "source"}; units live in key names
 * (`hbm_capacity_GiB`, `bandwidth_GBps`, `latency_us`, `matrix_tflops`) and become SI here, once.
 *
 * Loading is one pipeline: header check, then the migration chain (one pure function per version
 * step) up to kPresetVersion, then a strict parse (an unknown or misspelt key is an error at its
 * own JSON pointer). Saving always writes kPresetVersion, and load -> save reproduces a saved
 * file byte for byte. Every error is an io::InputError naming the file and the JSON pointer.
 */

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/scenario/scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <variant>

namespace gapstudio::io {

/// The version every file is written with. Version 2 added the corrected model's optional keys
/// (llm, layout and gpu), the software and calibration kinds and the scenario's `software` and
/// `calibration`; version-1 files migrate unchanged.
inline constexpr int kPresetVersion = 2;
/// The oldest version the migration chain still reads.
inline constexpr int kPresetMinVersion = 1;

enum class PresetKind { Gpu, Interconnect, Topology, Llm, Layout, Scenario, Software, Calibration, Storage };

/// "gapstudio.gpu", "gapstudio.interconnect", ..., "gapstudio.scenario".
[[nodiscard]] const char *presetFileType(PresetKind kind) noexcept;

/// Checks the header of a whole file and migrates it to kPresetVersion (pure: returns the new
/// JSON). "File version N is newer than the supported version M" / "... is no longer supported".
[[nodiscard]] nlohmann::json migratePreset(nlohmann::json json, PresetKind kind, const std::string &file);

// Strict parsers of whole files (already migrated, header included).
[[nodiscard]] scenario::Gpu parseGpu(const nlohmann::json &json, const std::string &file);
[[nodiscard]] scenario::Interconnect parseInterconnect(const nlohmann::json &json, const std::string &file);
[[nodiscard]] scenario::Topology parseTopology(const nlohmann::json &json, const std::string &file);
[[nodiscard]] scenario::Llm parseLlm(const nlohmann::json &json, const std::string &file);
[[nodiscard]] scenario::Layout parseLayout(const nlohmann::json &json, const std::string &file);
[[nodiscard]] scenario::Scenario parseScenario(const nlohmann::json &json, const std::string &file);
[[nodiscard]] scenario::Software parseSoftware(const nlohmann::json &json, const std::string &file);
[[nodiscard]] scenario::Storage parseStorage(const nlohmann::json &json, const std::string &file);
[[nodiscard]] scenario::CalibrationSet parseCalibration(const nlohmann::json &json, const std::string &file);

// Whole files at kPresetVersion, keys in a fixed order (header first).
[[nodiscard]] nlohmann::ordered_json toJson(const scenario::Gpu &gpu);
[[nodiscard]] nlohmann::ordered_json toJson(const scenario::Interconnect &link);
[[nodiscard]] nlohmann::ordered_json toJson(const scenario::Topology &topology);
[[nodiscard]] nlohmann::ordered_json toJson(const scenario::Llm &llm);
[[nodiscard]] nlohmann::ordered_json toJson(const scenario::Layout &layout);
[[nodiscard]] nlohmann::ordered_json toJson(const scenario::Scenario &scenario);
[[nodiscard]] nlohmann::ordered_json toJson(const scenario::Software &software);
[[nodiscard]] nlohmann::ordered_json toJson(const scenario::Storage &storage);
[[nodiscard]] nlohmann::ordered_json toJson(const scenario::CalibrationSet &calibration);
/// The scenario object without the file header (as a measurement file embeds it).
[[nodiscard]] nlohmann::ordered_json scenarioBody(const scenario::Scenario &scenario);

/// The text a file is saved as: 4-space indented JSON and a final newline.
[[nodiscard]] std::string toText(const nlohmann::ordered_json &json);

/// Any one file of the formats above.
using PresetFile
    = std::variant<scenario::Gpu, scenario::Interconnect, scenario::Topology, scenario::Llm, scenario::Layout,
                   scenario::Scenario, scenario::Software, scenario::CalibrationSet, scenario::Storage>;

/// Picks the kind of a whole file's JSON from its `fileType`, migrates and parses it; `origin`
/// names the file in errors.
[[nodiscard]] PresetFile parsePresetFile(const nlohmann::json &json, const std::string &origin);
/// Reads a file and parsePresetFile()s it.
[[nodiscard]] PresetFile loadPresetFile(const std::string &path);
[[nodiscard]] nlohmann::ordered_json toJson(const PresetFile &preset);
/// Writes toText(toJson(preset)) with io::writeFileAtomically: the file is complete or untouched;
/// throws OutputError (with the OS reason) if it cannot be written.
void savePresetFile(const PresetFile &preset, const std::string &path);

/// A scenario file (`*.gapstudio.json`); throws InputError.
[[nodiscard]] scenario::Scenario loadScenario(const std::string &path);
/// Writes a scenario file like savePresetFile (complete or untouched; OutputError).
void saveScenario(const scenario::Scenario &scenario, const std::string &path);

/// Every preset under `directory`, recursively (`*.json`; scenario and measurement files are
/// skipped). Two
/// presets of one kind with the same id are an error. Throws InputError naming file and pointer.
[[nodiscard]] scenario::PresetLibrary loadPresetLibrary(const std::string &directory);

/// Compiles a scenario read from `file`: an InvalidScenario diagnostic becomes an InputError
/// (`file`, "/" + field, message). Other diagnostics cannot occur in compile().
[[nodiscard]] scenario::CompiledScenario compileScenarioFile(const scenario::Scenario &scenario,
                                                             const scenario::PresetLibrary &library,
                                                             const std::string &file,
                                                             const scenario::CompileOptions &options = {});

} // namespace gapstudio::io
