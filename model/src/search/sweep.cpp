// Sweeps and sensitivity (sweep.h). Every point is a plain evaluation of a changed design: the
// formulas stay in the model's evaluate().
#include "gapstudio/model/sweep.h"

#include "gapstudio/model/search_bounded.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace gapstudio::model {

namespace {

struct ParameterInfo {
    HardwareParameter parameter;
    const char *key;
    const char *label;
};

constexpr ParameterInfo kInfo[] = {
    {HardwareParameter::PeakFlops, "peak_flops", "Peak FLOPS"},
    {HardwareParameter::HbmBandwidth, "hbm_bandwidth", "HBM bandwidth"},
    {HardwareParameter::HbmCapacity, "hbm_capacity", "HBM capacity"},
    {HardwareParameter::ScaleUpBandwidth, "scale_up_bandwidth", "Scale-up bandwidth"},
    {HardwareParameter::ScaleOutBandwidth, "scale_out_bandwidth", "Scale-out bandwidth"},
    {HardwareParameter::NetworkLatency, "network_latency", "Network latency"},
    {HardwareParameter::ScaleUpDomainSize, "scale_up_domain_size", "Scale-up domain size"},
};

const ParameterInfo &info(HardwareParameter p) noexcept
{
    for (const ParameterInfo &i : kInfo)
        if (i.parameter == p)
            return i;
    return kInfo[0];
}

} // namespace

const char *parameterKey(HardwareParameter p) noexcept
{
    return info(p).key;
}

const char *parameterLabel(HardwareParameter p) noexcept
{
    return info(p).label;
}

std::optional<HardwareParameter> parameterFromKey(const std::string &key) noexcept
{
    for (const ParameterInfo &i : kInfo)
        if (key == i.key)
            return i.parameter;
    return std::nullopt;
}

double parameterValue(const Design &d, HardwareParameter p) noexcept
{
    const System &s = d.system;
    switch (p) {
    case HardwareParameter::PeakFlops: {
        const auto &engine = s.matrix[static_cast<std::size_t>(d.execution.datatype)];
        return engine ? engine->peak_flops : 0;
    }
    case HardwareParameter::HbmBandwidth:
        return s.mem1.bandwidth_Bps;
    case HardwareParameter::HbmCapacity:
        return s.mem1.capacity_B;
    case HardwareParameter::ScaleUpBandwidth:
        return s.networks.empty() ? 0 : s.networks.front().bandwidth_Bps;
    case HardwareParameter::ScaleOutBandwidth:
        return s.networks.empty() ? 0 : s.networks.back().bandwidth_Bps;
    case HardwareParameter::NetworkLatency:
        return s.networks.empty() ? 0 : s.networks.front().latency_s;
    case HardwareParameter::ScaleUpDomainSize:
        return s.networks.empty() ? 0 : static_cast<double>(s.networks.front().size);
    }
    return 0;
}

Design scaled(const Design &design, HardwareParameter p, double factor)
{
    Design d = design;
    System &s = d.system;
    switch (p) {
    case HardwareParameter::PeakFlops:
        for (auto *engines : {&s.matrix, &s.vector})
            for (auto &engine : *engines)
                if (engine)
                    engine->peak_flops *= factor;
        break;
    case HardwareParameter::HbmBandwidth:
        s.mem1.bandwidth_Bps *= factor;
        break;
    case HardwareParameter::HbmCapacity:
        s.mem1.capacity_B *= factor;
        break;
    case HardwareParameter::ScaleUpBandwidth:
        if (!s.networks.empty())
            s.networks.front().bandwidth_Bps *= factor;
        break;
    case HardwareParameter::ScaleOutBandwidth:
        if (!s.networks.empty())
            s.networks.back().bandwidth_Bps *= factor;
        break;
    case HardwareParameter::NetworkLatency:
        for (NetworkTier &n : s.networks)
            n.latency_s *= factor;
        break;
    case HardwareParameter::ScaleUpDomainSize:
        if (!s.networks.empty()) {
            NetworkTier &n = s.networks.front();
            // Rounded, and kept within the integers a reader accepts (2^53).
            const double size
                = std::clamp(std::round(static_cast<double>(n.size) * factor), 1.0, 9007199254740992.0);
            n.size = static_cast<std::int64_t>(size);
        }
        break;
    }
    return d;
}

