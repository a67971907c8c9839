// Self-contained scenario files (self_contained.h): unshipped presets written inline, and the
// inline blocks that differ from a local preset of the same id.
#include "gapstudio/scenario/self_contained.h"

#include <map>

namespace gapstudio::scenario {

namespace {

/// Calls `visit(kind, ref, presets, shippedPresets)` for each block slot of a scenario, with the
/// presets of that kind in `library` and in `shipped`.
template <typename S, typename Visit>
void forEachSlot(S &s, const PresetLibrary &library, const PresetLibrary &shipped, Visit &&visit)
{
    visit("GPU", s.gpu, library.gpus, shipped.gpus);
    visit("scale-up interconnect", s.scaleUp, library.interconnects, shipped.interconnects);
    visit("scale-out interconnect", s.scaleOut, library.interconnects, shipped.interconnects);
    visit("topology", s.topology, library.topologies, shipped.topologies);
    visit("LLM", s.llm, library.llms, shipped.llms);
    visit("layout", s.layout, library.layouts, shipped.layouts);
    visit("software", s.software, library.software, shipped.software);
    visit("calibration", s.calibration, library.calibrations, shipped.calibrations);
    visit("checkpoint storage", s.storage, library.storage, shipped.storage);
}

/// The preset of `id` in `presets`, or nullptr.
template <typename Block>
const Block *find(const std::map<std::string, Block> &presets, const std::string &id)
{
    const auto it = presets.find(id);
    return it == presets.end() ? nullptr : &it->second;
}

} // namespace

Scenario withUnshippedBlocksInline(const Scenario &scenario, const PresetLibrary &library,
                                   const PresetLibrary &shipped)
{
    Scenario out = scenario;
    forEachSlot(out, library, shipped,
                [](const char *, auto &ref, const auto &presets, const auto &shippedPresets) {
                    if (ref.presetId.empty() || ref.inlineBlock)
                        return;
                    const auto *block = find(presets, ref.presetId);
                    if (!block)
                        return;
                    const auto *everywhere = find(shippedPresets, ref.presetId);
                    if (everywhere && *everywhere == *block)
                        return;
                    ref.inlineBlock = *block;
                    ref.presetId.clear();
                });
    return out;
}

std::vector<ShadowingBlock> inlineBlocksShadowingPresets(const Scenario &scenario,
                                                         const PresetLibrary &library)
{
    std::vector<ShadowingBlock> out;
    forEachSlot(scenario, library, library,
                [&out](const char *kind, const auto &ref, const auto &presets, const auto &) {
                    if (!ref.inlineBlock || ref.inlineBlock->info.id.empty())
                        return;
                    const auto *local = find(presets, ref.inlineBlock->info.id);
                    if (local && !(*local == *ref.inlineBlock))
                        out.push_back({ kind, ref.inlineBlock->info.id, ref.inlineBlock->info.name });
                });
    return out;
}

} // namespace gapstudio::scenario
