// Whole GapStudio files (preset_json.h): header, migration chain, scenario files and the preset
// library. The block bodies are in preset_blocks.cpp and the preset_*_block*.cpp beside it.
#include "gapstudio/io/preset_json.h"

#include "scenario/library_builder.h"
#include "gapstudio/io/safe_file.h"
#include "scenario/block_ranges.h"
#include "io/preset_blocks.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <functional>
#include <vector>

namespace gapstudio::io {

using detail::JsonCursor;

namespace {

constexpr std::array<const char *, 9> kFileTypes
    = { "gapstudio.gpu",      "gapstudio.interconnect", "gapstudio.topology",
        "gapstudio.llm",      "gapstudio.layout",       "gapstudio.scenario",
        "gapstudio.software", "gapstudio.calibration",  "gapstudio.storage" };

// ---- Migration chain ---------------------------------------------------------------------------
// kMigrations[i] turns a file of version kPresetMinVersion + i into version kPresetMinVersion + i + 1.
// Each step is a pure function of the JSON (it may look at "fileType" to treat kinds differently)
// and sets "version" itself. Version 1 is the first published format, so the chain is empty; a
// format change adds one step here and bumps kPresetVersion, and nothing else reads old versions.
using Migration = std::function<nlohmann::json(nlohmann::json)>;
const std::vector<Migration> kMigrations = {
    // 1 -> 2: the corrected model's keys are optional, so a version-1 file reads as it is.
    [](nlohmann::json json) {
        json["version"] = 2;
        return json;
    },
};
static_assert(kPresetMinVersion <= kPresetVersion);

/// The header's kind, from "fileType" (which must be a GapStudio file type).
PresetKind kindOf(const JsonCursor &root)
{
    root.requireObject();
    const JsonCursor type = root["fileType"];
    const std::string text = type.string();
    for (std::size_t i = 0; i < kFileTypes.size(); ++i)
        if (text == kFileTypes[i])
            return static_cast<PresetKind>(i);
    type.fail("unknown file type \"" + text
              + "\" (expected gapstudio.gpu, gapstudio.interconnect, gapstudio.topology, gapstudio.llm, "
                "gapstudio.layout, gapstudio.software, gapstudio.calibration, gapstudio.storage or "
                "gapstudio.scenario)");
}

nlohmann::ordered_json header(PresetKind kind, const scenario::BlockInfo &info)
{
    nlohmann::ordered_json out;
    out["fileType"] = presetFileType(kind);
    out["version"] = kPresetVersion;
    detail::writeInfo(out, info);
    return out;
}

template <typename Block> nlohmann::ordered_json wholeFile(PresetKind kind, const Block &block)
{
    nlohmann::ordered_json out = header(kind, block.info);
    detail::writeBody(out, block);
    return out;
}

void writeScenarioBodyImpl(nlohmann::ordered_json &out, const scenario::Scenario &s);
void writeScenarioBody(nlohmann::ordered_json &out, const scenario::Scenario &s)
{
    writeScenarioBodyImpl(out, s);
}

template <typename Block>
void writeBlockRef(nlohmann::ordered_json &out, const char *key, const scenario::BlockRef<Block> &ref)
{
    if (ref.inlineBlock) {
        nlohmann::ordered_json block;
        detail::writeInfo(block, ref.inlineBlock->info);
        detail::writeBody(block, *ref.inlineBlock);
        out[key] = block;
    } else if (!ref.presetId.empty()) {
        out[key] = ref.presetId;
    }
}

/// Parses a block and checks the ranges of its numbers (block_ranges.h).
template <typename Parse>
auto parseChecked(const JsonCursor &cursor, bool wholeFile, PresetKind kind, Parse parse)
{
    auto block = parse(cursor, wholeFile);
    detail::checkBlockRanges(cursor, kind);
    return block;
}

template <typename Block, typename Parse>
scenario::BlockRef<Block> parseBlockRef(const JsonCursor &cursor, PresetKind kind, Parse parse)
{
    scenario::BlockRef<Block> ref;
    if (cursor.value().is_string()) {
        ref.presetId = cursor.string();
        if (ref.presetId.empty())
            cursor.fail("expected a preset id or an inline block, got an empty string");
    } else if (cursor.value().is_object()) {
        ref.inlineBlock = parseChecked(cursor, false, kind, parse);
    } else {
        cursor.fail("expected a preset id (string) or an inline block (object), got "
                    + detail::describe(cursor.value()));
    }
    return ref;
}

} // namespace

void detail::writeText(const std::string &text, const std::string &path)
{
    writeFileAtomically(path, text); // complete or untouched, never truncated
}

const char *presetFileType(PresetKind kind) noexcept
{
    return kFileTypes[static_cast<std::size_t>(kind)];
}

nlohmann::json migratePreset(nlohmann::json json, PresetKind kind, const std::string &file)
{
    return detail::migratePresetAt(std::move(json), kind, file, {});
}

nlohmann::json detail::migratePresetAt(nlohmann::json json, PresetKind kind, const std::string &file,
                                       const std::string &pointer)
{
    {
        const JsonCursor root(json, file, pointer);
        const PresetKind actual = kindOf(root);
        if (actual != kind)
            root["fileType"].fail("expected \"" + std::string(presetFileType(kind)) + "\", got \""
                                  + presetFileType(actual) + "\"");
        const JsonCursor versionCursor = root["version"];
        const std::int64_t version = versionCursor.integer();
        if (version > kPresetVersion)
            versionCursor.fail("File version " + std::to_string(version)
                               + " is newer than the supported version " + std::to_string(kPresetVersion));
        if (version < kPresetMinVersion)
            versionCursor.fail("File version " + std::to_string(version)
                               + " is no longer supported (the oldest "
                                 "supported version is "
                               + std::to_string(kPresetMinVersion) + ")");
    }
    while (json["version"].get<std::int64_t>() < kPresetVersion) {
        const auto step = static_cast<std::size_t>(json["version"].get<std::int64_t>() - kPresetMinVersion);
        json = kMigrations.at(step)(std::move(json));
    }
    return json;
}

scenario::Gpu parseGpu(const nlohmann::json &json, const std::string &file)
{
    return parseChecked(JsonCursor(json, file), true, PresetKind::Gpu, detail::parseGpuBody);
}
scenario::Interconnect parseInterconnect(const nlohmann::json &json, const std::string &file)
{
    return parseChecked(JsonCursor(json, file), true, PresetKind::Interconnect,
                        detail::parseInterconnectBody);
}
scenario::Topology parseTopology(const nlohmann::json &json, const std::string &file)
{
    return parseChecked(JsonCursor(json, file), true, PresetKind::Topology, detail::parseTopologyBody);
}
scenario::Llm parseLlm(const nlohmann::json &json, const std::string &file)
{
    return parseChecked(JsonCursor(json, file), true, PresetKind::Llm, detail::parseLlmBody);
}
scenario::Layout parseLayout(const nlohmann::json &json, const std::string &file)
{
    return parseChecked(JsonCursor(json, file), true, PresetKind::Layout, detail::parseLayoutBody);
}

scenario::Software parseSoftware(const nlohmann::json &json, const std::string &file)
{
    return detail::parseSoftwareBody(JsonCursor(json, file), true);
}
scenario::Storage parseStorage(const nlohmann::json &json, const std::string &file)
{
    return parseChecked(JsonCursor(json, file), true, PresetKind::Storage, detail::parseStorageBody);
}
scenario::CalibrationSet parseCalibration(const nlohmann::json &json, const std::string &file)
{
    return detail::parseCalibrationBody(JsonCursor(json, file), true);
}

scenario::Scenario parseScenario(const nlohmann::json &json, const std::string &file)
{
    return detail::parseScenarioAt(JsonCursor(json, file));
}

scenario::Scenario detail::parseScenarioAt(const JsonCursor &c)
{
    const nlohmann::json &json = c.value();
    detail::requireKeys(c,
                        { "fileType", "version", "id", "name", "source", "gpu", "scale_up", "topology", "llm",
                          "layout", "gpu_count" },
                        { "scale_out", "overrides", "software", "calibration", "storage" });
    scenario::Scenario s;
    s.info = detail::parseInfo(c);
    s.gpu = parseBlockRef<scenario::Gpu>(c["gpu"], PresetKind::Gpu, detail::parseGpuBody);
    s.scaleUp = parseBlockRef<scenario::Interconnect>(c["scale_up"], PresetKind::Interconnect,
                                                      detail::parseInterconnectBody);
    if (json.contains("scale_out"))
        s.scaleOut = parseBlockRef<scenario::Interconnect>(c["scale_out"], PresetKind::Interconnect,
                                                           detail::parseInterconnectBody);
    s.topology
        = parseBlockRef<scenario::Topology>(c["topology"], PresetKind::Topology, detail::parseTopologyBody);
    s.llm = parseBlockRef<scenario::Llm>(c["llm"], PresetKind::Llm, detail::parseLlmBody);
    s.layout = parseBlockRef<scenario::Layout>(c["layout"], PresetKind::Layout, detail::parseLayoutBody);
    if (json.contains("software"))
        s.software
            = parseBlockRef<scenario::Software>(c["software"], PresetKind::Software, detail::parseSoftwareBody);
    if (json.contains("calibration"))
        s.calibration = parseBlockRef<scenario::CalibrationSet>(c["calibration"], PresetKind::Calibration,
                                                                detail::parseCalibrationBody);
    if (json.contains("storage"))
        s.storage
            = parseBlockRef<scenario::Storage>(c["storage"], PresetKind::Storage, detail::parseStorageBody);
    s.gpuCount = c["gpu_count"].integerAtLeast(1);
    if (json.contains("overrides")) {
        const JsonCursor overrides = c["overrides"];
        overrides.requireObject();
        for (const auto &item : overrides.value().items()) {
            const JsonCursor value = overrides[item.key()];
            const auto &keys = scenario::overrideKeys();
            if (std::none_of(keys.begin(), keys.end(),
                             [&](const scenario::OverrideKey &k) { return item.key() == k.key; }))
                value.fail("unknown override key \"" + item.key() + "\"");
            // The range of the key, as resolve() applies it to the studio's overrides.
            if (const auto problem = scenario::overrideProblem(item.key(), value.number()))
                value.fail(*problem);
            s.overrides[item.key()] = value.number();
        }
    }
    return s;
}

nlohmann::ordered_json toJson(const scenario::Gpu &gpu)
{
    return wholeFile(PresetKind::Gpu, gpu);
}
nlohmann::ordered_json toJson(const scenario::Interconnect &link)
{
    return wholeFile(PresetKind::Interconnect, link);
}
nlohmann::ordered_json toJson(const scenario::Topology &topology)
{
    return wholeFile(PresetKind::Topology, topology);
}
nlohmann::ordered_json toJson(const scenario::Llm &llm)
{
    return wholeFile(PresetKind::Llm, llm);
}
nlohmann::ordered_json toJson(const scenario::Layout &layout)
{
    return wholeFile(PresetKind::Layout, layout);
}

nlohmann::ordered_json toJson(const scenario::Software &software)
{
    return wholeFile(PresetKind::Software, software);
}
nlohmann::ordered_json toJson(const scenario::Storage &storage)
{
    return wholeFile(PresetKind::Storage, storage);
}
nlohmann::ordered_json toJson(const scenario::CalibrationSet &calibration)
{
    return wholeFile(PresetKind::Calibration, calibration);
}

nlohmann::ordered_json toJson(const scenario::Scenario &s)
{
    nlohmann::ordered_json out = header(PresetKind::Scenario, s.info);
    writeScenarioBody(out, s);
    return out;
}

nlohmann::ordered_json scenarioBody(const scenario::Scenario &s)
{
    nlohmann::ordered_json out;
    detail::writeInfo(out, s.info);
    writeScenarioBody(out, s);
    return out;
}

namespace {
void writeScenarioBodyImpl(nlohmann::ordered_json &out, const scenario::Scenario &s)
{
    writeBlockRef(out, "gpu", s.gpu);
    writeBlockRef(out, "scale_up", s.scaleUp);
    writeBlockRef(out, "scale_out", s.scaleOut);
    writeBlockRef(out, "topology", s.topology);
    writeBlockRef(out, "llm", s.llm);
    writeBlockRef(out, "layout", s.layout);
    writeBlockRef(out, "software", s.software);
    writeBlockRef(out, "calibration", s.calibration);
    writeBlockRef(out, "storage", s.storage);
    out["gpu_count"] = s.gpuCount;
    if (!s.overrides.empty()) {
        nlohmann::ordered_json overrides = nlohmann::ordered_json::object();
        for (const auto &[key, value] : s.overrides)
            overrides[key] = detail::plainNumber(value);
        out["overrides"] = overrides;
    }
}
} // namespace

std::string toText(const nlohmann::ordered_json &json)
{
    return json.dump(4) + "\n";
}

PresetFile parsePresetFile(const nlohmann::json &raw, const std::string &origin)
{
    const PresetKind kind = kindOf(JsonCursor(raw, origin));
    const nlohmann::json json = migratePreset(raw, kind, origin);
    switch (kind) {
    case PresetKind::Gpu:
        return parseGpu(json, origin);
    case PresetKind::Interconnect:
        return parseInterconnect(json, origin);
    case PresetKind::Topology:
        return parseTopology(json, origin);
    case PresetKind::Llm:
        return parseLlm(json, origin);
    case PresetKind::Layout:
        return parseLayout(json, origin);
    case PresetKind::Software:
        return parseSoftware(json, origin);
    case PresetKind::Calibration:
        return parseCalibration(json, origin);
    case PresetKind::Storage:
        return parseStorage(json, origin);
    case PresetKind::Scenario:
        break;
    }
    return parseScenario(json, origin);
}

PresetFile loadPresetFile(const std::string &path)
{
    return parsePresetFile(readJsonFile(path), path);
}

nlohmann::ordered_json toJson(const PresetFile &preset)
{
    return std::visit([](const auto &block) { return toJson(block); }, preset);
}

void savePresetFile(const PresetFile &preset, const std::string &path)
{
    detail::writeText(toText(toJson(preset)), path);
}

scenario::Scenario loadScenario(const std::string &path)
{
    const nlohmann::json json = migratePreset(readJsonFile(path), PresetKind::Scenario, path);
    return parseScenario(json, path);
}

void saveScenario(const scenario::Scenario &scenario, const std::string &path)
{
    detail::writeText(toText(toJson(scenario)), path);
}

std::vector<std::string> detail::jsonFilesUnder(const std::string &directory)
{
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    std::error_code ec;
    fs::path at = directory;
    for (auto it = fs::recursive_directory_iterator(directory, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        at = it->path();
        if (it->is_regular_file(ec) && it->path().extension() == ".json")
            files.push_back(it->path().string());
        if (ec == std::errc::no_such_file_or_directory)
            ec.clear(); // a dangling link: no file (as the throwing is_regular_file() says)
        if (ec)
            break;
    }
    if (ec)
        throw InputError(directory, "/", "cannot list the directory (at " + at.string() + "): " + ec.message());
    std::sort(files.begin(), files.end()); // deterministic order, so duplicate errors are stable
    return files;
}

scenario::PresetLibrary loadPresetLibrary(const std::string &directory)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(directory, ec))
        throw InputError(directory, "/", "not a directory of presets");
    detail::LibraryBuilder library;
    for (const std::string &file : detail::jsonFilesUnder(directory))
        library.addJson(readJsonFile(file), file);
    return library.take();
}

scenario::CompiledScenario compileScenarioFile(const scenario::Scenario &scenario,
                                               const scenario::PresetLibrary &library,
                                               const std::string &file, const scenario::CompileOptions &options)
{
    scenario::CompileResult result = scenario::compile(scenario, library, options);
    if (!result.compiled) {
        const model::Diagnostic &first = result.diagnostics.front();
        throw InputError(file, "/" + first.field, first.message);
    }
    return std::move(*result.compiled);
}

} // namespace gapstudio::io
