#pragma once
/**
 * @file quirks.h
 * Each documented quirk of the reference models has one switch here, read in one place in
 * model/src. Three presets:
 *  - Quirks::calculon(): upstream Calculon at caa4b11 (QUIRKs of calculon-model.md), exactly;
 *  - Quirks::calculonMoe(): the authors' calculon-MoE at e3eb609 (quirks Q1-Q30 of
 *    calculon-moe-model.md), exactly;
 *  - Quirks::corrected(): the same formulas with every switch below off (the native model).
 */

namespace gapstudio::model {

struct Quirks {
    // Upstream Calculon (calculon-model.md).
    /// §3.3: block_re_{flops,flops_time,mem_accessed,mem_time} add the running forward total at
    /// each recomputed layer instead of the layer's own value (block_stats.cpp). calculon-MoE
    /// fixed it.
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
    /// Dense blocks always use a GeLU MLP (both references; calculon-MoE's activation_function
    /// only changes the experts). Off: a SiLU LLM gets a SwiGLU MLP (block.cpp).
    bool denseMlpAlwaysGelu = true;

    // calculon-MoE (calculon-moe-model.md §11).
    /// Q4: stored activations without the 1F1B in-flight factor; with pp = 1 one block only
    /// (memory_stats.cpp).
    bool activationMemoryWithoutInFlight = false;
    /// Q1: each GPU runs its E/EP experts over all B*s*k/(E/EP) routed tokens with width f/ES:
    /// expert work scales with 1/ES instead of 1/TP (moe_block.cpp).
    bool expertWorkScalesWithEs = false;
    /// Q3: all-to-all, top-k and bucketing layers subtract their buffers from the stored
    /// activations (moe_block.cpp).
    bool negativeStoredActivations = false;
    /// Q5: expert optimizer state and gradients are sharded over DP, not expert DP (moe_block.cpp).
    bool expertOptimizerShardedByDp = false;
    /// Q6: expert-DP gradient traffic is dropped from the step time when DP = 1 (batch_stats.cpp).
    bool expertDpDroppedWhenDp1 = false;

    [[nodiscard]] static constexpr Quirks calculon() noexcept { return {}; }
    [[nodiscard]] static constexpr Quirks reference() noexcept { return calculon(); }
    [[nodiscard]] static constexpr Quirks calculonMoe() noexcept
    {
        Quirks q;
        q.recomputeStatsRunningTotal = false;
        q.activationMemoryWithoutInFlight = true;
        q.expertWorkScalesWithEs = true;
        q.negativeStoredActivations = true;
        q.expertOptimizerShardedByDp = true;
        q.expertDpDroppedWhenDp1 = true;
        return q;
    }
    [[nodiscard]] static constexpr Quirks corrected() noexcept
    {
        return {false, false, false, false, false, false, false, false, false, false};
    }
};

} // namespace gapstudio::model
