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
/// Weight of one unit (transformed space) outside a parameter's documented range.
constexpr double kRangeWall = 10.0;

/// A parameter's plausible values, documented by microbenchmarks, datasheets or vendor figures
/// (the constants below; docs/references.md, "Calibration ranges"). The fit keeps each value
/// inside its range; a value held at an end is named by `calibrate`: the runs want more than
/// the documented mechanism gives, so a mechanism is missing from the model.
struct Range {
    double low = 0, high = 1;
};

struct Parameter {
    std::string name;
    Kind kind = Kind::Efficiency;
    Range range;
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

// Documented ranges (docs/references.md, "Calibration ranges"), in the units the calibration
// file stores (fractions; seconds; elements).
/// Large GEMMs' fraction of the dense datasheet peak: the maximum achievable matmul FLOPS at the
/// best shape is 0.71-0.87 on NVIDIA A100 to GB200 (BF16 and FP8) and 0.51 on MI300X; DeepGEMM's
/// FP8 reaches 0.78 on H800.
constexpr Range kGemmRange { 0.5, 0.9 };
/// Fused attention's fraction of the 16-bit peak: FlashAttention-2 backward 0.22-0.33 and forward
/// 0.35 on H100, forward 0.50-0.73 on A100; FlashAttention-3 0.75 forward on H100;
/// FlashAttention-4 0.71 forward on B200.
constexpr Range kAttentionRange { 0.2, 0.8 };
/// A memory-bound kernel's fraction of the datasheet HBM bandwidth: 0.80 (DeepGEMM's small-M FP8
/// GEMMs on H800) to 0.89 (a copy on an A800) and "up to 90 %"; B200's bus gives 7.67 of its
/// 8 TB/s at best. The low end leaves room below the 0.80 for unfused framework kernels.
constexpr Range kHbmRange { 0.6, 0.95 };
/// The K (elements) at which a GEMM reaches half its large-K efficiency: from a quarter of one
/// to sixteen of the 64-element K tiles of cuBLAS/CUTLASS kernels (a derived range, no
/// measurement).
constexpr Range kHalfDepthRange { 16, 1024 };
/// The software stack's multiplier on compute (kernels the model does not count, framework
/// time): NVIDIA's DeepSeek-V3 on GB200 steps from 494 to 970 TFLOPS per GPU (0.51) with fusions,
/// CUDA graphs and host-side work; torch.compile gains 1.16x over eager on Llama 3 8B.
constexpr Range kComputeRange { 0.5, 1.0 };
/// Host time per transformer block, microbatch and pass beyond the GPU's: 20-60 kernels at a CPU
/// launch time of 5-20 us each (HolisticTraceAnalysis) when nothing hides it.
constexpr Range kBlockOverheadRange { 0, 1.2e-3 };
/// Host time per framework operator in bare PyTorch operators (model::Calibration::hostOpScale)
/// 1, not fitted. The operator costs the microbenchmark's time on the GPU's host
/// (model::kDefaultHostOpTime_s, the GPU presets' host_op_us) times its software stack's
/// host_op_factor; the published runs are not asked for it.
constexpr double kBareHostOpScale = 1;
/// Fraction of overlappable communication hidden behind compute: overlapped compute runs 5-40 %
/// slower (Lee et al.); FLUX hides up to 96 %.
constexpr Range kOverlapRange { 0.5, 1.0 };
/// Collectives' bus bandwidth as a fraction of the link's: 0.76-0.84 for ring collectives on
/// NVLink, 0.93-1.07 for NVLink SHARP all-reduce, 0.73-0.96 on InfiniBand, RoCE and EFA
/// (nccl-tests).
constexpr Range kNetworkRange { 0.6, 1.0 };

} // namespace gapstudio::scenario::fit
