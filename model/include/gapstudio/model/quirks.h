#pragma once
/**
 * @file quirks.h
 * Each documented QUIRK of the reference model (calculon-model.md) has one switch here, read in
 * one place in model/src. The default, Quirks::reference(), reproduces the reference (Calculon at
 * caa4b11) exactly; Quirks::corrected() switches every one of them off.
 */

namespace gapstudio::model {

struct Quirks {
    /// §3.3: block_re_{flops,flops_time,mem_accessed,mem_time} add the running forward total at
    /// each recomputed layer instead of the layer's own value (block_stats.cpp).
    bool recomputeStatsRunningTotal = true;
    /// §8.1: the ideal time counts the per-step optimizer flops once per microbatch
    /// (memory_stats.cpp, efficiencies).
    bool usefulFlopsOptimizerPerMicrobatch = true;
    /// §4.3: the edge block pays a 0-byte p2p (one latency) even with pp = 1, and in inference
    /// also a backward one (batch_stats.cpp).
    bool edgeBlockP2pWithoutPipeline = true;
    /// §4.4 (1): a LinearOverlapped's exposed time is computed against the base block's comm
    /// time, so edge blocks (p2p_rs_ag) expose what base blocks do (block_stats.cpp).
    bool overlapEdgeEqualsBase = true;

    [[nodiscard]] static constexpr Quirks reference() noexcept { return {}; }
    [[nodiscard]] static constexpr Quirks corrected() noexcept { return {false, false, false, false}; }
};

} // namespace gapstudio::model
