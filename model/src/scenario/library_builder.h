#pragma once
// Private to the preset code: collects the presets of one folder (or of the embedded copy) into
// a scenario::PresetLibrary, with the one rule every source shares: two presets of one kind with
// the same id are an error naming both files; scenario files are designs, not presets (skipped), and
// measured runs are validation data (skipped).

#include "gapstudio/io/preset_json.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <utility>

namespace gapstudio::io::detail {

class LibraryBuilder {
public:
    /// Adds the preset read from `origin`; throws InputError on a duplicate id.
    void add(PresetFile preset, const std::string &origin)
    {
        if (auto *gpu = std::get_if<scenario::Gpu>(&preset))
            put(mLibrary.gpus, PresetKind::Gpu, std::move(*gpu), origin);
        else if (auto *link = std::get_if<scenario::Interconnect>(&preset))
            put(mLibrary.interconnects, PresetKind::Interconnect, std::move(*link), origin);
        else if (auto *topology = std::get_if<scenario::Topology>(&preset))
            put(mLibrary.topologies, PresetKind::Topology, std::move(*topology), origin);
        else if (auto *llm = std::get_if<scenario::Llm>(&preset))
            put(mLibrary.llms, PresetKind::Llm, std::move(*llm), origin);
        else if (auto *layout = std::get_if<scenario::Layout>(&preset))
            put(mLibrary.layouts, PresetKind::Layout, std::move(*layout), origin);
        else if (auto *software = std::get_if<scenario::Software>(&preset))
            put(mLibrary.software, PresetKind::Software, std::move(*software), origin);
        else if (auto *calibration = std::get_if<scenario::CalibrationSet>(&preset))
            put(mLibrary.calibrations, PresetKind::Calibration, std::move(*calibration), origin);
        else if (auto *storage = std::get_if<scenario::Storage>(&preset))
            put(mLibrary.storage, PresetKind::Storage, std::move(*storage), origin);
    }

    /// Adds a file's JSON, skipping measured runs (presets/measurements: validation data in a
    /// presets folder, not building blocks).
    void addJson(const nlohmann::json &json, const std::string &origin)
    {
        // Roadmaps (presets/roadmaps) are sequences of designs, not building blocks either.
        if (json.is_object() && json.contains("fileType")
            && (json["fileType"] == "gapstudio.measurement" || json["fileType"] == "gapstudio.roadmap"))
            return;
        add(parsePresetFile(json, origin), origin);
    }

    [[nodiscard]] scenario::PresetLibrary take() { return std::move(mLibrary); }

private:
    template <typename Block>
    void put(std::map<std::string, Block> &map, PresetKind kind, Block block, const std::string &origin)
    {
        const auto [it, inserted]
            = mSeen.emplace(std::pair { static_cast<int>(kind), block.info.id }, origin);
        if (!inserted)
            throw InputError(origin, "/id",
                             "duplicate " + std::string(presetFileType(kind)) + " id \"" + block.info.id
                                 + "\" (also in " + it->second + ")");
        map.emplace(block.info.id, std::move(block));
    }

    scenario::PresetLibrary mLibrary;
    std::map<std::pair<int, std::string>, std::string> mSeen; ///< (kind, id) -> origin
};

} // namespace gapstudio::io::detail
