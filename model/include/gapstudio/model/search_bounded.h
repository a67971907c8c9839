#pragma once
/**
 * @file search_bounded.h
 * The layout search without the layouts that provably cannot rank: the same top N as
 * searchLayouts(), ties and order included, for a fraction of the evaluations.
 */

#include "gapstudio/model/search.h"

#include <cstdint>

namespace gapstudio::model {

struct BoundedSearchResult {
    /// As searchLayouts() returns it, but `configurations` counts the executions of the space
    /// (evaluated + skipped; with -m up to where each microbatch loop stops, as the exhaustive
    /// search) and `valid` the valid ones among those evaluated.
    SearchResult search;
    std::uint64_t evaluated = 0; ///< executions evaluated
    std::uint64_t skipped = 0;   ///< executions proved unable to rank, not evaluated
};

/// searchLayouts() that skips every layout whose upper bound on its score (the sample rate or
/// the MFU, from a lower bound on its step time: compute at the layers' own efficiencies, the TP
/// comm of its TP tier, the pipeline bubble and, in the corrected model, the pipeline stages'
/// own extra time; model/src/search/search_bound.cpp) is below the N-th best found so far. Both
/// the reference and the corrected model are bounded.
[[nodiscard]] BoundedSearchResult searchLayoutsBounded(const Application &app, const System &sys,
                                                       const SearchSpace &space, const SearchOptions &options);

} // namespace gapstudio::model
