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

/// searchLayouts() that skips every layout whose upper bound on the sample rate (a lower bound
/// on its step time: compute at the layers' own efficiencies, the TP comm of its TP tier and
/// the pipeline bubble; model/src/search/search_bound.cpp) is below the N-th best found so far. Only
/// the reference features ranked by sample rate are bounded; anything else (the corrected
/// model's features, --rank mfu) is searched exhaustively, with `skipped` = 0.
[[nodiscard]] BoundedSearchResult searchLayoutsBounded(const Application &app, const System &sys,
                                                       const SearchSpace &space, const SearchOptions &options);

} // namespace gapstudio::model
