#pragma once
// The state of one evaluation: the compiled layout (reference `Llm.compile`) and the
// intermediate per-block times that the batch, DP-overlap and offload formulas share.

#include "engine/block.h"
#include "engine/block_stats.h"
#include "engine/capacity.h"

#include "gapstudio/model/evaluate.h"

#include <cstdint>

namespace gapstudio::model::detail {

[[nodiscard]] inline double dbl(std::int64_t value) noexcept
{
    return static_cast<double>(value);
}

/// The layout compiled for processor 0 (calculon-model.md §4.5 notation in comments).
struct Layout {
    std::int64_t blocksPerProc = 0;         ///< L_p = ceil(L / pp)
    std::int64_t bubbleReductionBlocks = 0; ///< r: blocks missing on later stages with uneven PP
    std::int64_t blocksPerChunk = 0;        ///< c = L_p / v
    std::int64_t chunksPerProc = 0;         ///< v
    std::int64_t baseblocksPerChunk = 0;    ///< c - 1 (plus one edge block per chunk)
    std::int64_t microbatches = 0;          ///< M = B / (dp * mbs)
    double activationSize = 0;              ///< A = mbs * s * h elements
    double seqParActivationSize = 0;        ///< A_s = (mbs * s / tp) * h elements
};

/// The execution evaluate() runs: `input` with the rules the model imposes (calculon-MoE's
/// sequence parallelism in MoE blocks with TP).
[[nodiscard]] Execution effectiveExecution(const Execution &input) noexcept;

[[nodiscard]] Layout compileLayout(const Application &app, const Execution &exe, const Features &features) noexcept;

/// Corrected model: what the embedding, the LM head, dense blocks and uneven stages add to the
/// per-block model of processor 0 (stages.cpp).
struct StageExtras {
    bool active = false;     ///< the stage model replaced the reference's uneven-PP rule
    double idealSeconds = 0; ///< ideal (peak) time of every processor's work, averaged
    double firstBlocks = 0, lastBlocks = 0; ///< blocks on the first and last stage
    double embeddingStatic_B = 0;  ///< embedding weights, gradients, optimizer state
    double headStatic_B = 0;       ///< LM head weights, gradients, optimizer state
    double headActivations_B = 0;  ///< logits and loss buffers of one microbatch
    /// Dense blocks of an MoE model on the first and last stage, and what one of them holds
    /// beyond the MoE block the per-block memory is counted with (weights, gradients and
    /// optimizer state; activations of one microbatch).
    double firstDense = 0, lastDense = 0;
    double denseWeights_B = 0, denseGrads_B = 0, denseOptimizer_B = 0, denseActivations_B = 0;
};


/// Everything the batch-level formulas need beyond Stats.
struct Run {
    const Application &app;
    const Execution &exe;
    const System &sys;
    const Quirks &quirks;
    const Features &features;
    Layout layout;
    LayerContext ctx;
    const NetworkTier *tpNet = nullptr;
    const NetworkTier *ppNet = nullptr;
    const NetworkTier *dpNet = nullptr;
    const NetworkTier *dpExpNet = nullptr;
    std::int64_t tpNetIndex = 0, ppNetIndex = 0, dpNetIndex = 0;
    BlockComm comm; ///< TP/EP/ES traffic of one block (computeBlockStats)

    // Per block, per microbatch, set by computeBatchStats.
    double chunkFwPpTime = 0, chunkBwPpTime = 0;
    double baseFwTimeNoOffload = 0, edgeFwTimeNoOffload = 0;
    double baseBwTimeNoOffload = 0, edgeBwTimeNoOffload = 0;
    double baseFwOffloadOverhead = 0, edgeFwOffloadOverhead = 0;
    double baseBwOffloadOverhead = 0, edgeBwOffloadOverhead = 0;
    double baseFwTime = 0, edgeFwTime = 0, baseBwTime = 0, edgeBwTime = 0;
    double blockDpTime = 0;
    StageExtras stages;
};

/// The DP communication of `bytes` of weights (one block's, say) among `replicas` ranks on `net`:
/// an all-reduce, or with optimizer sharding a reduce-scatter plus an all-gather (§4.6). `inner`
/// is the product of the degrees placed inside each scale-up domain before DP (TP x CP, or
/// ES x EP for expert DP): the corrected model runs the collective hierarchically (dp_comm.cpp).
[[nodiscard]] double gradientReduction(const Run &run, const NetworkTier &net, double bytes, std::int64_t replicas,
                                       std::int64_t inner = 1) noexcept;

/// Step times: fw/bw/optim, TP/PP/DP communication, bubble, offload overheads (§4.5-§4.7, §6).
void computeBatchStats(Run &run, Stats &stats) noexcept;

/// Memory per processor (§7), offload bandwidths (§6) and efficiencies (§8.1).
void computeMemoryAndEfficiency(Run &run, const Block &block, Stats &stats) noexcept;

/// Corrected model: embedding and LM head on the first and last pipeline stages, dense blocks
/// of MoE models, first/last stage sizes, and the resulting stage imbalance (stages.cpp). Adds
/// to the step time and fills run.stages. Runs after computeBatchStats.
void applyStages(Run &run, Stats &stats) noexcept;

/// The run of one evaluation: the layout, the layer context and the network tier of each
/// parallelism (evaluate.cpp).
[[nodiscard]] Run prepareRun(const Application &app, const Execution &exe, const System &sys,
                             const EvaluateOptions &options) noexcept;

/// The ideal (peak-rate) time of one step's model work: the MFU's numerator over the peak
/// (memory_stats.cpp; the stage model's own with the corrected model's stages).
[[nodiscard]] double idealStepTime(const Run &run, const Block &block) noexcept;

/// Corrected model: HBM need of the fullest pipeline stage, from processor 0's need under the
/// reference's per-block model (stages.cpp).
/// Fills the stage_* statistics; `firstStage` is processor 0's need under the reference's model.
[[nodiscard]] double stageTier1Bytes(const Run &run, Stats &stats, const CapacityNeeds &firstStage) noexcept;

/// The layer context of an evaluation: engines, byte sizes and the corrected model's settings.
[[nodiscard]] LayerContext layerContext(const Execution &exe, const System &sys, const EvaluateOptions &options) noexcept;

/// Bytes the offload tier moves per block in the forward / backward pass (§6).
[[nodiscard]] double fwOffloadBytes(const Run &run, const Stats &stats) noexcept;
[[nodiscard]] double bwOffloadBytes(const Run &run, const Stats &stats) noexcept;

/// Corrected model: whether pipeline messages go scattered over TP and are all-gathered by the
/// receiver (Execution::pipelineScatterGather, Narayanan et al. 2021 section 4.1): only where TP
/// does not already split the activation by sequence.
[[nodiscard]] inline bool scatterGathersPipeline(const Run &run) noexcept
{
    return run.features.pipelineScatterGather && run.exe.pipelineScatterGather && run.exe.tensorPar > 1
           && run.exe.tensorParCommType == TpCommType::Ar;
}

} // namespace gapstudio::model::detail
