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

std::vector<FittedParameter> Problem::report(const Eigen::VectorXd &x) const
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
