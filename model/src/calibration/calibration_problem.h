#pragma once
// The least-squares problem of a calibration fit (calibrate.h): the runs, the parameters they
// bind, and the residuals log(predicted / measured) of every run plus one weak prior term per
// parameter. Parameters live in an unbounded space (logit for efficiencies, log for overheads;
// calibration_parameters.h); a bounded fit clamps their values to their documented ranges. The
// Levenberg-Marquardt solve and the standard errors are in calibration_solver.cpp, the fit and its
// folds in calibrate.cpp.

#include "gapstudio/scenario/calibrate.h"

#include "calibration/calibration_parameters.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace gapstudio::scenario::fit {

/// Where each quantity of one run comes from (indices into the parameter vector).
struct Binding {
    int gemm = -1, attention = -1, hbm = -1, halfDepth = -1;
    /// The 16-bit GEMM efficiency of the run's GPU: an FP8/FP4 run keeps its attention BMMs (and
    /// whatever its recipe leaves in BF16) in 16 bits, so its 16-bit GEMMs are fitted too.
    int gemm16 = -1;
    int compute = -1, overhead = -1, overlap = -1;
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

/// The least-squares problem of a fit: the runs, the parameters they bind (with their priors and
/// start values) and the residuals over them.
class Problem {
public:
    Problem(std::vector<Run> runs, const CalibrationFitOptions &options);

    [[nodiscard]] int parameters() const { return static_cast<int>(mParams.size()); }
    [[nodiscard]] int residuals() const { return static_cast<int>(mRuns.size() + mParams.size()); }
    [[nodiscard]] const std::vector<Run> &runs() const { return mRuns; }

    [[nodiscard]] Eigen::VectorXd start() const;

    /// Parameter `i` in the transformed space, its parent's raw value added.
    [[nodiscard]] double raw(const Eigen::VectorXd &x, int i) const;
    /// Value of parameter `i` (of raw()), clamped to its documented range in a bounded fit.
    [[nodiscard]] double value(const Eigen::VectorXd &x, int i) const;
    /// Whether parameter `i` is at or beyond an end of its range (within 0.1 % of the range).
    [[nodiscard]] bool atBound(const Eigen::VectorXd &x, int i) const;

    [[nodiscard]] double predict(const Run &run, const Eigen::VectorXd &x) const;

    void residuals(const Eigen::VectorXd &x, Eigen::VectorXd &out) const;

    /// The fitted preset (entries for the architectures, stacks and links the runs use).
    [[nodiscard]] CalibrationSet calibration(const Eigen::VectorXd &x) const;

    /// Every parameter's value and standard error, and their correlations, in value space (delta
    /// method on (J^T J)^-1 s^2; calibration_solver.cpp).
    void report(const Eigen::VectorXd &x, FitSummary &summary) const;
    /// The residuals' derivatives by central differences (calibration_solver.cpp).
    [[nodiscard]] Eigen::MatrixXd jacobian(const Eigen::VectorXd &x) const;

private:
    int add(const std::string &name, Kind kind, Range range, double prior, double sigma, int parent = -1,
            double startValue = -1);

    [[nodiscard]] bool has(const std::string &name) const;

    [[nodiscard]] int find(const std::string &name) const;

    /// The start calibration's value for one quantity, or -1.
    [[nodiscard]] model::Calibration startFor(const Run &run) const;

    void bind(Run &run);

    std::vector<Run> mRuns;
    const CalibrationFitOptions &mOptions;
    std::vector<Parameter> mParams;
    std::vector<double> mStart;
};

/// The parameters that minimise the problem's squared residuals (Levenberg-Marquardt from the
/// start values, at most `maxIterations` per parameter; calibration_solver.cpp).
[[nodiscard]] Eigen::VectorXd solve(const Problem &problem, int maxIterations);

} // namespace gapstudio::scenario::fit
