#pragma once
// Private to the preset JSON code: the ranges of model/limits.h applied to a block's numbers in
// its JSON units. The block parsers (preset_*_block*.cpp) check types and lower bounds; this adds
// the rest, so that presets and inline blocks follow the rule of every other input.

#include "gapstudio/io/preset_json.h"
#include "io/json_cursor.h"

namespace gapstudio::io::detail {

/// Throws InputError at the first number of the block object `block` (already parsed as `kind`)
/// that lies outside its range.
void checkBlockRanges(const JsonCursor &block, PresetKind kind);

} // namespace gapstudio::io::detail
