#pragma once
/**
 * @file measurement_json.h
 * Measured training runs (the JSON files under presets/measurements, or a user's own), one per file:
 *   {"fileType": "gapstudio.measurement", "version": 1, "id", "name", "source", "family",
 *    "scenario": <a complete scenario object, as in a scenario file>,
 *    "measured_iteration_time_s": <seconds>, "notes": "..."}
 * The scenario names presets or carries inline blocks; `family` groups runs of one publication
 * (leave-one-family-out validation). Errors are io::InputError with the file and JSON pointer.
 */

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/scenario/scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace gapstudio::io {

inline constexpr int kMeasurementVersion = 1;

struct Measurement {
    std::string id, name, source, family;
    scenario::Scenario scenario;
    double measuredIterationTime_s = 0;
    std::string notes;
    std::string file; ///< where it was read from (empty if built in code)
    bool operator==(const Measurement &other) const
    {
        return id == other.id && name == other.name && source == other.source && family == other.family
               && scenario == other.scenario && measuredIterationTime_s == other.measuredIterationTime_s
               && notes == other.notes;
    }
};

/// Parses a whole measurement file's JSON (strict keys; the scenario is checked as a scenario file).
[[nodiscard]] Measurement parseMeasurement(const nlohmann::json &json, const std::string &file);
[[nodiscard]] Measurement loadMeasurement(const std::string &path);
[[nodiscard]] nlohmann::ordered_json toJson(const Measurement &measurement);

/// Every measurement named: files as they are, folders searched recursively for `*.json` files
/// whose fileType is gapstudio.measurement (other files in a folder are skipped). Sorted by path
/// within a folder; duplicate ids are an error.
[[nodiscard]] std::vector<Measurement> loadMeasurements(const std::vector<std::string> &paths);

} // namespace gapstudio::io
