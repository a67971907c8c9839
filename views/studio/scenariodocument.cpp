#include "studio/scenariodocument.h"

#include "studio/commands.h"

namespace gapstudio::views {

ScenarioDocument::ScenarioDocument(scenario::PresetLibrary library, QObject *parent)
    : QObject(parent)
    , mLibrary(std::move(library))
{
}

void ScenarioDocument::reset(const scenario::Scenario &scenario, const QString &fileName)
{
    mUndoStack.clear();
    mScenario = scenario;
    mFileName = fileName;
    mUndoStack.setClean();
    emit fileNameChanged(mFileName);
    emit changed();
}

bool ScenarioDocument::open(const QString &path, QString *error)
{
    const auto scenario = readScenarioFile(path, error);
    if (!scenario)
        return false;
    reset(*scenario, path);
    return true;
}

bool ScenarioDocument::saveAs(const QString &path, QString *error)
{
    if (!writeScenarioFile(mScenario, path, error))
        return false;
    mFileName = path;
    mUndoStack.setClean();
    emit fileNameChanged(mFileName);
    return true;
}

void ScenarioDocument::setScenario(const scenario::Scenario &scenario)
{
    mScenario = scenario;
    emit changed();
}

void ScenarioDocument::push(scenario::Scenario after, const QString &text, int mergeId, std::string mergeKey)
{
    if (sameScenario(after, mScenario))
        return;
    mUndoStack.push(new ChangeScenario(this, mScenario, std::move(after), text, mergeId, std::move(mergeKey)));
}

bool ScenarioDocument::applyPreset(BlockKind kind, const std::string &id, bool scaleUp)
{
    scenario::Scenario s = mScenario;
    const auto pick = [&id](auto &ref, const auto &presets) {
        if (!presets.contains(id))
            return false;
        ref = {id, std::nullopt};
        return true;
    };
    bool known = false;
    QString what;
    switch (kind) {
    case BlockKind::Gpu:
        known = pick(s.gpu, mLibrary.gpus);
        what = tr("GPU");
        break;
    case BlockKind::Interconnect:
        known = pick(scaleUp ? s.scaleUp : s.scaleOut, mLibrary.interconnects);
        what = scaleUp ? tr("scale-up link") : tr("scale-out link");
        break;
    case BlockKind::Topology:
        known = pick(s.topology, mLibrary.topologies);
        what = tr("topology");
        break;
    case BlockKind::Llm:
        known = pick(s.llm, mLibrary.llms);
        what = tr("LLM");
        break;
    case BlockKind::Layout:
        known = pick(s.layout, mLibrary.layouts);
        what = tr("layout");
        break;
    }
    if (known)
        push(std::move(s), tr("Set %1 to %2").arg(what, QString::fromStdString(id)));
    return known;
}

void ScenarioDocument::setOverride(const std::string &key, std::optional<double> value)
{
    scenario::Scenario s = mScenario;
    if (value)
        s.overrides[key] = *value;
    else
        s.overrides.erase(key);
    push(std::move(s), tr("Change %1").arg(QString::fromStdString(key)), Cmd_SetOverride, key);
}

void ScenarioDocument::clearOverrides()
{
    scenario::Scenario s = mScenario;
    s.overrides.clear();
    push(std::move(s), tr("Reset sliders"));
}

void ScenarioDocument::addCalibration(const scenario::CalibrationSet &calibration)
{
    mLibrary.calibrations[calibration.info.id] = calibration;
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

std::optional<scenario::Layout> ScenarioDocument::currentLayout() const
{
    if (mScenario.layout.inlineBlock)
        return mScenario.layout.inlineBlock;
    const auto it = mLibrary.layouts.find(mScenario.layout.presetId);
    if (it == mLibrary.layouts.end())
        return std::nullopt;
    return it->second;
}

void ScenarioDocument::setGpuCount(std::int64_t gpuCount)
{
    scenario::Scenario s = mScenario;
    s.gpuCount = gpuCount;
    if (auto layout = currentLayout()) {
        model::Execution &e = layout->execution;
        const std::int64_t tpPp = e.tensorPar * e.pipelinePar;
        if (tpPp > 0 && gpuCount % tpPp == 0 && e.dataPar != gpuCount / tpPp) {
            e.dataPar = gpuCount / tpPp;
            if (s.layout.presetId.size())
                layout->info.name = "Custom (from " + layout->info.name + ")";
            layout->info.id = "custom";
            s.layout = {std::string(), layout};
        }
    }
    push(std::move(s), tr("Change GPU count"), Cmd_SetGpuCount, "gpu_count");
}

void ScenarioDocument::editLayout(const std::string &field, const std::function<void(model::Execution &)> &edit)
{
    auto layout = currentLayout();
    if (!layout)
        return;
    edit(layout->execution);
    scenario::Scenario s = mScenario;
    if (!s.layout.presetId.empty()) {
        layout->info.name = "Custom (from " + layout->info.name + ")";
        layout->info.id = "custom";
    }
    s.layout = {std::string(), layout};
    s.overrides.erase("layout." + field); // the field now says what the user typed
    push(std::move(s), tr("Change %1").arg(QString::fromStdString(field)));
}

} // namespace gapstudio::views
