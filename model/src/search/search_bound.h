#pragma once
// A provable lower bound on the step time of a group of layouts, for the bounded layout search
// (search.cpp). Internal to the model.

#include "gapstudio/model/evaluate.h"
#include "gapstudio/model/search.h"

#include <limits>

namespace gapstudio::model::detail {

/// No layout of the group is valid (its counts overflow the model, limits.h).
inline constexpr double kNoValidLayout = -std::numeric_limits<double>::infinity();

/// Upper bounds on the score (sample rate, or MFU with RankBy::Mfu) of every valid evaluation of
/// `exe` with any data_par_overlap, offload flags and network mapping (the fields the search
/// varies innermost, which do not shape the block's compute) but its TP tier: perTier[t] for TP
/// on tier t (one per tier of `sys`); kNoValidLayout when none can be valid. Holds for the
/// reference and the corrected model; see search_bound.cpp for the proof.
void scoreUpperBounds(const Application &app, const Execution &exe, const System &sys,
                      const EvaluateOptions &options, RankBy rankBy, double *perTier);

} // namespace gapstudio::model::detail
