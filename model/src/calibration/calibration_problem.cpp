// The least-squares problem of a calibration fit (calibration_problem.h): how each run binds the
// parameters, their priors, the residuals, and the calibration preset a solution gives. Software
// stacks are deviations from the "default" stack (a hierarchical prior), so a stack without runs,
// or a new one, uses the default's values.
#include "calibration/calibration_problem.h"

#include "calibration/calibration_lookup.h"

#include "gapstudio/scenario/run_filter.h"

#include "gapstudio/model/evaluate.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gapstudio::scenario::fit {

Problem::Problem(std::vector<Run> runs, const CalibrationFitOptions &options)
    : mRuns(std::move(runs))
    , mOptions(options)
{
    for (Run &run : mRuns)
        bind(run);
}

Eigen::VectorXd Problem::start() const
{
    Eigen::VectorXd x(parameters());
    for (int i = 0; i < parameters(); ++i)
        x[i] = mStart[static_cast<std::size_t>(i)];
    return x;
}

double Problem::raw(const Eigen::VectorXd &x, int i) const
{
    const int parent = mParams[static_cast<std::size_t>(i)].parent;
    return x[i] + (parent >= 0 ? x[parent] : 0);
}

double Problem::value(const Eigen::VectorXd &x, int i) const
{
    const Parameter &p = mParams[static_cast<std::size_t>(i)];
    const double v = toValue(p.kind, raw(x, i));
    return mOptions.bounded ? std::clamp(v, p.range.low, p.range.high) : v;
}

bool Problem::atBound(const Eigen::VectorXd &x, int i) const
{
    const Parameter &p = mParams[static_cast<std::size_t>(i)];
    const double v = toValue(p.kind, raw(x, i));
    const double margin = 1e-3 * (p.range.high - p.range.low);
    return v <= p.range.low + margin || v >= p.range.high - margin;
}

double Problem::predict(const Run &run, const Eigen::VectorXd &x) const
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
    c.hostOpScale = kBareHostOpScale;
    c.moeBlockOverhead_s = 0; // a start file's fitted overhead per MoE block stands for the same time
    c.overlapEfficiency = value(x, b.overlap);
    model::System system = run.compiled.system;
    for (std::size_t t = 0; t < system.networks.size(); ++t)
        system.networks[t].efficiency = value(x, t == 0 ? b.scaleUp : b.scaleOut);
    const model::Evaluation e
        = model::evaluate(run.compiled.application, run.compiled.execution, system, options);
    return e.stats.total_time;
}

void Problem::residuals(const Eigen::VectorXd &x, Eigen::VectorXd &out) const
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
        double wall = 0;
        if (mOptions.bounded) {
            // A steep wall outside the documented range, so that a parameter held at an end stays
            // there instead of drifting where its clamped value no longer moves the runs (and a
            // parent's drift would drag its children along).
            const double r = raw(x, i);
            wall = kRangeWall
                   * std::max({ 0.0, toRaw(p.kind, p.range.low) - r, r - toRaw(p.kind, p.range.high) });
        }
        out[static_cast<Eigen::Index>(mRuns.size()) + i] = kPriorWeight * (x[i] - centre) / p.sigma + wall;
    }
}

CalibrationSet Problem::calibration(const Eigen::VectorXd &x) const
{
    CalibrationSet set;
    set.info.id = mOptions.id;
    set.info.name = mOptions.name;
    set.gemmHalfDepth = value(x, find(kHalfDepthParameter));
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
    }
    GpuCalibration &anyGpu = set.gpus["default"];
    for (std::size_t t = 0; t < model::kDatatypeCount; ++t) {
        const auto type = static_cast<model::Datatype>(t);
        const std::string name = gpuParameter("default", "gemm_efficiency/" + dtClass(type));
        if (has(name))
            anyGpu.gemmEfficiency[t] = value(x, find(name));
    }
    anyGpu.attentionEfficiency = value(x, find(gpuParameter("default", "attention_efficiency")));
    anyGpu.hbmEfficiency = value(x, find(gpuParameter("default", "hbm_efficiency")));
    SoftwareCalibration &fallback = set.software["default"];
    fallback.computeEfficiency = value(x, find(softwareParameter("default", "compute_efficiency")));
    fallback.blockOverhead_s = value(x, find(softwareParameter("default", "block_overhead")));
    fallback.hostOpScale = kBareHostOpScale;
    fallback.overlapEfficiency = value(x, find(softwareParameter("default", "overlap_efficiency")));
    set.networks["scale_up"].efficiency = value(x, find(networkParameter("scale_up")));
    set.networks["scale_out"].efficiency = value(x, find(networkParameter("scale_out")));
    return set;
}

int Problem::add(const std::string &name, Kind kind, Range range, double prior, double sigma, int parent,
                 double startValue)
{
    for (std::size_t i = 0; i < mParams.size(); ++i)
        if (mParams[i].name == name)
            return static_cast<int>(i);
    mParams.push_back({ name, kind, range, prior, sigma, parent });
    // Where the bounded fit starts: a start value outside the range (a calibration fitted without
    // the ranges) at the range's end, and a child without a start value at its prior, no
    // deviation from its parent. The unbounded fit starts from the values as given, and a child
    // without one from the transform of its prior's centre, 0, that is at its floor (about 1e-6
    // for an efficiency): the start the shipped calibration was fitted from, kept so that a refit
    // reproduces it.
    double raw = 0;
    if (!mOptions.bounded)
        raw = toRaw(kind, startValue > 0 ? startValue : prior)
              - (parent >= 0 ? mStart[static_cast<std::size_t>(parent)] : 0);
    else if (startValue > 0)
        raw = toRaw(kind, std::clamp(startValue, range.low, range.high))
              - (parent >= 0 ? mStart[static_cast<std::size_t>(parent)] : 0);
    else if (parent < 0)
        raw = toRaw(kind, prior);
    mStart.push_back(raw);
    return static_cast<int>(mParams.size()) - 1;
}

