#pragma once
/**
 * @file roadmap_json.h
 * Roadmap files (`*.gapstudio-roadmap.json`): an ordered list of design steps, the first a full
 * scenario and each later one a full scenario or a named change to the step before it.
 *
 *   {"fileType": "gapstudio.roadmap", "version": 1, "id", "name", "source",
 *    "steps": [{"name", "source", "scenario": {a whole scenario file's object}},
 *              {"name", "source", "change": {any of "gpu", "scale_up", "scale_out", "topology",
 *               "llm", "layout", "software", "calibration", "storage", "gpu_count", "overrides"}}, ...]}
 *
 * A change replaces the keys it names in the previous step's scenario, except `overrides`, which
 * are merged key by key (a null value removes one). Keys are strict and every error is an
 * io::InputError naming the file and the JSON pointer inside the roadmap
 * (e.g. "/steps/2/change/topology"). Loading and saving reproduce a saved file byte for byte.
 */

#include "gapstudio/scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gapstudio::io {

inline constexpr int kRoadmapVersion = 1;
inline constexpr const char *kRoadmapFileType = "gapstudio.roadmap";

struct RoadmapStep {
    std::string name, source;
    bool isChange = false;         ///< a named change to the previous step (else a full scenario)
    nlohmann::ordered_json change; ///< the change as written (isChange)
    scenario::Scenario scenario;   ///< the step's whole design (the change applied)
    bool operator==(const RoadmapStep &) const = default;
};

struct Roadmap {
    std::string id, name, source;
    std::vector<RoadmapStep> steps;
    bool operator==(const Roadmap &) const = default;
};

[[nodiscard]] Roadmap parseRoadmap(const nlohmann::json &json, const std::string &file);
[[nodiscard]] Roadmap loadRoadmap(const std::string &path);
[[nodiscard]] nlohmann::ordered_json toJson(const Roadmap &roadmap);
/// Writes toText(toJson(roadmap)); throws InputError if the file cannot be written.
void saveRoadmap(const Roadmap &roadmap, const std::string &path);

} // namespace gapstudio::io
