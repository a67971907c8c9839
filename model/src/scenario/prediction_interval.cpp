// The interval of a corrected-model prediction (prediction_interval.h).
#include "gapstudio/scenario/prediction_interval.h"

#include <algorithm>
#include <numbers>

namespace gapstudio::scenario {

namespace {

/// Relative step of the finite differences: small against any parameter's standard error, large
/// against the step time's rounding.
constexpr double kStep = 1e-4;

/// A value of the model's inputs set by one fitted parameter.
struct Knob {
    const std::string *parameter;
    double *value;
};

/// The inputs' values that fitted parameters set, in the working copies `calibration` and
/// `system`.
std::vector<Knob> knobsOf(const CalibrationSources &s, model::Calibration &calibration, model::System &system)
{
    std::vector<Knob> knobs;
    const auto add = [&](const std::string &parameter, double &value) {
        if (!parameter.empty() && value > 0)
            knobs.push_back({ &parameter, &value });
    };
    for (std::size_t i = 0; i < s.gemmEfficiency.size(); ++i)
        add(s.gemmEfficiency[i], calibration.gemmEfficiency[i]);
    add(s.gemmHalfDepth, calibration.gemmHalfDepth);
    add(s.attentionEfficiency, calibration.attentionEfficiency);
    add(s.hbmEfficiency, calibration.hbmEfficiency);
    add(s.computeEfficiency, calibration.computeEfficiency);
    add(s.blockOverhead, calibration.blockOverhead_s);
    add(s.overlapEfficiency, calibration.overlapEfficiency);
    add(s.moeBlockOverhead, calibration.moeBlockOverhead_s);
    add(s.hostOpScale, calibration.hostOpScale);
    for (std::size_t i = 0; i < s.networkEfficiency.size() && i < system.networks.size(); ++i)
        add(s.networkEfficiency[i], system.networks[i].efficiency);
    return knobs;
}

/// Index of `name` in the fit's parameters, or -1.
int indexOf(const FitSummary &fit, const std::string &name)
{
    for (std::size_t i = 0; i < fit.parameters.size(); ++i)
        if (fit.parameters[i].name == name)
            return static_cast<int>(i);
    return -1;
}

} // namespace

CalibrationAccuracy::Basis CalibrationAccuracy::basis() const noexcept
{
    if (!gpuHasEntry)
        return unseenGenerationMeanAbsError > 0 ? Basis::UnseenGpu : Basis::Unestimated;
    return softwareHasEntry ? Basis::FittedRuns : Basis::UnseenSoftware;
}

double CalibrationAccuracy::meanAbsError() const noexcept
{
    switch (basis()) {
    case Basis::FittedRuns:
        return fittedMeanAbsError;
    case Basis::UnseenSoftware:
        return leaveOneFamilyOutMeanAbsError;
    case Basis::UnseenGpu:
        return unseenGenerationMeanAbsError;
    case Basis::Unestimated:
        break;
    }
    return 0;
}

const char *basisName(CalibrationAccuracy::Basis basis) noexcept
{
    switch (basis) {
    case CalibrationAccuracy::Basis::FittedRuns:
        return "fitted_runs";
    case CalibrationAccuracy::Basis::UnseenSoftware:
        return "unseen_software";
    case CalibrationAccuracy::Basis::UnseenGpu:
        return "unseen_gpu";
    case CalibrationAccuracy::Basis::Unestimated:
        break;
    }
    return "unestimated";
}

double standardDeviationOfMeanAbsError(double meanAbsError) noexcept
{
    return std::sqrt(std::numbers::pi / 2) * meanAbsError;
}

std::optional<PredictionInterval> predictionInterval(const CompiledScenario &compiled,
                                                     const model::Evaluation &evaluation)
{
    const std::optional<CalibrationSet> &set = compiled.resolved.calibration;
    if (!evaluation.ok || !compiled.features.calibrated || !set || !set->fit || !compiled.calibrationAccuracy
        || compiled.calibrationAccuracy->basis() == CalibrationAccuracy::Basis::Unestimated)
        return std::nullopt;
    const FitSummary &fit = *set->fit;
    PredictionInterval interval;
    interval.basis = compiled.calibrationAccuracy->basis();
    interval.modelSigma = standardDeviationOfMeanAbsError(compiled.calibrationAccuracy->meanAbsError());

    // d ln t / d p for each parameter the design's inputs come from: every value it sets moved by
    // the same relative step (a GEMM efficiency sets both 16-bit types, a link all its tiers).
    model::EvaluateOptions options = compiled.evaluateOptions(false, false);
    model::System system = compiled.system;
    const std::vector<Knob> knobs = knobsOf(compiled.calibrationSources, options.calibration, system);
    const double logTime = std::log(evaluation.stats.total_time);
    std::vector<std::pair<int, double>> gradient; // fit index, d ln t / d p
    for (std::size_t k = 0; k < knobs.size(); ++k) {
        const std::string &name = *knobs[k].parameter;
        const int index = indexOf(fit, name);
        const bool seen = std::any_of(knobs.begin(), knobs.begin() + static_cast<std::ptrdiff_t>(k),
                                      [&](const Knob &earlier) { return *earlier.parameter == name; });
        if (index < 0 || seen)
            continue;
        std::vector<std::pair<double *, double>> saved;
        for (const Knob &knob : knobs)
            if (*knob.parameter == name) {
                saved.emplace_back(knob.value, *knob.value);
                *knob.value *= 1 - kStep;
            }
        const model::Evaluation moved
            = model::evaluate(compiled.application, compiled.execution, system, options);
        for (const auto &[value, original] : saved)
            *value = original;
        const double value = saved.front().second; // the parameter's value, > 0 (knobsOf)
        if (moved.ok)
            gradient.emplace_back(index, (std::log(moved.stats.total_time) - logTime) / (-kStep * value));
    }

    // Correlations only from a matrix that matches the parameters (the file reader checks that; a
    // fit edited in code may not keep it): otherwise the parameters count as uncorrelated.
    const bool correlated = fit.correlation.size() == fit.parameters.size();
    double variance = 0;
    for (const auto &[i, gi] : gradient) {
        const double sei = fit.parameters[static_cast<std::size_t>(i)].standardError;
        if (gi != 0 && sei > 0)
            interval.parameters.push_back({ fit.parameters[static_cast<std::size_t>(i)].name, std::abs(gi) * sei });
        for (const auto &[j, gj] : gradient) {
            const double sej = fit.parameters[static_cast<std::size_t>(j)].standardError;
            const double rho
                = i == j        ? 1.0
                  : !correlated ? 0.0
                                : fit.correlation[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
            variance += gi * gj * rho * sei * sej;
        }
    }
    std::sort(interval.parameters.begin(), interval.parameters.end(),
              [](const ParameterSpread &a, const ParameterSpread &b) { return a.sigma > b.sigma; });
    interval.parameterSigma = std::sqrt(std::max(0.0, variance));
    interval.sigma = std::hypot(interval.parameterSigma, interval.modelSigma);
    return interval;
}

} // namespace gapstudio::scenario
