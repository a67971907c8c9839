#include "studio/scenariodocument.h"

#include "studio/commands.h"
#include "studio/layoutrules.h"
#include "studio/parameternames.h"

#include "gapstudio/model/network_tiers.h"
#include "gapstudio/io/preset_locations.h"
#include "gapstudio/scenario/self_contained.h"

#include <QStringList>

#include <algorithm>
#include <array>

namespace gapstudio::views {

namespace {

constexpr std::string_view kCustomPrefix = "Custom: ";

bool startsWith(const std::string &text, std::string_view prefix)
{
    return text.rfind(prefix, 0) == 0;
}

/// The design without its name and notes (did an edit change the design?).
scenario::Scenario withoutInfo(scenario::Scenario s)
{
    s.info = {};
    return s;
}

template <typename Block>
std::string blockName(const scenario::BlockRef<Block> &ref, const std::map<std::string, Block> &presets)
{
    if (ref.inlineBlock)
        return ref.inlineBlock->info.name;
    const auto it = presets.find(ref.presetId);
    return it == presets.end() ? ref.presetId : it->second.info.name;
}

/// The override keys of a block start with its prefix ("gpu.hbm_bandwidth_GBps").
const char *slotPrefix(ScenarioDocument::Slot slot)
{
    constexpr std::array<const char *, 5> kPrefixes
        = { "gpu.", "scale_up.", "scale_out.", "topology.", "llm." };
    return kPrefixes[static_cast<std::size_t>(slot)];
}

void dropOverrides(scenario::Scenario &s, const std::string &prefix)
{
    std::erase_if(s.overrides, [&prefix](const auto &entry) { return startsWith(entry.first, prefix); });
}

/// An edited copy of a block: a preset becomes "<name> (edited)"; an inline block keeps its name.
template <typename Block> void setEdited(scenario::BlockRef<Block> &ref, Block block)
{
    if (!ref.presetId.empty() || !ref.inlineBlock) {
        block.info.id = (ref.presetId.empty() ? block.info.id : ref.presetId) + "-edited";
        block.info.name += " (edited)";
    }
    ref = { std::string(), std::move(block) };
}

/// The layout as an inline, custom block (after an edit of a preset layout).
void setCustomLayout(scenario::Scenario &s, scenario::Layout layout)
{
    if (!s.layout.presetId.empty()) {
        layout.info.name = "Custom (from " + layout.info.name + ")";
        layout.info.id = "custom";
    }
    s.layout = { std::string(), std::move(layout) };
}

/// The layout fields naming a network tier, by their JSON key.
constexpr std::array<std::pair<const char *, std::int64_t model::Execution::*>, 7> kTierFields = { {
    { "tensor_par_net", &model::Execution::tensorParNet },
    { "context_par_net", &model::Execution::contextParNet },
    { "pipeline_par_net", &model::Execution::pipelineParNet },
    { "data_par_net", &model::Execution::dataParNet },
    { "expert_par_net", &model::Execution::expertParNet },
    { "expert_slice_net", &model::Execution::expertSliceNet },
    { "data_par_exp_net", &model::Execution::dataParExpNet },
} };

} // namespace

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
    mExampleName.clear();
    mUndoStack.setClean();
    emit fileNameChanged(mFileName);
    emit changed();
}

void ScenarioDocument::resetToExample(const scenario::Scenario &scenario)
{
    reset(scenario);
    mExampleName = scenario.info.name;
}

bool ScenarioDocument::open(const QString &path, QString *error)
{
    const auto scenario = readScenarioFile(path, error);
    if (!scenario)
        return false;
    reset(*scenario, path);
    for (const scenario::ShadowingBlock &block : scenario::inlineBlocksShadowingPresets(*scenario, mLibrary))
        emit notice(tr("The file's %1 “%2” (id %3) differs from your preset of that id; the file's is used.")
                        .arg(QString::fromStdString(block.kind), QString::fromStdString(block.name),
                             QString::fromStdString(block.id)));
    return true;
}

scenario::Scenario ScenarioDocument::selfContained(const scenario::Scenario &design) const
{
    // The presets every installation of this version has: the copy compiled into the binary.
    static const scenario::PresetLibrary shipped = io::embeddedPresetLibrary();
    return scenario::withUnshippedBlocksInline(design, mLibrary, shipped);
}

