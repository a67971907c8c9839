#pragma once
/**
 * @file prediction_interval.h
 * How far a corrected-model prediction may be off: an interval on the step time, and with it on
 * throughput and MFU, from two sources added in quadrature on the log scale.
 *
 * - The calibration's parameters. Their covariance (the fit's standard errors and correlations,
 *   FitSummary) is carried to the log step time through its derivatives: the law of propagation
 *   of uncertainty with correlated inputs (JCGM 100:2008, the GUM, section 5.2.2, eq. 13;
 *   docs/references.md):
 *   sigma_p^2 = sum_ij (d ln t / d p_i) (d ln t / d p_j) rho_ij se_i se_j. Each derivative is a
 *   finite difference of the model itself, every value the parameter sets moved together.
 * - The model's own error on designs it was not fitted to: the mean |error| the calibration's
 *   fit measured for a design like this one (CalibrationAccuracy::basis(): the fitted runs, a
 *   software stack left out, or an unseen GPU generation), as a standard deviation. For a normal
 *   error E|e| = sigma * sqrt(2 / pi) (the mean of the half-normal distribution), so
 *   sigma_m = sqrt(pi / 2) * mean |error|.
 *
 * The interval is t * exp(-sigma) .. t * exp(+sigma) with sigma = sqrt(sigma_p^2 + sigma_m^2):
 * one standard deviation, about 68 % of predictions if the log error is normal. A rate (samples
 * per second, MFU) is proportional to 1 / t, so its interval has the same form. The two sources
 * overlap (a left-out fit's error already holds its parameters' spread), so adding both is on the
 * cautious side.
 */

#include "gapstudio/scenario/scenario.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gapstudio::scenario {

/// One fitted parameter's own part of the interval: |d ln t / d p| * its standard error.
struct ParameterSpread {
    std::string name; ///< FitSummary::parameters name, e.g. "hopper/gemm_efficiency/fp8"
    double sigma = 0; ///< of the log step time
};

struct PredictionInterval {
    double sigma = 0;          ///< standard deviation of the log step time, both sources
    double parameterSigma = 0; ///< from the calibration's parameter covariance
    double modelSigma = 0;     ///< from the out-of-sample error
    CalibrationAccuracy::Basis basis = CalibrationAccuracy::Basis::FittedRuns;
    std::vector<ParameterSpread> parameters; ///< each parameter alone, largest first

    /// The interval [low, high] of a quantity proportional to the step time or to its inverse.
    [[nodiscard]] std::pair<double, double> range(double value) const noexcept
    {
        return { value * std::exp(-sigma), value * std::exp(sigma) };
    }
};

/// "fitted_runs", "unseen_software", "unseen_gpu", "unestimated" (stable, for files and scripts).
[[nodiscard]] const char *basisName(CalibrationAccuracy::Basis basis) noexcept;

/// sigma_m for a mean |error|: sqrt(pi / 2) * error (see above).
[[nodiscard]] double standardDeviationOfMeanAbsError(double meanAbsError) noexcept;

/// The interval of a corrected-model evaluation of `compiled` that ran (evaluation.ok); nothing
/// for the reference models, without a calibration and its fit summary, or when the design's
/// out-of-sample error was not estimated (CalibrationAccuracy::Basis::Unestimated).
[[nodiscard]] std::optional<PredictionInterval> predictionInterval(const CompiledScenario &compiled,
                                                                   const model::Evaluation &evaluation);

} // namespace gapstudio::scenario
