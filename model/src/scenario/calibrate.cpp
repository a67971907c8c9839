// Calibration by nonlinear least squares (calibrate.h). The residuals are log(predicted /
// measured) of every run plus one weak prior term per parameter; Levenberg-Marquardt (Eigen's
// unsupported NonLinearOptimization module, MINPACK's lmdif) minimises their squares. Parameters
// live in an unbounded space (logit for efficiencies, log for overheads) so every value stays
// physical. Software stacks are deviations from the "default" stack (a hierarchical prior), so
// a stack without runs, or a new one, uses the default's values.
#include "gapstudio/scenario/calibrate.h"
#include "gapstudio/scenario/run_filter.h"

#include "scenario/calibration_lookup.h"
#include "scenario/calibration_parameters.h"

#include "gapstudio/model/evaluate.h"

#include <Eigen/Dense>
#include <unsupported/Eigen/NonLinearOptimization>
#include <unsupported/Eigen/NumericalDiff>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <stdexcept>

namespace gapstudio::scenario {

namespace {

using namespace fit;

/// Where each quantity of one run comes from (indices into the parameter vector).
struct Binding {
    int gemm = -1, attention = -1, hbm = -1, halfDepth = -1;
    /// The 16-bit GEMM efficiency of the run's GPU: an FP8/FP4 run keeps its attention BMMs (and
    /// whatever its recipe leaves in BF16) in 16 bits, so its 16-bit GEMMs are fitted too.
    int gemm16 = -1;
    int compute = -1, overhead = -1, moeOverhead = -1, overlap = -1;
    int scaleUp = -1, scaleOut = -1;
    model::Datatype gemmType = model::Datatype::Bfloat16;
    std::string gpuKey, softwareKey;
};

/// One run ready to evaluate many times.
struct Run {
    CompiledScenario compiled;
    double measured = 0;
    std::string family;
    Binding binding;
};

class Problem {
public:
    Problem(std::vector<Run> runs, const CalibrationFitOptions &options) : mRuns(std::move(runs)), mOptions(options)
    {
        for (Run &run : mRuns)
            bind(run);
    }

    [[nodiscard]] int parameters() const { return static_cast<int>(mParams.size()); }
    [[nodiscard]] int residuals() const { return static_cast<int>(mRuns.size() + mParams.size()); }
    [[nodiscard]] const std::vector<Run> &runs() const { return mRuns; }

    [[nodiscard]] Eigen::VectorXd start() const
    {
        Eigen::VectorXd x(parameters());
        for (int i = 0; i < parameters(); ++i)
            x[i] = mStart[static_cast<std::size_t>(i)];
        return x;
    }

    /// Value of parameter `i` (its parent's raw value added).
    [[nodiscard]] double value(const Eigen::VectorXd &x, int i) const
    {
        const Parameter &p = mParams[static_cast<std::size_t>(i)];
        return toValue(p.kind, x[i] + (p.parent >= 0 ? x[p.parent] : 0));
    }

    [[nodiscard]] double predict(const Run &run, const Eigen::VectorXd &x) const
    {
        const Binding &b = run.binding;
        model::EvaluateOptions options = run.compiled.evaluateOptions(false, false);
        model::Calibration &c = options.calibration;
        c.gemmEfficiency[static_cast<std::size_t>(b.gemmType)] = value(x, b.gemm);
        for (const model::Datatype sixteen : { model::Datatype::Bfloat16, model::Datatype::Float16 })
            c.gemmEfficiency[static_cast<std::size_t>(sixteen)] = value(x, b.gemm16);
        c.attentionEfficiency = value(x, b.attention);
        c.hbmEfficiency = value(x, b.hbm);
        c.gemmHalfDepth = value(x, b.halfDepth);
        c.computeEfficiency = value(x, b.compute);
        c.blockOverhead_s = value(x, b.overhead);
        c.moeBlockOverhead_s = b.moeOverhead >= 0 ? value(x, b.moeOverhead) : 0;
        c.overlapEfficiency = value(x, b.overlap);
        model::System system = run.compiled.system;
        for (std::size_t t = 0; t < system.networks.size(); ++t)
            system.networks[t].efficiency = value(x, t == 0 ? b.scaleUp : b.scaleOut);
        const model::Evaluation e
            = model::evaluate(run.compiled.application, run.compiled.execution, system, options);
        return e.stats.total_time;
    }