std::vector<SweepPoint> sweepParameter(const Design &design, HardwareParameter p, const std::vector<double> &factors,
                                       const EvaluateOptions &options)
{
    std::vector<SweepPoint> points;
    for (double factor : factors) {
        const Design d = scaled(design, p, factor);
        SweepPoint point;
        point.x = parameterValue(d, p);
        point.evaluation = evaluate(d.application, d.execution, d.system, options);
        point.layout = d.execution;
        points.push_back(std::move(point));
    }
    return points;
}

std::vector<SweepPoint> sweepGpuCount(const Application &app, const System &sys, SearchSpace space,
                                      const std::vector<std::int64_t> &counts, const SearchOptions &options)
{
    std::vector<SweepPoint> points;
    SearchOptions best = options;
    best.topN = 1;
    const std::int64_t cp = space.base ? std::max<std::int64_t>(1, space.base->contextPar) : 1;
    for (std::int64_t n : counts) {
        SweepPoint point;
        point.x = static_cast<double>(n);
        if (n % cp != 0) {
            point.evaluation.diagnostics.push_back(
                { DiagnosticCode::NetworkTooSmall, "num_procs",
                  std::to_string(n) + " GPUs do not split into context_par " + std::to_string(cp) });
            points.push_back(std::move(point));
            continue;
        }
        space.numProcs = n / cp;
        const SearchResult result = searchLayoutsBounded(app, sys, space, best).search;
        if (!result.top.empty()) {
            point.evaluation.ok = true;
            point.evaluation.stats = result.top.front().stats;
            point.layout = result.top.front().execution;
        } else {
            point.evaluation.diagnostics.push_back(
                {DiagnosticCode::NetworkTooSmall, "num_procs",
                 "no valid layout for " + std::to_string(n) + " GPUs in the search space"});
        }
        points.push_back(std::move(point));
    }
    return points;
}

bool isFullFlat(const System &system) noexcept
{
    if (system.networks.size() < 2)
        return false;
    const NetworkTier &up = system.networks.front();
    return std::all_of(system.networks.begin() + 1, system.networks.end(), [&up](const NetworkTier &n) {
        return n.bandwidth_Bps >= up.bandwidth_Bps && n.efficiency >= up.efficiency;
    });
}

