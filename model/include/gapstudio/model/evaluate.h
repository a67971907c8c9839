#pragma once
/**
 * @file evaluate.h
 * The reference performance model: one configuration in, statistics or diagnostics out.
 * Pure: no I/O, no globals, no exceptions for infeasible input.
 */

#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/diagnostics.h"
#include "gapstudio/model/fidelity.h"
#include "gapstudio/model/quirks.h"
#include "gapstudio/model/stats.h"

#include <vector>

namespace gapstudio::model {

struct EvaluateOptions {
    bool withLayers = false;                ///< fill Evaluation::layers (the reference's `-l`)
    Quirks quirks = Quirks::reference();     ///< reproduce the reference's quirks (default)
    bool explain = true; ///< false: diagnostics carry code and field but no message (searches)
    Features features = Features::reference(); ///< corrected-model behaviours (fidelity.h)
    Calibration calibration;                   ///< used when features.calibrated
    /// false: skip the range checks of the system (limits.h), which a caller evaluating one
    /// system many times (a layout search) has made once already.
    bool checkSystemRanges = true;
};

struct Evaluation {
    bool ok = false;                 ///< false: `diagnostics` says why; `stats` is then meaningless
    Stats stats;
    std::vector<LayerStats> layers;  ///< only with EvaluateOptions::withLayers
    Diagnostics diagnostics;
};

/// Checks the execution against the application and system: the reference's assertions
/// (malformed input) and its `Llm.Error` checks that can be made before running (network tiers,
/// interleaving, offload). Memory capacity is checked by evaluate() after the run.
[[nodiscard]] Diagnostics checkConfiguration(const Application &app, const Execution &exe,
                                             const System &sys, bool explain = true,
                                             const Features &features = Features::reference());

/// `options` as a caller that evaluates one system many times uses them (`bench`, the hot path's
/// profile training): the system's ranges (limits.h) checked once, by a first evaluation with
/// `options`, and diagnostics without their text.
[[nodiscard]] inline EvaluateOptions repeatedEvaluationOptions(EvaluateOptions options) noexcept
{
    options.checkSystemRanges = false;
    options.explain = false;
    return options;
}

/// Evaluates one training (or inference) step of `app` laid out as `exe` on `sys`.
[[nodiscard]] Evaluation evaluate(const Application &app, const Execution &exe, const System &sys,
                                  const EvaluateOptions &options = {});

} // namespace gapstudio::model