    void residuals(const Eigen::VectorXd &x, Eigen::VectorXd &out) const
    {
        out.resize(residuals());
        for (std::size_t r = 0; r < mRuns.size(); ++r) {
            const double predicted = predict(mRuns[r], x);
            out[static_cast<Eigen::Index>(r)]
                = std::isfinite(predicted) && predicted > 0 ? std::log(predicted / mRuns[r].measured) : 10.0;
        }
        for (int i = 0; i < parameters(); ++i) {
            const Parameter &p = mParams[static_cast<std::size_t>(i)];
            const double centre = p.parent >= 0 ? 0 : toRaw(p.kind, p.prior);
            out[static_cast<Eigen::Index>(mRuns.size()) + i] = kPriorWeight * (x[i] - centre) / p.sigma;
        }
    }

    /// The fitted preset (entries for the architectures, stacks and links the runs use).
    [[nodiscard]] CalibrationSet calibration(const Eigen::VectorXd &x) const
    {
        CalibrationSet set;
        set.info.id = mOptions.id;
        set.info.name = mOptions.name;
        set.gemmHalfDepth = value(x, find("gemm_half_depth"));
        for (const Run &run : mRuns) {
            const Binding &b = run.binding;
            GpuCalibration &gpu = set.gpus[b.gpuKey];
            gpu.gemmEfficiency[static_cast<std::size_t>(b.gemmType)] = value(x, b.gemm);
            const double gemm16 = value(x, b.gemm16);
            gpu.gemmEfficiency[static_cast<std::size_t>(model::Datatype::Bfloat16)] = gemm16;
            gpu.gemmEfficiency[static_cast<std::size_t>(model::Datatype::Float16)] = gemm16;
            gpu.attentionEfficiency = value(x, b.attention);
            gpu.hbmEfficiency = value(x, b.hbm);
            SoftwareCalibration &software = set.software[b.softwareKey];
            software.computeEfficiency = value(x, b.compute);
            software.blockOverhead_s = value(x, b.overhead);
            if (b.moeOverhead >= 0)
                software.moeBlockOverhead_s = value(x, b.moeOverhead);
        }
        GpuCalibration &anyGpu = set.gpus["default"];
        for (std::size_t t = 0; t < model::kDatatypeCount; ++t) {
            const auto type = static_cast<model::Datatype>(t);
            const std::string name = "gpus/default/gemm_efficiency/" + dtClass(type);
            if (has(name))
                anyGpu.gemmEfficiency[t] = value(x, find(name));
        }
        anyGpu.attentionEfficiency = value(x, find("gpus/default/attention_efficiency"));
        anyGpu.hbmEfficiency = value(x, find("gpus/default/hbm_efficiency"));
        SoftwareCalibration &fallback = set.software["default"];
        fallback.computeEfficiency = value(x, find("software/default/compute_efficiency"));
        fallback.blockOverhead_s = value(x, find("software/default/block_overhead"));
        fallback.moeBlockOverhead_s = value(x, find("software/default/moe_block_overhead"));
        fallback.overlapEfficiency = value(x, find("software/default/overlap_efficiency"));
        set.networks["scale_up"].efficiency = value(x, find("network/scale_up/efficiency"));
        set.networks["scale_out"].efficiency = value(x, find("network/scale_out/efficiency"));
        return set;
    }

