// The measured runs along the preset search order (shipped_measurements.h).
#include "gapstudio/io/shipped_measurements.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

namespace gapstudio::io {

namespace {

constexpr std::string_view kFolder = "measurements/";

/// The runs of the embedded copy of presets/measurements.
std::vector<Measurement> embeddedMeasurements()
{
    std::vector<Measurement> runs;
    for (const EmbeddedPresetFile &file : embeddedPresetFiles()) {
        if (file.path.substr(0, kFolder.size()) != kFolder)
            continue;
        const std::string origin = "<embedded>/" + std::string(file.path);
        nlohmann::json json;
        try {
            json = nlohmann::json::parse(file.text);
        } catch (const nlohmann::json::exception &error) { // a build that embedded a broken file
            throw InputError(origin, "/", std::string("invalid JSON: ") + error.what());
        }
        runs.push_back(parseMeasurement(json, origin));
    }
    return runs;
}

} // namespace

MeasurementLoad loadShippedMeasurements(const std::vector<PresetFolder> &order)
{
    namespace fs = std::filesystem;
    MeasurementLoad load;
    std::set<std::string> ids;
    for (const PresetFolder &folder : order) {
        std::vector<Measurement> runs;
        try {
            if (folder.source == PresetSource::Embedded) {
                runs = embeddedMeasurements();
            } else {
                const fs::path dir = fs::path(folder.path) / "measurements";
                std::error_code ec;
                if (!fs::is_directory(dir, ec))
                    continue;
                runs = loadMeasurements({ dir.string() });
            }
        } catch (const std::exception &error) {
            load.warnings.push_back(std::string("measured runs of the ") + presetSourceName(folder.source)
                                    + " folder left out: " + error.what());
            continue;
        }
        for (Measurement &m : runs)
            if (ids.insert(m.id).second)
                load.measurements.push_back(std::move(m));
    }
    std::sort(load.measurements.begin(), load.measurements.end(),
              [](const Measurement &a, const Measurement &b) {
                  return a.family != b.family ? a.family < b.family : a.id < b.id;
              });
    return load;
}

} // namespace gapstudio::io
