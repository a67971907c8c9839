#pragma once
/**
 * @file sweep.h
 * Design-space sweeps and sensitivity: one hardware parameter at a time (the paper's
 * sensitivity axes), GPU count with the best layout at each point, variants (hardware versus
 * software collectives, overlap on/off, datatype), and the elasticity of step time and MFU with
 * respect to every hardware parameter (a Jacobian of log-derivatives, by central differences).
 */

#include "gapstudio/model/evaluate.h"
#include "gapstudio/model/search.h"

#include <optional>
#include <string>
#include <vector>

namespace gapstudio::model {

/// One design: the model's three inputs.
struct Design {
    Application application;
    Execution execution;
    System system;
};

/// The hardware parameters a designer sweeps (network tier 0 = scale-up, the last tier =
/// scale-out).
enum class HardwareParameter {
    PeakFlops,         ///< matrix and vector peak of every datatype
    HbmBandwidth,
    HbmCapacity,
    ScaleUpBandwidth,
    ScaleOutBandwidth,
    NetworkLatency,    ///< every tier's latency
    ScaleUpDomainSize, ///< tier 0 size (GPUs per domain)
};
inline constexpr HardwareParameter kHardwareParameters[] = {
    HardwareParameter::PeakFlops,        HardwareParameter::HbmBandwidth,     HardwareParameter::HbmCapacity,
    HardwareParameter::ScaleUpBandwidth, HardwareParameter::ScaleOutBandwidth, HardwareParameter::NetworkLatency,
    HardwareParameter::ScaleUpDomainSize};

[[nodiscard]] const char *parameterKey(HardwareParameter p) noexcept;   ///< "peak_flops", ...
[[nodiscard]] const char *parameterLabel(HardwareParameter p) noexcept; ///< "Peak FLOPS", ...
[[nodiscard]] std::optional<HardwareParameter> parameterFromKey(const std::string &key) noexcept;

/// The parameter's current value in SI units (flop/s of the execution's datatype, B/s, B, s,
/// GPUs).
[[nodiscard]] double parameterValue(const Design &design, HardwareParameter p) noexcept;
/// A copy of `design` with the parameter multiplied by `factor` (the domain size rounded).
[[nodiscard]] Design scaled(const Design &design, HardwareParameter p, double factor);

struct SweepPoint {
    double x = 0;                    ///< the swept value (SI units or GPU count)
    std::string label;               ///< variant name for categorical sweeps
    Evaluation evaluation;           ///< ok == false: see its diagnostics
    std::optional<Execution> layout; ///< the layout evaluated (the best one in GPU-count sweeps)
};

/// Evaluates `design` with the parameter scaled by each factor.
[[nodiscard]] std::vector<SweepPoint> sweepParameter(const Design &design, HardwareParameter p,
                                                     const std::vector<double> &factors,
                                                     const EvaluateOptions &options = {});

/// Throughput against GPU count: at each count the best layout of the search space. A count is
/// every GPU of the point: with a base execution's context parallelism CP the search lays out
/// count / CP of them, and a count that CP does not divide has no layout.
[[nodiscard]] std::vector<SweepPoint> sweepGpuCount(const Application &app, const System &sys,
                                                    SearchSpace space, const std::vector<std::int64_t> &counts,
                                                    const SearchOptions &options);

/// Whether `system` is already a full-flat fabric (Tithi et al.): it has tiers beyond the scale-up
/// one, each at least the scale-up tier's bandwidth and efficiency. sweepVariants' "full-flat
/// fabric" variant of such a system is the system itself.
[[nodiscard]] bool isFullFlat(const System &system) noexcept;

/// Categorical variants of one design: hardware versus software collectives (in-network
/// [1,0]/[1,1] against ring [1.5,-1]/[2,-1] scalars on every tier), a full-flat fabric (every
/// tier at the scale-up bandwidth, next to the two-tier "as designed"), compute/communication
/// overlap on and off, and each datatype the system has.
[[nodiscard]] std::vector<SweepPoint> sweepVariants(const Design &design, const EvaluateOptions &options = {});

/// d ln(output) / d ln(parameter) for step time and MFU.
struct Elasticity {
    HardwareParameter parameter;
    double stepTime = 0; ///< e.g. -0.6: 1% more of the parameter, 0.6% shorter step
    double mfu = 0;
    bool valid = true; ///< false if a perturbed design was infeasible, or the parameter did not move
    bool moved = true; ///< false if +-step left the parameter as it was (an integer that rounds
                       ///< back, e.g. a scale-up domain of 8): no elasticity can be measured
};

/// Elasticities of every hardware parameter around the design, sorted by |stepTime|
/// (a tornado: what buys the most first). Central differences of relative step `step`. A
/// parameter the step cannot move is flagged (valid and moved false), never reported as 0.
[[nodiscard]] std::vector<Elasticity> sensitivity(const Design &design, const EvaluateOptions &options = {},
                                                  double step = 0.01);

} // namespace gapstudio::model