    /// Every parameter's value and standard error (delta method on (J^T J)^-1 s^2).
    [[nodiscard]] std::vector<FittedParameter> report(const Eigen::VectorXd &x) const
    {
        const Eigen::MatrixXd J = jacobian(x);
        Eigen::VectorXd r;
        residuals(x, r);
        const auto runs = static_cast<Eigen::Index>(mRuns.size());
        const double s2 = r.head(runs).squaredNorm() / std::max<double>(1.0, static_cast<double>(runs));
        const Eigen::MatrixXd covariance
            = (J.transpose() * J).completeOrthogonalDecomposition().pseudoInverse() * s2;
        std::vector<FittedParameter> out;
        for (int i = 0; i < parameters(); ++i) {
            const Parameter &p = mParams[static_cast<std::size_t>(i)];
            double variance = covariance(i, i);
            if (p.parent >= 0)
                variance += covariance(p.parent, p.parent) + 2 * covariance(i, p.parent);
            const double v = value(x, i);
            out.push_back({ p.name, v, slope(p.kind, v) * std::sqrt(std::max(0.0, variance)) });
        }
        return out;
    }

    [[nodiscard]] Eigen::MatrixXd jacobian(const Eigen::VectorXd &x) const
    {
        Eigen::MatrixXd J(residuals(), parameters());
        Eigen::VectorXd plus;
        Eigen::VectorXd minus;
        for (int i = 0; i < parameters(); ++i) {
            constexpr double h = 1e-4;
            Eigen::VectorXd xp = x;
            Eigen::VectorXd xm = x;
            xp[i] += h;
            xm[i] -= h;
            residuals(xp, plus);
            residuals(xm, minus);
            J.col(i) = (plus - minus) / (2 * h);
        }
        return J;
    }

private:
    int add(const std::string &name, Kind kind, double prior, double sigma, int parent = -1, double startValue = -1)
    {
        for (std::size_t i = 0; i < mParams.size(); ++i)
            if (mParams[i].name == name)
                return static_cast<int>(i);
        mParams.push_back({ name, kind, prior, sigma, parent });
        double raw = toRaw(kind, startValue > 0 ? startValue : prior);
        if (parent >= 0)
            raw -= mStart[static_cast<std::size_t>(parent)];
        mStart.push_back(raw);
        return static_cast<int>(mParams.size()) - 1;
    }

    [[nodiscard]] bool has(const std::string &name) const
    {
        return std::any_of(mParams.begin(), mParams.end(), [&](const Parameter &p) { return p.name == name; });
    }

    [[nodiscard]] int find(const std::string &name) const
    {
        for (std::size_t i = 0; i < mParams.size(); ++i)
            if (mParams[i].name == name)
                return static_cast<int>(i);
        throw std::logic_error("calibration parameter " + name + " was not registered");
    }

    /// The start calibration's value for one quantity, or -1.
    [[nodiscard]] model::Calibration startFor(const Run &run) const
    {
        const ResolvedScenario &r = run.compiled.resolved;
        return lookupCalibration(mOptions.start, r.gpu, r.software);
    }

