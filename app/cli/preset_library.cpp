// The presets of a CLI command (commands.h presetLibrary).
#include "commands.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/preset_locations.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace gapstudio::cli {

/// `--presets DIR` alone, else the search order of preset_locations.h.
scenario::PresetLibrary presetLibrary(const std::string &presetsDir)
{
    if (!presetsDir.empty())
        return io::loadPresetLibrary(presetsDir);
    io::PresetLibraryLoad load = io::loadPresets();
    for (const std::string &warning : load.warnings)
        std::cerr << "warning: " << warning << '\n';
    return std::move(load.library);
}

scenario::CalibrationSet readCalibrationFile(const std::string &path)
{
    return io::parseCalibration(io::migratePreset(io::readJsonFile(path), io::PresetKind::Calibration, path),
                                path);
}

void rejectCalibrationUnderReferenceQuirks(bool referenceQuirks, const std::string &calibrationFile)
{
    if (referenceQuirks && !calibrationFile.empty())
        throw UsageError { "--calibration is the corrected model's: --reference-quirks takes none" };
}

} // namespace gapstudio::cli
