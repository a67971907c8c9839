#pragma once
/**
 * @file calibrate.h
 * Fits a calibration (CalibrationSet) to measured iteration times by nonlinear least squares
 * (Levenberg-Marquardt, Eigen's NonLinearOptimization module) on log(predicted / measured),
 * with weak priors that keep every parameter physical and defined when few runs inform it.
 *
 * Parameters (all bounded by their transform: efficiencies in (0, 1], overheads >= 0):
 *  - per GPU architecture (or --gpu id): GEMM efficiency per datatype used, attention-kernel
 *    efficiency, HBM efficiency;
 *  - globally: the GEMM half-depth, the scale-up and scale-out collective efficiencies, the
 *    overlap efficiency;
 *  - per software stack: compute efficiency and per-block overhead, each as a deviation from the
 *    "default" software entry (which stacks without runs, or new ones, fall back to).
 * The MoE blocks' host time is not fitted: their operators cost their documented time
 * (model::Calibration::hostOpScale 1, engine/host_ops.h).
 * Nothing is keyed to a run, a family or a model name.
 */

#include "gapstudio/io/measurement_json.h"
#include "gapstudio/scenario/scenario.h"
#include "gapstudio/scenario/validation.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace gapstudio::scenario {

struct CalibrationFitOptions {
    std::string id = "fitted";       ///< the written preset's id
    std::string name = "Fitted calibration";
    std::string gpu;                 ///< key GPU entries by this GPU id (else by architecture)
    std::string software;            ///< treat every run as this software stack (else its own)
    const CalibrationSet *start = nullptr; ///< values to start from and to fall back to
    bool leaveOneFamilyOut = true;   ///< also fit once per family without it
    /// The families the fold leaves out, each in turn (empty: every family). A fold over part of
    /// the families predicts those runs only, as a fold over all of them would: the sanitizer
    /// build runs the fold in parts.
    std::set<std::string> foldFamilies;
    /// Also fit once per GPU generation (runGeneration) without its runs and predict them: how
    /// far the calibration carries to a GPU generation it has not seen.
    bool leaveOneGenerationOut = true;
    /// Keep every parameter inside its documented plausible range (FittedParameter::low, high;
    /// docs/references.md, "Calibration ranges"). Either way the summary marks the parameters the
    /// fit put at or beyond an end of their range (FittedParameter::atBound).
    bool bounded = false;
    int maxIterations = 200;
    /// Called with (done, total) as fits progress (the studio's progress bar); may be empty.
    std::function<void(int, int)> progress;
    /// Returns true to stop early (the studio's Cancel); may be empty.
    std::function<bool()> cancelled;
};

struct CalibrationFit {
    CalibrationSet calibration;               ///< the fitted preset, with its FitSummary
    std::vector<ValidationRow> before, after; ///< every run with the start / fitted calibration
    ErrorStats beforeStats, afterStats;
    /// Each run predicted by the fit without its family (leave-one-family-out).
    std::vector<ValidationRow> leftOut;
    ErrorStats leftOutStats;
    std::map<std::string, ErrorStats> leftOutByFamily;
    /// Each run predicted by the fit without its GPU generation (leave-one-generation-out).
    std::vector<ValidationRow> generationLeftOut;
    std::map<std::string, ErrorStats> leftOutByGeneration;
    bool cancelled = false;
};

/// Fits a calibration to `measurements` (which must all compile and evaluate; rows that do not are
/// reported in `before` and left out of the fit). Throws std::invalid_argument when no run can
/// be evaluated.
[[nodiscard]] CalibrationFit fitCalibration(const std::vector<io::Measurement> &measurements,
                                            const PresetLibrary &library, const CalibrationFitOptions &options);

} // namespace gapstudio::scenario