std::vector<SweepPoint> sweepVariants(const Design &design, const EvaluateOptions &options)
{
    std::vector<SweepPoint> points;
    const auto add = [&](const std::string &label, const Design &d) {
        SweepPoint point;
        point.label = label;
        point.evaluation = evaluate(d.application, d.execution, d.system, options);
        point.layout = d.execution;
        points.push_back(std::move(point));
    };
    add("as designed", design);
    // Hardware (in-network) against software (ring) collectives on every tier
    // (calculon-model.md §4.1; calculon-moe-model.md §5.1).
    Design hw = design;
    Design sw = design;
    for (NetworkTier &n : hw.system.networks) {
        n.reduceScatter = {1, 0, n.reduceScatter.efficiency};
        n.allGather = {1, 0, n.allGather.efficiency};
        n.allReduce = {1, 1, n.allReduce.efficiency};
    }
    for (NetworkTier &n : sw.system.networks) {
        n.reduceScatter = {1.5, -1, n.reduceScatter.efficiency};
        n.allGather = {1.5, -1, n.allGather.efficiency};
        n.allReduce = {2, -1, n.allReduce.efficiency};
    }
    add("hardware collectives", hw);
    add("software collectives", sw);
    // Two-tier against FullFlat (Tithi et al.): the same GPUs and layout with the scale-out tier at
    // the scale-up tier's bandwidth and efficiency (the paper's TwoTiered_HBD64 and Fullflat
    // systems differ only in that).
    if (design.system.networks.size() > 1) {
        Design flat = design;
        const NetworkTier &up = flat.system.networks.front();
        for (std::size_t i = 1; i < flat.system.networks.size(); ++i) {
            flat.system.networks[i].bandwidth_Bps = std::max(flat.system.networks[i].bandwidth_Bps, up.bandwidth_Bps);
            flat.system.networks[i].efficiency = std::max(flat.system.networks[i].efficiency, up.efficiency);
        }
        add("full-flat fabric", flat);
    }
    // Compute/communication overlap on and off.
    Design on = design;
    Design off = design;
    if (on.execution.tensorPar > 1)
        on.execution.tensorParOverlap = TpOverlap::Ring;
    on.execution.dataParOverlap = on.execution.dataPar > 1 && on.execution.training;
    off.execution.tensorParOverlap = TpOverlap::None;
    off.execution.dataParOverlap = false;
    add("overlap on", on);
    add("overlap off", off);
    // Every low-precision datatype the system has.
    for (Datatype type : {Datatype::Float16, Datatype::Float8, Datatype::Float4}) {
        const auto index = static_cast<std::size_t>(type);
        if (!design.system.matrix[index] || !design.system.vector[index])
            continue;
        Design d = design;
        d.execution.datatype = type;
        add(datatypeName(type), d);
    }
    return points;
}

std::vector<Elasticity> sensitivity(const Design &design, const EvaluateOptions &options, double step)
{
    // Jacobian J(i, j) = d ln(output_i) / d ln(parameter_j), by central differences in
    // log-space: (ln y(p (1+h)) - ln y(p (1-h))) / (ln(1+h) - ln(1-h)).
    constexpr int kOutputs = 2; // step time, MFU
    const auto parameters = std::size(kHardwareParameters);
    Eigen::MatrixXd jacobian = Eigen::MatrixXd::Zero(kOutputs, static_cast<Eigen::Index>(parameters));
    std::vector<bool> valid(parameters, true);
    std::vector<bool> moved(parameters, true);
    for (std::size_t j = 0; j < parameters; ++j) {
        const HardwareParameter p = kHardwareParameters[j];
        const Design up = scaled(design, p, 1 + step);
        const Design down = scaled(design, p, 1 - step);
        const double upParam = parameterValue(up, p), downParam = parameterValue(down, p);
        // A parameter the step cannot move (a domain of 8 GPUs: 8 * 1.01 rounds back to 8; a
        // latency of 0) has no measurable elasticity: flagged, never reported as 0.
        if (upParam == downParam) {
            valid[j] = false;
            moved[j] = false;
            continue;
        }
        const Evaluation a = evaluate(up.application, up.execution, up.system, options);
        const Evaluation b = evaluate(down.application, down.execution, down.system, options);
        if (!a.ok || !b.ok) { // e.g. a domain size the layout no longer fits
            valid[j] = false;
            continue;
        }
        const auto column = static_cast<Eigen::Index>(j);
        const double dlnp = std::log(upParam / downParam); // both > 0: every parameter is, or it did not move
        jacobian(0, column) = std::log(a.stats.total_time / b.stats.total_time) / dlnp;
        jacobian(1, column) = std::log(a.stats.total_efficiency / b.stats.total_efficiency) / dlnp;
    }
    std::vector<Elasticity> out;
    for (std::size_t j = 0; j < parameters; ++j) {
        const auto column = static_cast<Eigen::Index>(j);
        out.push_back(
            { kHardwareParameters[j], jacobian(0, column), jacobian(1, column), valid[j], moved[j] });
    }
    std::stable_sort(out.begin(), out.end(), [](const Elasticity &x, const Elasticity &y) {
        return std::fabs(x.stepTime) > std::fabs(y.stepTime);
    });
    return out;
}

} // namespace gapstudio::model
