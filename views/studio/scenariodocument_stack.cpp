// ScenarioDocument's library and the design's stack: presets added in the session (imported
// blocks, a calibration fitted in the Validation view) and the software stack, calibration and
// checkpoint storage the design names, each change one undo step.
#include "studio/scenariodocument.h"

namespace gapstudio::views {

void ScenarioDocument::addCalibration(const scenario::CalibrationSet &calibration)
{
    mLibrary.calibrations[calibration.info.id] = calibration;
    emit libraryChanged();
    emit changed();
}

bool ScenarioDocument::setCalibration(const std::string &presetId)
{
    if (!presetId.empty() && !mLibrary.calibrations.contains(presetId))
        return false;
    scenario::Scenario s = mScenario;
    s.calibration = { presetId, std::nullopt };
    push(std::move(s), presetId.empty() ? tr("Use the shipped calibration")
                                        : tr("Use calibration %1").arg(QString::fromStdString(presetId)));
    return true;
}

bool ScenarioDocument::setSoftware(const std::string &presetId)
{
    const auto it = mLibrary.software.find(presetId);
    if (it == mLibrary.software.end())
        return false;
    scenario::Scenario s = mScenario;
    s.software = { presetId, std::nullopt };
    push(std::move(s), tr("Use software stack %1").arg(QString::fromStdString(it->second.info.name)));
    return true;
}

bool ScenarioDocument::setStorage(const std::string &presetId)
{
    const auto it = mLibrary.storage.find(presetId);
    if (!presetId.empty() && it == mLibrary.storage.end())
        return false;
    scenario::Scenario s = mScenario;
    s.storage = { presetId, std::nullopt };
    push(std::move(s),
         presetId.empty()
             ? tr("Use no checkpoint storage block")
             : tr("Use checkpoint storage %1").arg(QString::fromStdString(it->second.info.name)));
    return true;
}

void ScenarioDocument::addToLibrary(const scenario::PresetLibrary &presets)
{
    scenario::mergeLibrary(mLibrary, presets, scenario::OnDuplicate::Replace);
    emit libraryChanged();
}

} // namespace gapstudio::views
