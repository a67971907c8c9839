#pragma once
/**
 * @file limits.h
 * The ranges every number of the model's inputs must lie in, in SI units: one table for the
 * readers of Calculon files and presets, the scenario overrides, the CLI's sweep factors, and
 * checkConfiguration() (designs built in code: sweeps, the studio's sliders). The bounds lie far
 * beyond any real hardware (a GPU of 1e9 TFLOPS, a link of 1e9 GB/s) and exist so that every
 * product the model forms stays finite and non-negative in a double; a value outside them is
 * malformed input, reported with the range, never a NaN or a negative step time.
 */

#include "gapstudio/model/units.h"
#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/diagnostics.h"

#include <string>

namespace gapstudio::model {

/// An interval of allowed values; NaN is never inside.
struct Range {
    double low;
    bool lowIncluded;
    double high;
    bool highIncluded;

    [[nodiscard]] constexpr bool contains(double value) const noexcept
    {
        return (lowIncluded ? value >= low : value > low) && (highIncluded ? value <= high : value < high);
    }
    /// The same interval in a unit `unit` SI units large (e.g. 1e9 for GB/s).
    [[nodiscard]] constexpr Range in(double unit) const noexcept
    {
        return { low / unit, lowIncluded, high / unit, highIncluded };
    }
    /// "(0, 1e+09]" for messages.
    [[nodiscard]] std::string text() const;
};

namespace limits {

inline constexpr double kGiB = units::kBytesPerGiB;

/// Peak flop/s of one engine and datatype; 0 means the engine lacks the datatype (calculon-MoE
/// systems write float4 that way). At most 1e9 TFLOPS.
inline constexpr Range kPeakFlops { 0, true, 1e21, true };
/// A fraction of peak (compute, memory, network efficiency). Not 0: time = work / (peak * eff).
inline constexpr Range kEfficiency { 1e-6, true, 1, true };
/// HBM and network bandwidth in B/s (at most 1e9 GB/s); 0 would make every transfer infinite.
inline constexpr Range kBandwidth { 0, false, 1e18, true };
/// Tier-2 (offload) memory bandwidth: 0 is allowed when nothing is offloaded.
inline constexpr Range kOptionalBandwidth { 0, true, 1e18, true };
/// HBM capacity in bytes (at most 1e15 GiB; reference searches use 8e10 GiB as "unlimited").
inline constexpr Range kCapacity { 0, false, 1e15 * kGiB, true };
/// Tier-2 capacity: 0 means no offload memory.
inline constexpr Range kOptionalCapacity { 0, true, 1e15 * kGiB, true };
/// Network latency per operation in seconds (at most 1 s).
inline constexpr Range kLatency { 0, true, 1, true };
/// Collective cost S' = S*scalar*(1 + offset/n) (calculon-model.md §4.1): the scalar is
/// positive, and offset >= -1 keeps S' >= 0 for every group size n >= 1.
inline constexpr Range kCollectiveScalar { 0, false, 1e3, true };
inline constexpr Range kCollectiveOffset { -1, true, 1e3, true };
/// Fraction of compute a transfer occupies; 1 would stall compute forever.
inline constexpr Range kProcessorUsage { 0, true, 1, false };
/// Dropout probability (an LLM's attention_dropout, hidden_dropout); 1 would drop every value.
inline constexpr Range kDropout { 0, true, 1, false };
/// Threshold of an efficiency row in flops or bytes (at most 1e30).
inline constexpr Range kThreshold { 0, true, 1e30, true };
/// Spine oversubscription of a three-tier fabric.
inline constexpr Range kOversubscription { 1, true, 1e6, true };
/// A factor a sweep multiplies a hardware parameter by (the result must also lie in its range).
inline constexpr Range kSweepFactor { 1e-6, true, 1e6, true };
/// The largest count (elements, flops, microbatches x blocks) one evaluation may form from its
/// integer inputs, with its constant factors: 2^62, half of what 64-bit integers hold. A new
/// formula that multiplies integer inputs needs its term in checkCounts (range_checks.cpp).
inline constexpr double kMaxCount = 4611686018427387904.0;

} // namespace limits

/// Appends an OutOfRange diagnostic for each number of `sys` outside its range above (and for
/// offloading to a tier-2 memory without bandwidth); the field is a path into the system such as
/// "mem1/bandwidth", "matrix/float8/peak_flops" or "networks/1/latency". checkConfiguration()
/// runs it; scenario compile runs it to name the override or block at fault.
void checkSystemRanges(const Execution &exe, const System &sys, bool explain, Diagnostics &out);

} // namespace gapstudio::model
