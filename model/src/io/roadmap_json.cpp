// Roadmap files (roadmap_json.h): steps of full scenarios and named changes, strict keys.
#include "gapstudio/io/roadmap_json.h"

#include "io/preset_blocks.h"

namespace gapstudio::io {

using detail::JsonCursor;

namespace {

/// The previous step's scenario with `change` applied, parsed so that errors point into the
/// change (the merged object has the change's keys at the same names).
scenario::Scenario applyChange(const scenario::Scenario &previous, const JsonCursor &change,
                               const scenario::BlockInfo &info)
{
    // The scenario keys a change may replace.
    detail::requireKeys(change, {},
                        { "gpu", "scale_up", "scale_out", "topology", "llm", "layout", "software",
                          "calibration", "storage", "gpu_count", "overrides" });
    if (change.value().empty())
        change.fail("expected at least one of the scenario's keys to change");
    nlohmann::json merged = toJson(previous);
    for (const auto &item : change.value().items()) {
        if (item.key() != "overrides") {
            merged[item.key()] = item.value();
            continue;
        }
        change["overrides"].requireObject();
        nlohmann::json &overrides = merged["overrides"];
        if (!overrides.is_object())
            overrides = nlohmann::json::object();
        for (const auto &o : item.value().items()) {
            if (o.value().is_null())
                overrides.erase(o.key());
            else
                overrides[o.key()] = o.value();
        }
        if (overrides.empty())
            merged.erase("overrides");
    }
    merged["id"] = info.id;
    merged["name"] = info.name;
    merged["source"] = info.source;
    return detail::parseScenarioAt(JsonCursor(merged, change.file(), change.pointer()));
}

} // namespace

Roadmap parseRoadmap(const nlohmann::json &json, const std::string &file)
{
    const JsonCursor c(json, file);
    detail::requireKeys(c, { "fileType", "version", "id", "name", "source", "steps" });
    const scenario::BlockInfo header = detail::parseFixedVersionHeader(c, kRoadmapFileType, kRoadmapVersion);
    Roadmap roadmap;
    roadmap.id = header.id;
    roadmap.name = header.name;
    roadmap.source = header.source;
    const JsonCursor steps = c["steps"];
    const std::size_t count = steps.requireArray();
    if (count == 0)
        steps.fail("expected at least one step");
    for (std::size_t i = 0; i < count; ++i) {
        const JsonCursor s = steps[i];
        const bool isChange = s.value().is_object() && s.value().contains("change");
        detail::requireKeys(s, { "name", "source", isChange ? "change" : "scenario" });
        RoadmapStep step;
        step.name = s["name"].string();
        if (step.name.empty())
            s["name"].fail("expected a non-empty step name");
        step.source = s["source"].string();
        step.isChange = isChange;
        if (isChange) {
            if (i == 0)
                s["change"].fail("the first step must be a whole \"scenario\", not a change");
            const scenario::BlockInfo info { roadmap.id + "-step-" + std::to_string(i + 1), step.name,
                                             step.source };
            step.scenario = applyChange(roadmap.steps.back().scenario, s["change"], info);
            step.change = s.value()["change"];
        } else {
            const std::string pointer = s["scenario"].pointer();
            const nlohmann::json scenario
                = detail::migratePresetAt(s.value()["scenario"], PresetKind::Scenario, file, pointer);
            step.scenario = detail::parseScenarioAt(JsonCursor(scenario, file, pointer));
        }
        roadmap.steps.push_back(std::move(step));
    }
    return roadmap;
}

Roadmap loadRoadmap(const std::string &path)
{
    return parseRoadmap(readJsonFile(path), path);
}

nlohmann::ordered_json toJson(const Roadmap &roadmap)
{
    nlohmann::ordered_json out;
    out["fileType"] = kRoadmapFileType;
    out["version"] = kRoadmapVersion;
    out["id"] = roadmap.id;
    out["name"] = roadmap.name;
    out["source"] = roadmap.source;
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const RoadmapStep &step : roadmap.steps) {
        nlohmann::ordered_json s;
        s["name"] = step.name;
        s["source"] = step.source;
        if (step.isChange)
            s["change"] = step.change;
        else
            s["scenario"] = toJson(step.scenario);
        steps.push_back(std::move(s));
    }
    out["steps"] = std::move(steps);
    return out;
}

void saveRoadmap(const Roadmap &roadmap, const std::string &path)
{
    detail::writeText(toText(toJson(roadmap)), path);
}

} // namespace gapstudio::io
