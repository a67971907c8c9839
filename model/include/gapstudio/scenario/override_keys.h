#pragma once
/**
 * @file override_keys.h
 * Names of the override keys code refers to (the studio's sliders, benchmarks, tests): the
 * same strings as the one table of keys, scenario::overrideKeys() (scenario/override_rules.h), which
 * is built from these.
 */

namespace gapstudio::scenario::keys {

inline constexpr const char *kComputeScale = "gpu.compute_scale"; ///< × every matrix and vector peak
inline constexpr const char *kHbmBandwidth = "gpu.hbm_bandwidth_GBps";
inline constexpr const char *kHbmCapacity = "gpu.hbm_capacity_GiB";
inline constexpr const char *kScaleUpBandwidth = "scale_up.bandwidth_GBps";
inline constexpr const char *kScaleUpLatency = "scale_up.latency_us";
inline constexpr const char *kScaleUpEfficiency = "scale_up.efficiency";
inline constexpr const char *kScaleOutBandwidth = "scale_out.bandwidth_GBps";
inline constexpr const char *kScaleOutLatency = "scale_out.latency_us";
inline constexpr const char *kScaleOutEfficiency = "scale_out.efficiency";
inline constexpr const char *kDomainSize = "topology.scale_up_domain_size";
inline constexpr const char *kGpuCount = "gpu_count";
inline constexpr const char *kBatchSize = "layout.batch_size";
inline constexpr const char *kSeqSize = "llm.seq_size";

} // namespace gapstudio::scenario::keys
