#pragma once
/**
 * @file usercalibration.h
 * A fitted calibration saved as the user's own preset: a gapstudio.calibration file in the
 * user presets folder (io::userPresetsDirectory()/calibrations/<id>.json), which the preset
 * search order reads in every later session and which a scenario names by its id.
 */

#include "gapstudio/scenario/scenario.h"

#include <QString>

namespace gapstudio::views {

/// The user's calibration presets folder; empty if there is no user data folder.
[[nodiscard]] QString userCalibrationsDirectory();

/// A preset id for `name` ("My cluster" -> "my-cluster") that neither `library` nor a file in
/// `directory` uses yet ("-2", "-3", ... appended as needed): saving never overwrites.
[[nodiscard]] QString newCalibrationId(const QString &name, const scenario::PresetLibrary &library,
                                       const QString &directory);

/// Writes `calibration` to `directory`/<its id>.json and reads it back as a preset (so that what
/// is saved is known to load). Returns the path, or an empty string with the reason in `error`.
[[nodiscard]] QString saveUserCalibration(const scenario::CalibrationSet &calibration,
                                          const QString &directory, QString *error);

} // namespace gapstudio::views