    void bind(Run &run)
    {
        const ResolvedScenario &r = run.compiled.resolved;
        const model::Calibration s = startFor(run);
        const bool haveStart = mOptions.start != nullptr;
        const auto start = [&](double v) { return haveStart ? v : -1.0; };
        Binding &b = run.binding;
        b.gpuKey
            = !mOptions.gpu.empty() && r.gpu.info.id == mOptions.gpu ? mOptions.gpu : gpuGeneration(r.gpu);
        b.softwareKey = mOptions.software.empty() ? r.software.info.id : mOptions.software;
        const model::EvaluateOptions options = run.compiled.evaluateOptions();
        // The GEMMs' datatype: the low-precision one of an FP8/FP4 run, else the run's.
        b.gemmType = run.compiled.execution.datatype;
        const auto gemmIndex = static_cast<std::size_t>(b.gemmType);
        // GPU architectures are deviations from a "default" GPU, which a GPU without runs (another
        // vendor, a projected part) falls back to.
        const std::string dt = dtClass(b.gemmType);
        const int gemmDefault = add("gpus/default/gemm_efficiency/" + dt, Kind::Efficiency, gemmPrior(b.gemmType),
                                    kKernelPriorSigma);
        const int attentionDefault
            = add("gpus/default/attention_efficiency", Kind::Efficiency, kAttentionPrior, kAttentionPriorSigma);
        const int hbmDefault = add("gpus/default/hbm_efficiency", Kind::Efficiency, 0.8, 1.0);
        b.gemm = add(b.gpuKey + "/gemm_efficiency/" + dt, Kind::Efficiency, 0, kDeviationSigma, gemmDefault,
                     start(s.gemmEfficiency[gemmIndex]));
        b.gemm16 = b.gemm;
        if (dt != "16-bit") {
            constexpr auto bf16 = model::Datatype::Bfloat16;
            const int default16 = add("gpus/default/gemm_efficiency/16-bit", Kind::Efficiency, gemmPrior(bf16),
                                      kKernelPriorSigma);
            b.gemm16 = add(b.gpuKey + "/gemm_efficiency/16-bit", Kind::Efficiency, 0, kDeviationSigma, default16,
                           start(s.gemmEfficiency[static_cast<std::size_t>(bf16)]));
        }
        b.attention = add(b.gpuKey + "/attention_efficiency", Kind::Efficiency, 0, kDeviationSigma, attentionDefault,
                          start(s.attentionEfficiency));
        b.hbm = add(b.gpuKey + "/hbm_efficiency", Kind::Efficiency, 0, kDeviationSigma, hbmDefault, start(s.hbmEfficiency));
        b.halfDepth = add("gemm_half_depth", Kind::Positive, 128, 1.0, -1, start(s.gemmHalfDepth));
        const int compute = add("software/default/compute_efficiency", Kind::Efficiency, 0.9, 1.0);
        const int overhead = add("software/default/block_overhead", Kind::Positive, 30e-6, 1.5);
        const int moe = add("software/default/moe_block_overhead", Kind::Positive, 300e-6, 1.5);
        b.overlap = add("software/default/overlap_efficiency", Kind::Efficiency, 0.8, 1.0, -1, start(s.overlapEfficiency));
        const std::string stack = "software/" + b.softwareKey + "/";
        b.compute = add(stack + "compute_efficiency", Kind::Efficiency, 0, 0.5, compute, start(s.computeEfficiency));
        b.overhead = add(stack + "block_overhead", Kind::Positive, 0, 1.0, overhead, start(s.blockOverhead_s));
        if (run.compiled.execution.modelMoE)
            b.moeOverhead = add(stack + "moe_block_overhead", Kind::Positive, 0, 1.0, moe, start(s.moeBlockOverhead_s));
        b.scaleUp = add("network/scale_up/efficiency", Kind::Efficiency, 0.8, 0.7);
        b.scaleOut = add("network/scale_out/efficiency", Kind::Efficiency, 0.8, 0.7);
        (void)options;
    }

    std::vector<Run> mRuns;
    const CalibrationFitOptions &mOptions;
    std::vector<Parameter> mParams;
    std::vector<double> mStart;
};

/// Eigen's Levenberg-Marquardt functor over the problem's residuals.
struct Functor {
    using Scalar = double;
    enum { InputsAtCompileTime = Eigen::Dynamic, ValuesAtCompileTime = Eigen::Dynamic };
    using InputType = Eigen::VectorXd;
    using ValueType = Eigen::VectorXd;
    using JacobianType = Eigen::MatrixXd;
    const Problem *problem = nullptr;
    [[nodiscard]] int inputs() const { return problem->parameters(); }
    [[nodiscard]] int values() const { return problem->residuals(); }
    int operator()(const Eigen::VectorXd &x, Eigen::VectorXd &f) const
    {
        problem->residuals(x, f);
        return 0;
    }
};

Eigen::VectorXd solve(const Problem &problem, int maxIterations)
{
    Functor functor;
    functor.problem = &problem;
    Eigen::NumericalDiff<Functor> numeric(functor);
    Eigen::LevenbergMarquardt<Eigen::NumericalDiff<Functor>> lm(numeric);
    lm.parameters.maxfev = maxIterations * (problem.parameters() + 1);
    lm.parameters.xtol = 1e-8;
    lm.parameters.ftol = 1e-10;
    Eigen::VectorXd x = problem.start();
    lm.minimize(x);
    return x;
}

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
    summary.parameters = problem.report(x);
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
