#pragma once
/**
 * @file shipped_measurements.h
 * The measured runs that come with the presets (presets/measurements/<family>/<id>.json), found
 * along the preset search order (preset_locations.h) like the presets themselves: every folder's
 * `measurements/` and the embedded copy, a run id found in an earlier folder hiding the same id
 * in later ones. The studio's Validation view shows them.
 */

#include "gapstudio/io/measurement_json.h"
#include "gapstudio/io/preset_locations.h"

#include <string>
#include <vector>

namespace gapstudio::io {

struct MeasurementLoad {
    std::vector<Measurement> measurements; ///< sorted by family, then id
    std::vector<std::string> warnings;     ///< folders left out and why (one line each)
};

/// The measured runs of every folder of `order` (see the file comment). A folder whose runs
/// cannot be read is left out with a warning; the embedded copy always loads.
[[nodiscard]] MeasurementLoad loadShippedMeasurements(const std::vector<PresetFolder> &order
                                                      = presetSearchOrder());

} // namespace gapstudio::io
