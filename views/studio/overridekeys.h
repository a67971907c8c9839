#pragma once
/**
 * @file overridekeys.h
 * The scenario override keys the studio's sliders write (JSON key paths in the blocks' JSON
 * units, Scenario::overrides). One list, so a rename in the scenario compiler is one edit here.
 */

namespace gapstudio::views::overrides {

inline constexpr const char *kComputeScale = "gpu.compute_scale";          ///< × every matrix peak
inline constexpr const char *kHbmBandwidth = "gpu.hbm_bandwidth_GBps";
inline constexpr const char *kHbmCapacity = "gpu.hbm_capacity_GiB";
inline constexpr const char *kScaleUpBandwidth = "scale_up.bandwidth_GBps";
inline constexpr const char *kScaleUpLatency = "scale_up.latency_us";
inline constexpr const char *kScaleUpEfficiency = "scale_up.efficiency";
inline constexpr const char *kScaleOutBandwidth = "scale_out.bandwidth_GBps";
inline constexpr const char *kScaleOutLatency = "scale_out.latency_us";
inline constexpr const char *kScaleOutEfficiency = "scale_out.efficiency";
inline constexpr const char *kDomainSize = "topology.scale_up_domain_size";
inline constexpr const char *kBatchSize = "layout.batch_size";
inline constexpr const char *kSeqSize = "llm.seq_size";

} // namespace gapstudio::views::overrides
