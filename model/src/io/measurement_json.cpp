// Measured training runs (measurement_json.h).
#include "gapstudio/io/measurement_json.h"

#include "io/preset_blocks.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

namespace gapstudio::io {

using detail::JsonCursor;

namespace {
constexpr const char *kFileType = "gapstudio.measurement";
}

Measurement parseMeasurement(const nlohmann::json &json, const std::string &file)
{
    const JsonCursor c(json, file);
    detail::requireKeys(c, { "fileType", "version", "id", "name", "source", "family", "scenario",
                             "measured_iteration_time_s", "notes" });
    const scenario::BlockInfo info = detail::parseFixedVersionHeader(c, kFileType, kMeasurementVersion);
    Measurement m;
    m.id = info.id;
    m.name = info.name;
    m.source = info.source;
    m.family = c["family"].string();
    if (m.family.empty())
        c["family"].fail("expected a non-empty family (the publication or benchmark the run belongs to)");
    const nlohmann::json scenario
        = detail::migratePresetAt(json["scenario"], PresetKind::Scenario, file, "/scenario");
    m.scenario = detail::parseScenarioAt(JsonCursor(scenario, file, "/scenario"));
    m.measuredIterationTime_s = detail::numberInRange(c["measured_iteration_time_s"], 0, false, 1e9, true);
    m.notes = c["notes"].string();
    m.file = file;
    return m;
}

Measurement loadMeasurement(const std::string &path)
{
    return parseMeasurement(readJsonFile(path), path);
}

nlohmann::ordered_json toJson(const Measurement &m)
{
    nlohmann::ordered_json out;
    out["fileType"] = kFileType;
    out["version"] = kMeasurementVersion;
    out["id"] = m.id;
    out["name"] = m.name;
    out["source"] = m.source;
    out["family"] = m.family;
    out["scenario"] = toJson(m.scenario);
    out["measured_iteration_time_s"] = detail::plainNumber(m.measuredIterationTime_s);
    out["notes"] = m.notes;
    return out;
}

std::vector<Measurement> loadMeasurements(const std::vector<std::string> &paths)
{
    namespace fs = std::filesystem;
    std::vector<Measurement> out;
    std::map<std::string, std::string> seen; // id -> file
    const auto add = [&](Measurement m) {
        const auto [it, inserted] = seen.emplace(m.id, m.file);
        if (!inserted)
            throw InputError(m.file, "/id", "duplicate measurement id \"" + m.id + "\" (also in " + it->second + ")");
        out.push_back(std::move(m));
    };
    for (const std::string &path : paths) {
        std::error_code ec;
        if (!fs::is_directory(path, ec)) {
            add(loadMeasurement(path));
            continue;
        }
        for (const std::string &file : detail::jsonFilesUnder(path)) {
            const nlohmann::json json = readJsonFile(file);
            if (json.is_object() && json.contains("fileType") && json["fileType"] == kFileType)
                add(parseMeasurement(json, file));
        }
    }
    return out;
}

} // namespace gapstudio::io
