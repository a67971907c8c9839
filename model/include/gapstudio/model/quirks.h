#pragma once
/**
 * @file quirks.h
 * Each documented QUIRK of the reference model (calculon-model.md) has one switch here. The
 * default, Quirks::reference(), reproduces the reference exactly; Quirks::corrected() fixes them.
 */

namespace gapstudio::model {

struct Quirks {
    /// §3.3: block_re_* flops/mem stats accumulate the running forward total, not the layer's own.
    bool recomputeStatsRunningTotal = true;
    /// §7.1: the ideal time multiplies the per-step optimizer flops by the microbatch count.
    bool usefulFlopsOptimizerPerMicrobatch = true;
    /// §4.3: the edge block pays a p2p latency even with pp = 1, and a 0-byte backward p2p in inference.
    bool edgeBlockP2pWithoutPipeline = true;
    /// §4.4 (pipe): the un-overlapped comm tile counts both in compute time and in exposed TP time.
    bool pipeTileCountedTwice = true;
    /// §4.4 (1): edge-block TP-overlap exposed time is the base block's.
    bool overlapEdgeEqualsBase = true;

    [[nodiscard]] static constexpr Quirks reference() noexcept { return {}; }
    [[nodiscard]] static constexpr Quirks corrected() noexcept
    {
        return {false, false, false, false, false};
    }
};

} // namespace gapstudio::model