bool ScenarioDocument::saveAs(const QString &path, QString *error)
{
    if (!writeScenarioFile(selfContained(), path, error))
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

bool ScenarioDocument::nameFollowsEdits() const
{
    const std::string &name = mScenario.info.name;
    return name.empty() || startsWith(name, kCustomPrefix) || (!mExampleName.empty() && name == mExampleName);
}

QString ScenarioDocument::displayName() const
{
    return mScenario.info.name.empty() ? tr("Untitled design") : QString::fromStdString(mScenario.info.name);
}

void ScenarioDocument::nameAfterEdit(scenario::Scenario &after, int mergeId,
                                     const std::string &mergeKey) const
{
    if (!(after.info == mScenario.info))
        return; // the edit is of the name or notes themselves
    // A merged gesture (a slider drag) compares with where it started (QUndoStack merges only
    // when the stack is not at its clean state).
    const scenario::Scenario *reference = &mScenario;
    if (mergeId >= 0 && mUndoStack.index() > 0 && mUndoStack.index() != mUndoStack.cleanIndex())
        if (const auto *top
            = dynamic_cast<const ChangeScenario *>(mUndoStack.command(mUndoStack.index() - 1));
            top && top->id() == mergeId && top->mergeKey() == mergeKey)
            reference = &top->before();
    if (withoutInfo(after) == withoutInfo(*reference)) {
        after.info = reference->info;
        return;
    }
    const std::string &name = reference->info.name;
    const bool follows
        = name.empty() || startsWith(name, kCustomPrefix) || (!mExampleName.empty() && name == mExampleName);
    if (!follows)
        return;
    after.info.id = "custom";
    after.info.name = std::string(kCustomPrefix) + blockName(after.llm, mLibrary.llms) + " on "
                      + std::to_string(after.gpuCount) + " × " + blockName(after.gpu, mLibrary.gpus) + ", "
                      + blockName(after.topology, mLibrary.topologies);
    if (!name.empty() && !startsWith(name, kCustomPrefix))
        after.info.source = "Based on “" + name + "”.";
}

void ScenarioDocument::push(scenario::Scenario after, const QString &text, int mergeId, std::string mergeKey)
{
    nameAfterEdit(after, mergeId, mergeKey);
    if (after == mScenario)
        return;
    mUndoStack.push(new ChangeScenario(this, mScenario, std::move(after), text, mergeId, std::move(mergeKey)));
}

void ScenarioDocument::setProperties(const QString &name, const QString &notes)
{
    scenario::Scenario s = mScenario;
    s.info.name = name.trimmed().toStdString();
    s.info.source = notes.trimmed().toStdString();
    push(std::move(s), tr("Rename the design to “%1”").arg(name.trimmed()));
}

std::optional<scenario::ResolvedScenario> ScenarioDocument::resolved() const
{
    model::Diagnostics diagnostics;
    return scenario::resolve(mScenario, mLibrary, diagnostics);
}

bool ScenarioDocument::isMoe() const
{
    if (const auto r = resolved())
        return r->llm.isMoe();
    if (mScenario.llm.inlineBlock)
        return mScenario.llm.inlineBlock->isMoe();
    const auto it = mLibrary.llms.find(mScenario.llm.presetId);
    return it != mLibrary.llms.end() && it->second.isMoe();
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
    if (!known)
        return false;
    QString text = tr("Set %1 to %2").arg(what, QString::fromStdString(presetName(kind, id)));
    const QString moved = kind == BlockKind::Topology ? refitNetworkTiers(s) : QString();
    if (!moved.isEmpty())
        text += tr("; network tiers remapped: %1").arg(moved);
    push(std::move(s), text);
    if (!moved.isEmpty())
        emit notice(tr("The layout's network tiers were remapped to the new topology (innermost first): %1. "
                       "Edit > Undo takes the topology and the remapping back together.")
                        .arg(moved));
    return true;
}

QString ScenarioDocument::refitNetworkTiers(scenario::Scenario &s) const
{
    model::Diagnostics diagnostics;
    const auto resolvedScenario = scenario::resolve(s, mLibrary, diagnostics);
    auto layout = currentLayout();
    if (!resolvedScenario || !layout)
        return {};
    // The new topology's tiers: compiled with every parallelism on tier 0, which always exists
    // (a tier the old layout names may not), then the layout's own tiers put back to be fitted.
    scenario::ResolvedScenario probe = *resolvedScenario;
    for (const auto &[key, member] : kTierFields)
        if (probe.layout.execution.*member > 0)
            probe.layout.execution.*member = 0;
    const auto compiled = scenario::compileResolved(probe, diagnostics);
    if (!compiled)
        return {};
    model::Execution given = compiled->execution;
    for (const auto &[key, member] : kTierFields)
        if (resolvedScenario->layout.execution.*member >= 0) // CP's -1: the tier compile picked
            given.*member = resolvedScenario->layout.execution.*member;
    const auto fitted = model::fitNetworkTiers(given, compiled->system, compiled->features);
    if (!fitted) // no mapping fits: the degrees must change, and the diagnostics say so
        return {};
    QStringList moved;
    for (const auto &[key, member] : kTierFields) {
        if ((*fitted).*member == given.*member)
            continue;
        moved << tr("%1 %2 → %3").arg(parameterLabel(key)).arg(given.*member).arg((*fitted).*member);
        layout->execution.*member = (*fitted).*member;
    }
    if (!moved.isEmpty())
        setCustomLayout(s, *layout);
    return moved.join(QStringLiteral(", "));
}

void ScenarioDocument::setOverride(const std::string &key, std::optional<double> value)
{
    scenario::Scenario s = mScenario;
    if (value)
        s.overrides[key] = *value;
    else
        s.overrides.erase(key);
    push(std::move(s), tr("Change %1").arg(parameterLabel(key)), Cmd_SetOverride, key);
}

void ScenarioDocument::clearOverrides()
{
    scenario::Scenario s = mScenario;
    s.overrides.clear();
    push(std::move(s), tr("Reset sliders"));
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
    s.overrides.erase("gpu_count");
    if (auto layout = currentLayout()) {
        model::Execution e = layout->execution;
        balanceLayout(e, gpuCount, isMoe());
        if (!(e == layout->execution)) {
            layout->execution = e;
            setCustomLayout(s, *layout);
            s.overrides.erase("layout.data_par");
        }
    }
    push(std::move(s), tr("Change the GPU count"), Cmd_SetGpuCount, "gpu_count");
}

void ScenarioDocument::editLayout(const std::string &field, const std::function<void(model::Execution &)> &edit)
{
    auto layout = currentLayout();
    if (!layout)
        return;
    edit(layout->execution);
    scenario::Scenario s = mScenario;
    model::Execution &e = layout->execution;
    const auto r = resolved();
    const std::int64_t gpuCount = r ? r->gpuCount : s.gpuCount;
    static constexpr std::array<std::string_view, 5> kRebalancing
        = { "tensor_par", "pipeline_par", "context_par", "expert_par", "expert_slice" };
    if (std::find(kRebalancing.begin(), kRebalancing.end(), field) != kRebalancing.end()) {
        balanceLayout(e, gpuCount, isMoe());
        s.overrides.erase("layout.data_par");
    } else if (field == "data_par") {
        s.gpuCount = model::layoutGpuCount(e);
        s.overrides.erase("gpu_count");
        balanceLayout(e, s.gpuCount, isMoe());
    }
    setCustomLayout(s, *layout);
    s.overrides.erase("layout." + field); // the field now says what the user typed
    push(std::move(s), tr("Change %1").arg(parameterLabel(field)), Cmd_EditLayout, "layout." + field);
}

bool ScenarioDocument::editBlock(Slot slot, const std::function<void(scenario::ResolvedScenario &)> &edit,
                                 const QString &what)
{
    auto r = resolved();
    if (!r)
        return false;
    edit(*r);
    scenario::Scenario s = mScenario;
    switch (slot) {
    case Slot::Gpu:
        setEdited(s.gpu, r->gpu);
        break;
    case Slot::ScaleUp:
        setEdited(s.scaleUp, r->scaleUp);
        break;
    case Slot::ScaleOut:
        setEdited(s.scaleOut, r->scaleOut);
        break;
    case Slot::Topology:
        setEdited(s.topology, r->topology);
        break;
    case Slot::Llm:
        setEdited(s.llm, r->llm);
        break;
    }
    dropOverrides(s, slotPrefix(slot)); // baked into the edited copy
    push(std::move(s), what);
    return true;
}

bool ScenarioDocument::useSavedBlock(Slot slot, const std::string &presetId)
{
    scenario::Scenario s = mScenario;
    const auto use = [&presetId](auto &ref, const auto &presets) {
        if (!presets.contains(presetId))
            return false;
        ref = { presetId, std::nullopt };
        return true;
    };
    bool known = false;
    BlockKind kind = BlockKind::Gpu;
    switch (slot) {
    case Slot::Gpu:
        known = use(s.gpu, mLibrary.gpus);
        break;
    case Slot::ScaleUp:
        known = use(s.scaleUp, mLibrary.interconnects);
        kind = BlockKind::Interconnect;
        break;
    case Slot::ScaleOut:
        known = use(s.scaleOut, mLibrary.interconnects);
        kind = BlockKind::Interconnect;
        break;
    case Slot::Topology:
        known = use(s.topology, mLibrary.topologies);
        kind = BlockKind::Topology;
        break;
    case Slot::Llm:
        known = use(s.llm, mLibrary.llms);
        kind = BlockKind::Llm;
        break;
    }
    if (!known)
        return false;
    dropOverrides(s, slotPrefix(slot));
    push(std::move(s), tr("Use %1").arg(QString::fromStdString(presetName(kind, presetId))));
    return true;
}

std::string ScenarioDocument::presetName(BlockKind kind, const std::string &id) const
{
    const auto nameIn = [&id](const auto &presets) {
        const auto it = presets.find(id);
        return it == presets.end() ? id : it->second.info.name;
    };
    switch (kind) {
    case BlockKind::Gpu:
        return nameIn(mLibrary.gpus);
    case BlockKind::Interconnect:
        return nameIn(mLibrary.interconnects);
    case BlockKind::Topology:
        return nameIn(mLibrary.topologies);
    case BlockKind::Llm:
        return nameIn(mLibrary.llms);
    case BlockKind::Layout:
        return nameIn(mLibrary.layouts);
    }
    return id;
}

} // namespace gapstudio::views