bool Problem::has(const std::string &name) const
{
    return std::any_of(mParams.begin(), mParams.end(), [&](const Parameter &p) { return p.name == name; });
}

int Problem::find(const std::string &name) const
{
    for (std::size_t i = 0; i < mParams.size(); ++i)
        if (mParams[i].name == name)
            return static_cast<int>(i);
    throw std::logic_error("calibration parameter " + name + " was not registered");
}

model::Calibration Problem::startFor(const Run &run) const
{
    const ResolvedScenario &r = run.compiled.resolved;
    return lookupCalibration(mOptions.start, r.gpu, r.software);
}

void Problem::bind(Run &run)
{
    const ResolvedScenario &r = run.compiled.resolved;
    const model::Calibration s = startFor(run);
    const bool haveStart = mOptions.start != nullptr;
    const auto start = [&](double v) { return haveStart ? v : -1.0; };
    Binding &b = run.binding;
    b.gpuKey = !mOptions.gpu.empty() && r.gpu.info.id == mOptions.gpu ? mOptions.gpu : gpuGeneration(r.gpu);
    b.softwareKey = mOptions.software.empty() ? r.software.info.id : mOptions.software;
    const model::EvaluateOptions options = run.compiled.evaluateOptions();
    // The GEMMs' datatype: the low-precision one of an FP8/FP4 run, else the run's.
    b.gemmType = run.compiled.execution.datatype;
    const auto gemmIndex = static_cast<std::size_t>(b.gemmType);
    // GPU architectures are deviations from a "default" GPU, which a GPU without runs (another
    // vendor, a projected part) falls back to.
    const std::string dt = dtClass(b.gemmType);
    const int gemmDefault = add(gpuParameter("default", "gemm_efficiency/" + dt), Kind::Efficiency,
                                kGemmRange, gemmPrior(b.gemmType), kKernelPriorSigma);
    const int attentionDefault = add(gpuParameter("default", "attention_efficiency"), Kind::Efficiency,
                                     kAttentionRange, kAttentionPrior, kAttentionPriorSigma);
    const int hbmDefault
        = add(gpuParameter("default", "hbm_efficiency"), Kind::Efficiency, kHbmRange, 0.8, 1.0);
    b.gemm = add(gpuParameter(b.gpuKey, "gemm_efficiency/" + dt), Kind::Efficiency, kGemmRange, 0,
                 kDeviationSigma, gemmDefault, start(s.gemmEfficiency[gemmIndex]));
    b.gemm16 = b.gemm;
    if (dt != "16-bit") {
        constexpr auto bf16 = model::Datatype::Bfloat16;
        const int default16 = add(gpuParameter("default", "gemm_efficiency/16-bit"), Kind::Efficiency,
                                  kGemmRange, gemmPrior(bf16), kKernelPriorSigma);
        b.gemm16 = add(gpuParameter(b.gpuKey, "gemm_efficiency/16-bit"), Kind::Efficiency, kGemmRange, 0,
                       kDeviationSigma, default16, start(s.gemmEfficiency[static_cast<std::size_t>(bf16)]));
    }
    b.attention = add(gpuParameter(b.gpuKey, "attention_efficiency"), Kind::Efficiency, kAttentionRange, 0,
                      kDeviationSigma, attentionDefault, start(s.attentionEfficiency));
    b.hbm = add(gpuParameter(b.gpuKey, "hbm_efficiency"), Kind::Efficiency, kHbmRange, 0, kDeviationSigma,
                hbmDefault, start(s.hbmEfficiency));
    b.halfDepth
        = add(kHalfDepthParameter, Kind::Positive, kHalfDepthRange, 128, 1.0, -1, start(s.gemmHalfDepth));
    const int compute
        = add(softwareParameter("default", "compute_efficiency"), Kind::Efficiency, kComputeRange, 0.9, 1.0);
    const int overhead = add(softwareParameter("default", "block_overhead"), Kind::Positive,
                             kBlockOverheadRange, 30e-6, 1.5);
    // The MoE blocks' host time is not fitted: their operators cost the documented time
    // (kBareHostOpScale, engine/host_ops.h).
    b.overlap = add(softwareParameter("default", "overlap_efficiency"), Kind::Efficiency, kOverlapRange, 0.8,
                    1.0, -1, start(s.overlapEfficiency));
    b.compute = add(softwareParameter(b.softwareKey, "compute_efficiency"), Kind::Efficiency, kComputeRange,
                    0, 0.5, compute, start(s.computeEfficiency));
    b.overhead = add(softwareParameter(b.softwareKey, "block_overhead"), Kind::Positive, kBlockOverheadRange,
                     0, 1.0, overhead, start(s.blockOverhead_s));
    b.scaleUp = add(networkParameter("scale_up"), Kind::Efficiency, kNetworkRange, 0.8, 0.7);
    b.scaleOut = add(networkParameter("scale_out"), Kind::Efficiency, kNetworkRange, 0.8, 0.7);
    (void)options;
}

} // namespace gapstudio::scenario::fit
