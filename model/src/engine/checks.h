#pragma once

#include "gapstudio/model/evaluate.h"
#include "gapstudio/model/limits.h"

#include <optional>
#include <string>

namespace gapstudio::model {

/// The reference's human_format(value, 'bytes'), e.g. "443.306 GiB" (used in its messages).
[[nodiscard]] std::string humanBytes(double bytes);

/// checkConfiguration(), with the system's range checks (limits.h) only if `systemRanges`.
[[nodiscard]] Diagnostics checkConfiguration(const Application &app, const Execution &exe, const System &sys,
                                             bool explain, const Features &features,
                                             bool systemRanges);

/// The network checks of checkConfiguration alone: the degrees mapped onto each tier fit it (and
/// fill it where it must be filled), and every tier named exists (network_tiers.cpp).
[[nodiscard]] bool networksFit(const Execution &exe, const System &sys, const Features &features);

/// Integer inputs whose products (element and flop counts of one layer, microbatches times
/// blocks) would exceed limits::kMaxCount: one OutOfRange diagnostic naming the largest input.
/// Needs positive inputs (range_checks.cpp).
void checkCounts(const Application &app, const Execution &exe, bool explain, Diagnostics &out);

/// The final guard of evaluate(): every statistic finite and non-negative (the reference's
/// NaN for act_checkpoint_size_with_offload in inference excepted). Returns a NonFiniteResult
/// diagnostic naming the statistic and the input most likely at fault, or nothing
/// (result_guard.cpp).
[[nodiscard]] std::optional<Diagnostic> checkResults(const Application &app, const Execution &exe,
                                                     const System &sys, const Stats &stats, bool explain);

} // namespace gapstudio::model
