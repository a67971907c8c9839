// Solving a calibration fit (calibration_problem.h): Levenberg-Marquardt (Eigen's unsupported
// NonLinearOptimization module, MINPACK's lmdif) over the problem's residuals, and the standard
// errors of the solution by the delta method. Eigen's solver is the costliest code of the fit to
// compile, so it lives here alone.
#include "calibration/calibration_problem.h"

#include <Eigen/Dense>
#include <unsupported/Eigen/NonLinearOptimization>
#include <unsupported/Eigen/NumericalDiff>

#include <algorithm>
#include <cmath>

namespace gapstudio::scenario::fit {

namespace {

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

} // namespace

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

void Problem::report(const Eigen::VectorXd &x, FitSummary &summary) const
{
    const Eigen::MatrixXd J = jacobian(x);
    Eigen::VectorXd r;
    residuals(x, r);
    const auto runs = static_cast<Eigen::Index>(mRuns.size());
    const double s2 = r.head(runs).squaredNorm() / std::max<double>(1.0, static_cast<double>(runs));
    const Eigen::MatrixXd rawCovariance
        = (J.transpose() * J).completeOrthogonalDecomposition().pseudoInverse() * s2;
    // A child's value is toValue(raw child + raw parent): d value = slope * (d child + d parent).
    const int n = parameters();
    Eigen::MatrixXd toValueSpace = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i) {
        const Parameter &p = mParams[static_cast<std::size_t>(i)];
        // A value the bounded fit holds at an end of its range is set by the bound, not the runs.
        const double s = mOptions.bounded && atBound(x, i) ? 0.0 : slope(p.kind, value(x, i));
        toValueSpace(i, i) = s;
        if (p.parent >= 0)
            toValueSpace(i, p.parent) = s;
    }
    const Eigen::MatrixXd covariance = toValueSpace * rawCovariance * toValueSpace.transpose();
    summary.parameters.clear();
    for (int i = 0; i < n; ++i) {
        const Parameter &p = mParams[static_cast<std::size_t>(i)];
        summary.parameters.push_back({ p.name, value(x, i), std::sqrt(std::max(0.0, covariance(i, i))),
                                       p.range.low, p.range.high, atBound(x, i) });
    }
    // Correlations to four decimals (enough for an interval, and a readable file), symmetric.
    summary.correlation.assign(static_cast<std::size_t>(n),
                               std::vector<double>(static_cast<std::size_t>(n), 1.0));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j) {
            const double scale = std::sqrt(std::max(0.0, covariance(i, i)) * std::max(0.0, covariance(j, j)));
            const double rho = scale > 0 ? std::clamp(covariance(i, j) / scale, -1.0, 1.0) : 0.0;
            const double rounded = std::round(rho * 1e4) / 1e4 + 0.0; // + 0.0: no "-0"
            summary.correlation[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = rounded;
            summary.correlation[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)] = rounded;
        }
}

Eigen::MatrixXd Problem::jacobian(const Eigen::VectorXd &x) const
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

} // namespace gapstudio::scenario::fit
