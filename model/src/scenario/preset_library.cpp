// Merging preset libraries (scenario.h): the preset search order and the studio's own blocks.
#include "gapstudio/scenario/scenario.h"

namespace gapstudio::scenario {

namespace {

template <typename Block>
void mergeKind(std::map<std::string, Block> &into, const std::map<std::string, Block> &from,
               OnDuplicate duplicate)
{
    for (const auto &[id, block] : from) {
        if (duplicate == OnDuplicate::Replace)
            into.insert_or_assign(id, block);
        else
            into.try_emplace(id, block);
    }
}

} // namespace

void mergeLibrary(PresetLibrary &into, const PresetLibrary &from, OnDuplicate duplicate)
{
    mergeKind(into.gpus, from.gpus, duplicate);
    mergeKind(into.interconnects, from.interconnects, duplicate);
    mergeKind(into.topologies, from.topologies, duplicate);
    mergeKind(into.llms, from.llms, duplicate);
    mergeKind(into.layouts, from.layouts, duplicate);
    mergeKind(into.software, from.software, duplicate);
    mergeKind(into.storage, from.storage, duplicate);
    mergeKind(into.calibrations, from.calibrations, duplicate);
}

} // namespace gapstudio::scenario
