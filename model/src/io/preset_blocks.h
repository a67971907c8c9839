#pragma once
// Private to the preset JSON code: the bodies of the block formats (everything but fileType and
// version), shared by the preset files and the inline blocks of a scenario file.

#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/blocks.h"
#include "io/json_cursor.h"

#include <nlohmann/json.hpp>

#include <array>
#include <utility>
#include <cmath>
#include <initializer_list>
#include <string_view>

namespace gapstudio::io::detail {

/// Requires an object with every key of `required` and no key outside `required` + `optional`.
void requireKeys(const JsonCursor &cursor, std::initializer_list<std::string_view> required,
                 std::initializer_list<std::string_view> optional = {});

/// JSON key names of the datatypes, in the order files list them.
inline constexpr std::array<std::pair<const char *, model::Datatype>, model::kDatatypeCount> kDatatypeKeys = { {
    { "fp32", model::Datatype::Float32 },
    { "bf16", model::Datatype::Bfloat16 },
    { "fp16", model::Datatype::Float16 },
    { "fp8", model::Datatype::Float8 },
    { "fp4", model::Datatype::Float4 },
} };

/// The header keys of a whole file and of an inline block.
inline constexpr std::array<std::string_view, 5> kFileHeader
    = { "fileType", "version", "id", "name", "source" };
inline constexpr std::array<std::string_view, 3> kInlineHeader = { "id", "name", "source" };

// Parse a body: `cursor` is the block object, `header` the header keys it must carry.
scenario::Gpu parseGpuBody(const JsonCursor &cursor, bool wholeFile);
scenario::Interconnect parseInterconnectBody(const JsonCursor &cursor, bool wholeFile);
scenario::Topology parseTopologyBody(const JsonCursor &cursor, bool wholeFile);
scenario::Llm parseLlmBody(const JsonCursor &cursor, bool wholeFile);
scenario::Layout parseLayoutBody(const JsonCursor &cursor, bool wholeFile);
scenario::Software parseSoftwareBody(const JsonCursor &cursor, bool wholeFile);
scenario::CalibrationSet parseCalibrationBody(const JsonCursor &cursor, bool wholeFile);
scenario::Storage parseStorageBody(const JsonCursor &cursor, bool wholeFile);
scenario::BlockInfo parseInfo(const JsonCursor &cursor);
/// A `cuda_graph_scope` list of Megatron-Core scope names (names::kCudaGraphScope, each at
/// most once) as Execution::cudaGraphScopes bits, and back.
std::uint8_t parseCudaGraphScopes(const JsonCursor &cursor);
nlohmann::ordered_json writeCudaGraphScopes(std::uint8_t scopes);
/// A whole scenario object (header included) at `cursor` (already migrated).
scenario::Scenario parseScenarioAt(const JsonCursor &cursor);
/// migratePreset for a file embedded at JSON pointer `pointer` of `file` (errors name it).
nlohmann::json migratePresetAt(nlohmann::json json, PresetKind kind, const std::string &file,
                               const std::string &pointer);

/// The header of a file kind with one supported version (measurements, roadmaps): checks
/// `fileType` and `version` and returns the id (non-empty), name and source.
scenario::BlockInfo parseFixedVersionHeader(const JsonCursor &cursor, std::string_view fileType,
                                            std::int64_t version);

/// Writes `text` to `path`; throws InputError(path, "/", ...) if it cannot.
void writeText(const std::string &text, const std::string &path);

/// The *.json regular files under `directory`, recursively, sorted. Throws InputError(directory, "/",
/// ...) naming the entry that cannot be listed or examined (a link loop; --presets / meeting a /proc
/// entry it may not examine); a dangling link is no file.
std::vector<std::string> jsonFilesUnder(const std::string &directory);

// Write a body after `out`'s existing keys (the header is the caller's).
void writeInfo(nlohmann::ordered_json &out, const scenario::BlockInfo &info);
void writeBody(nlohmann::ordered_json &out, const scenario::Gpu &gpu);
void writeBody(nlohmann::ordered_json &out, const scenario::Interconnect &link);
void writeBody(nlohmann::ordered_json &out, const scenario::Topology &topology);
void writeBody(nlohmann::ordered_json &out, const scenario::Llm &llm);
void writeBody(nlohmann::ordered_json &out, const scenario::Layout &layout);
void writeBody(nlohmann::ordered_json &out, const scenario::Software &software);
void writeBody(nlohmann::ordered_json &out, const scenario::CalibrationSet &calibration);
void writeBody(nlohmann::ordered_json &out, const scenario::Storage &storage);

// The cost blocks (cost_json.cpp): a GPU's price and server, an interconnect's parts.
/// Reads the optional `cost` of a GPU preset (with its price; a top-level price_USD beside it is
/// an error).
void parseGpuCost(const JsonCursor &gpuCursor, scenario::Gpu &gpu);
void writeGpuCost(nlohmann::ordered_json &out, const scenario::Gpu &gpu);
/// Reads the optional `reliability` object of a block: some of `keys` (FIT, >= 0) and a `source`.
std::optional<scenario::PartFits> parsePartFits(const JsonCursor &blockCursor,
                                                std::initializer_list<std::string_view> keys);
void writePartFits(nlohmann::ordered_json &out, const std::optional<scenario::PartFits> &fits);
/// Reads the optional `cost` of an interconnect preset.
void parseLinkCost(const JsonCursor &linkCursor, scenario::Interconnect &link);
void writeLinkCost(nlohmann::ordered_json &out, const scenario::Interconnect &link);

/// Requires an object whose keys are the header keys (whole file or inline) plus `body`, some of
/// them optional.
void requireBlockKeys(const JsonCursor &cursor, bool wholeFile, std::initializer_list<std::string_view> body,
                      std::initializer_list<std::string_view> optional = {});

/// A number in (low, high] etc. (detail::numberInRange).
double numberIn(const JsonCursor &cursor, double low, bool lowIncluded, double high = HUGE_VAL,
                bool highIncluded = false);

/// The shortest decimal that converts back to `si` exactly (value * factor, or value / factor
/// with `divide`), so that saving a loaded file reproduces its numbers.
nlohmann::ordered_json unitNumber(double si, double factor, bool divide = false);

/// A plain number as written: whole numbers as JSON integers, others in shortest form.
nlohmann::ordered_json plainNumber(double value);

} // namespace gapstudio::io::detail
