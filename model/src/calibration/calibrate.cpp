// Calibration by nonlinear least squares (calibrate.h): the runs to fit, the fit over all of them
// and the folds that hold a family or a GPU generation out. The problem and its residuals are in
// calibration_problem.cpp, its solution in calibration_solver.cpp.
#include "gapstudio/scenario/calibrate.h"
#include "gapstudio/scenario/run_filter.h"

#include "calibration/calibration_problem.h"

#include "gapstudio/model/evaluate.h"

#include <functional>
#include <set>
#include <stdexcept>

namespace gapstudio::scenario {

namespace {

using fit::Problem;
using fit::Run;
using fit::solve;

/// The runs to fit: every measurement but those `held` marks (held out of a fold).
std::vector<Run> prepare(const std::vector<io::Measurement> &measurements, const PresetLibrary &library,
                         const CalibrationFitOptions &options, const std::vector<bool> &held)
{
    std::vector<Run> runs;
    for (std::size_t i = 0; i < measurements.size(); ++i) {
        const io::Measurement &m = measurements[i];
        if (!held.empty() && held[i])
            continue;
        Scenario scenario = m.scenario;
        if (options.start) {
            scenario.calibration.presetId.clear();
            scenario.calibration.inlineBlock = *options.start;
        }
        CompileResult compiled = compile(scenario, library);
        if (!compiled.compiled)
            continue;
        const CompiledScenario &c = *compiled.compiled;
        const model::Evaluation e = model::evaluate(c.application, c.execution, c.system, c.evaluateOptions());
        if (!(e.stats.total_time > 0))
            continue; // infeasible layouts have no time to fit (they are reported by validate)
        runs.push_back({ std::move(*compiled.compiled), m.measuredIterationTime_s, m.family, {} });
    }
    return runs;
}

/// With --software, every run is treated as that stack: its software block keeps what the run's
/// own stack sends (gradient datatype) under the new id.
std::vector<io::Measurement> withSoftware(std::vector<io::Measurement> measurements, const PresetLibrary &library,
                                          const std::string &id)
{
    if (id.empty())
        return measurements;
    for (io::Measurement &m : measurements) {
        Software software;
        if (m.scenario.software.inlineBlock)
            software = *m.scenario.software.inlineBlock;
        else if (const auto it = library.software.find(m.scenario.software.presetId.empty() ? kDefaultSoftwareId
                                                                                           : m.scenario.software.presetId);
                 it != library.software.end())
            software = it->second;
        software.info.id = id;
        software.info.name = id;
        m.scenario.software = { {}, software };
    }
    return measurements;
}

/// One fold: fits from the priors without the runs whose group is `group`, and predicts them.
/// Empty when no other run is left to fit.
std::vector<ValidationRow> foldOut(const std::vector<io::Measurement> &measurements,
                                   const PresetLibrary &library, const CalibrationFitOptions &options,
                                   const std::vector<std::string> &groups, const std::string &group)
{
    // Start from the priors, not from a calibration that has seen the group.
    CalibrationFitOptions held = options;
    held.start = nullptr;
    std::vector<bool> out(measurements.size());
    std::vector<io::Measurement> leftOut;
    for (std::size_t i = 0; i < measurements.size(); ++i) {
        out[i] = groups[i] == group;
        if (out[i])
            leftOut.push_back(measurements[i]);
    }
    const Problem without(prepare(measurements, library, held, out), held);
    if (without.runs().empty())
        return {};
    const CalibrationSet calibration = without.calibration(solve(without, options.maxIterations));
    return validateMeasurements(leftOut, library, &calibration);
}

/// foldOut for each of `groups` in turn, its predictions appended to `rows`; true when `step`
/// (called after each fold) reports a cancel.
bool foldEach(const std::vector<io::Measurement> &measurements, const PresetLibrary &library,
              const CalibrationFitOptions &options, const std::vector<std::string> &groupOf,
              const std::set<std::string> &groups, std::vector<ValidationRow> &rows,
              const std::function<bool()> &step)
{
    for (const std::string &group : groups) {
        for (ValidationRow &row : foldOut(measurements, library, options, groupOf, group))
            rows.push_back(std::move(row));
        if (step())
            return true;
    }
    return false;
}

} // namespace

CalibrationFit fitCalibration(const std::vector<io::Measurement> &input, const PresetLibrary &library,
                              const CalibrationFitOptions &options)
{
    const std::vector<io::Measurement> measurements = withSoftware(input, library, options.software);
    CalibrationFit fit;
    fit.before = validateMeasurements(measurements, library, options.start);
    fit.beforeStats = summarize(fit.before).all;

    std::vector<std::string> familyOf, generationOf;
    std::set<std::string> families, generations;
    for (const io::Measurement &m : measurements) {
        familyOf.push_back(m.family);
        generationOf.push_back(runGeneration(m, library));
        families.insert(familyOf.back());
        if (!generationOf.back().empty())
            generations.insert(generationOf.back());
    }
    const bool fold = options.leaveOneFamilyOut && families.size() > 1;
    std::set<std::string> folded;
    for (const std::string &family : families)
        if (options.foldFamilies.empty() || options.foldFamilies.count(family) == 1)
            folded.insert(family);
    if (!(options.leaveOneGenerationOut && generations.size() > 1))
        generations.clear();
    const int total = 1 + (fold ? static_cast<int>(folded.size()) : 0) + static_cast<int>(generations.size());
    int done = 0;
    const auto step = [&] {
        ++done;
        if (options.progress)
            options.progress(done, total);
        return options.cancelled && options.cancelled();
    };

    const Problem problem(prepare(measurements, library, options, {}), options);
    if (problem.runs().empty()) {
        std::string files;
        for (const io::Measurement &m : measurements)
            files += (files.empty() ? "" : ", ") + (m.file.empty() ? m.id : m.file);
        throw std::invalid_argument("no measured run could be evaluated (" + files
                                    + "), so there is nothing to fit");
    }
    const Eigen::VectorXd x = solve(problem, options.maxIterations);
    fit.calibration = problem.calibration(x);
    fit.after = validateMeasurements(measurements, library, &fit.calibration);
    fit.afterStats = summarize(fit.after).all;
    FitSummary summary;
    summary.rows = static_cast<std::int64_t>(problem.runs().size());
    summary.meanAbsErrorBefore = fit.beforeStats.meanAbsError;
    summary.meanAbsError = fit.afterStats.meanAbsError;
    summary.maxAbsError = fit.afterStats.maxAbsError;
    problem.report(x, summary);
    if (step()) {
        fit.cancelled = true;
        fit.calibration.fit = summary;
        return fit;
    }

    if (fold) {
        if (foldEach(measurements, library, options, familyOf, folded, fit.leftOut, step)) {
            fit.cancelled = true;
            fit.calibration.fit = summary;
            return fit;
        }
        const ValidationSummary s = summarize(fit.leftOut);
        fit.leftOutStats = s.all;
        fit.leftOutByFamily = s.families;
        summary.leaveOneFamilyOutMeanAbsError = s.all.meanAbsError;
    }
    fit.cancelled
        = foldEach(measurements, library, options, generationOf, generations, fit.generationLeftOut, step);
    if (!fit.generationLeftOut.empty()) {
        fit.leftOutByGeneration = summarize(fit.generationLeftOut).generations;
        for (const auto &[generation, stats] : fit.leftOutByGeneration)
            summary.leaveOneGenerationOutMeanAbsError[generation] = stats.meanAbsError;
    }
    fit.calibration.fit = summary;
    return fit;
}

} // namespace gapstudio::scenario
