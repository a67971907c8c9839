#pragma once
/**
 * @file self_contained.h
 * Scenario files that open on another machine: the blocks a design names by preset id that
 * GapStudio does not ship (the user's own, "My blocks") are written into the file, and a file
 * whose written-in block shares its id with a different local preset says which one it uses.
 */

#include "gapstudio/scenario/scenario.h"

#include <string>
#include <vector>

namespace gapstudio::scenario {

/// `scenario` with every block named by a preset id written inline, as `library` holds it, unless
/// `shipped` (the presets every installation has) holds the same block under that id. A block
/// whose id `library` does not know is left by id (resolving it then reports the missing preset).
[[nodiscard]] Scenario withUnshippedBlocksInline(const Scenario &scenario, const PresetLibrary &library,
                                                 const PresetLibrary &shipped);

/// A block written into a scenario whose id names a different preset in the library.
struct ShadowingBlock {
    std::string kind; ///< "GPU", "scale-up interconnect", "LLM", ...
    std::string id;
    std::string name; ///< the written-in block's name
};

/// The inline blocks of `scenario` that differ from the preset of the same id in `library`. The
/// scenario uses its own (inline) block; these are the ones a user may mistake for the local one.
[[nodiscard]] std::vector<ShadowingBlock> inlineBlocksShadowingPresets(const Scenario &scenario,
                                                                       const PresetLibrary &library);

} // namespace gapstudio::scenario
