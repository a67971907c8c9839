#pragma once
// The parameters of a calibration fit (calibration_problem.h): how each lives in an unbounded space (logit
// for efficiencies, log for overheads), their priors, and the datatype classes GEMM efficiencies
// are fitted per.

#include "gapstudio/model/calculon_inputs.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace gapstudio::scenario::fit {

enum class Kind { Efficiency, Positive }; ///< logit or log transform

/// Weight of one prior standard deviation against one unit of log(predicted / measured): a
/// parameter one sigma from its prior costs as much as a run predicted 5 % off.
constexpr double kPriorWeight = 0.05;

struct Parameter {
    std::string name;
    Kind kind = Kind::Efficiency;
    double prior = 0.5; ///< centre, in value space (roots only; children centre on their parent)
    double sigma = 1;   ///< in the transformed space
    int parent = -1;    ///< hierarchical: the raw value adds the parent's
};

inline double toValue(Kind kind, double raw)
{
    return kind == Kind::Efficiency ? 1 / (1 + std::exp(-raw)) : std::exp(raw);
}

inline double toRaw(Kind kind, double value)
{
    if (kind == Kind::Efficiency) {
        const double v = std::clamp(value, 1e-6, 1 - 1e-9);
        return std::log(v / (1 - v));
    }
    return std::log(std::max(value, 1e-12));
}

/// d value / d raw (delta method for standard errors).
inline double slope(Kind kind, double value)
{
    return kind == Kind::Efficiency ? value * (1 - value) : value;
}

/// The names of fitted parameters (FitSummary::parameters), from the calibration entry whose
/// value they are: a GPU entry ("default", an architecture such as "hopper", or a GPU id), a
/// software stack or a network role, and the quantity ("hbm_efficiency", "gemm_efficiency/fp8").
inline std::string gpuParameter(const std::string &entry, const std::string &quantity)
{
    return (entry == "default" ? "gpus/default/" : entry + "/") + quantity;
}
inline std::string softwareParameter(const std::string &entry, const std::string &quantity)
{
    return "software/" + entry + "/" + quantity;
}
inline std::string networkParameter(const std::string &entry)
{
    return "network/" + entry + "/efficiency";
}
inline const char *const kHalfDepthParameter = "gemm_half_depth";

inline std::string dtClass(model::Datatype type)
{
    switch (type) {
    case model::Datatype::Float8:
        return "fp8";
    case model::Datatype::Float4:
        return "fp4";
    case model::Datatype::Float32:
        return "fp32";
    case model::Datatype::Float16:
    case model::Datatype::Bfloat16:
        break;
    }
    return "16-bit";
}

/// Prior centres of the GEMM efficiencies, from published kernel benchmarks on H100-class GPUs
/// (docs/references.md): large 16-bit GEMMs reach about 0.8 of the dense peak and FP8 GEMMs
/// about 0.75 (DeepGEMM: up to 1550 of 1979 TFLOPS). Used with a standard deviation of 0.5 in
/// logit space (roughly +/- 10 %): the runs move them, but an efficiency no run informs stays
/// real. Fused attention varies more between kernels and generations (FlashAttention-2 about 0.35
/// of an H100's 16-bit peak forward and less backward, FlashAttention-3 up to 0.75 forward): a
/// wider prior around 0.4.
inline double gemmPrior(model::Datatype type)
{
    switch (type) {
    case model::Datatype::Float8:
        return 0.75;
    case model::Datatype::Float4:
        return 0.7;
    case model::Datatype::Float32:
        return 0.8;
    case model::Datatype::Float16:
    case model::Datatype::Bfloat16:
        break;
    }
    return 0.8;
}
constexpr double kKernelPriorSigma = 0.5;
/// Spread of one GPU architecture's efficiencies around the default GPU's (logit space).
constexpr double kDeviationSigma = 0.5;
constexpr double kAttentionPrior = 0.45;
constexpr double kAttentionPriorSigma = 0.5;

} // namespace gapstudio::scenario::fit
