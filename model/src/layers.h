#pragma once
// One layer of the transformer block as the reference model sees it (Calculon `llm/layers.py`
// at caa4b11): element counts, flags, and the per-stage cost functions. Internal to the model.

#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/fidelity.h"

#include "efficiency.h"

#include <cstdint>

namespace gapstudio::model::detail {

enum class LayerKind : std::uint8_t {
    Linear,
    LinearOverlapped, ///< a GEMM tiled against its TP collective (`ring`/`pipe` overlap)
    BatchMatMul,
    LayerNorm,
    DropOut,
    GeLU,
    SoftMax,
    ElementWise,
    Fork,
    TPComm,   ///< Megatron's f/g operators: identity, all-reduce, all-gather or reduce-scatter
    Routing,  ///< MoE top-k selection or token bucketing: touches its input, stores nothing
    AllToAll, ///< MoE dispatch/combine over EP (calculon-MoE `EXPComm`)
    /// Corrected model: fused causal attention (FlashAttention); with context parallelism it
    /// also carries the ring exchange of K/V over CP, overlapped step by step.
    FlashAttention,
    Embedding, ///< corrected model: vocabulary-parallel embedding lookup
    Loss,      ///< corrected model: vocabulary-parallel cross-entropy
};

/// Which statistics a layer's communication is reported under (calculon-MoE routes by name).
enum class CommGroup : std::uint8_t { Tp, Ep, Es, Cp };

enum class Stage : std::uint8_t { Fw, Agrad, Wgrad, Optim };

/// Element counts (not bytes) and flags of one layer, for one microbatch on one processor.
struct Layer {
    // The one-byte fields first, together: a block writes every layer once per evaluation, and
    // interleaved with the doubles they would pad the layer by a tenth.
    LayerKind kind = LayerKind::Linear;
    bool needsRecompute = false;
    bool needsRecomm = false;
    bool activationReused = false;
    bool activationStored = true;
    bool outputStored = true;
    // TPComm and LinearOverlapped
    bool conjugate = false; ///< g (AR/RS forward) rather than f (identity/AG forward)
    TpCommType commType = TpCommType::Ar;
    TpOverlap overlap = TpOverlap::None;
    CommGroup group = CommGroup::Tp;
    // MoE
    bool expertWeights = false; ///< reduced over expert DP rather than DP
    /// Corrected model: runs on the low-precision (FP8/FP4) engine under the precision recipe:
    /// the blocks' linear layers. Attention, LM head and vector work stay in 16 bits.
    bool lowPrecision = false;
    const char *name = "";
    double fwFlops = 0, agradFlops = 0, wgradFlops = 0;
    double inputs = 0, outputs = 0;
    double activationSpace = 0; ///< stored input (for the backward pass)
    double activationGrads = 0; ///< gradient w.r.t. the output
    double weightSpace = 0, weightGrads = 0, optimSpace = 0;
    // Fork
    double numUsers = 0;
    // TPComm and LinearOverlapped
    double commSize = 0; ///< TPComm: elements of the full (unsplit) activation
    std::int64_t numPeers = 1;
    std::int64_t numTiles = 1;
    const NetworkTier *net = nullptr;
    // MoE
    double optimizerShards = 0; ///< if > 0, overrides LayerContext::optimizerShards
    // Corrected model (Features)
    /// Matrix layers: the forward product is `gemmCount` GEMMs of (gemmM x gemmN) by
    /// (gemmN x gemmK); the backward ones follow (shape-aware efficiency, calibrated mode).
    double gemmM = 0, gemmN = 0, gemmK = 0, gemmCount = 1;
    /// FlashAttention with CP: K/V elements one rank passes on per ring step (forward).
    double ringStepElements = 0;
};

/// What a layer needs to know about the run: the engines of the datatype, memories, options.
struct LayerContext {
    const ComputeEngine *matrix = nullptr;
    const ComputeEngine *vector = nullptr;
    const MemoryTier *mem1 = nullptr;
    ProcessingMode mode = ProcessingMode::NoOverlap;
    double bytesPerElement = 2;
    double optimizerShards = 1; ///< data_par with optimizer sharding, else 1
    // Corrected model (Features); null / defaults reproduce the references.
    const ComputeEngine *matrixLow = nullptr; ///< engine of lowPrecision layers (recipe), else null
    Datatype matrixType = Datatype::Float16;  ///< datatype of `matrix` (calibration lookup)
    Datatype matrixLowType = Datatype::Float8;
    double lowBytesPerElement = 1;            ///< stored inputs of lowPrecision layers
    bool recipe = false;                      ///< Features::precisionRecipe
    bool collectiveAllToAll = false;          ///< Features::moeDetails: one NCCL all-to-all
    const Calibration *calibration = nullptr; ///< non-null: calibrated kernel times
    std::int64_t smCount = 0, tileM = 0, tileN = 0;
    bool eagerKernels = false;    ///< Features::eagerKernels and Execution::eagerKernels
    bool gatedActivation = false; ///< the GeLU-kind layers are SwiGLU (silu and gating product)
};

/// A stage's compute and memory work and their times (§3.3), computed once per layer and stage.
struct StageCost {
    double flops = 0;
    double flopTime = 0;
    double bytes = 0;
    double memTime = 0;
    double castTime = 0; ///< separate FP8 cast kernels (precision recipe), added to the time
};

/// Time of a stage and the part of its TP communication left exposed (LinearOverlapped only).
struct StageTiming {
    double time = 0;
    double exposed = 0;
};

[[nodiscard]] inline double stageMemAccessed(const Layer &l, const LayerContext &c, Stage s) noexcept;
[[nodiscard]] double flopsTime(const Layer &l, const LayerContext &c, Stage s) noexcept;
[[nodiscard]] double memTime(const Layer &l, const LayerContext &c, Stage s) noexcept;
/// Reference `compute_processing_time`: 0 for TPComm (its cost is in its comm time), tiled for
/// LinearOverlapped (against the comm time of the base block unless `baseblock` is false),
/// roofline/no_overlap of flop and memory time otherwise.
[[nodiscard]] StageTiming processingTime(const Layer &l, const LayerContext &c, Stage s,
                                         bool baseblock = true) noexcept;
/// processingTime() from a stage cost already computed.
[[nodiscard]] StageTiming processingTime(const Layer &l, const LayerContext &c, Stage s,
                                         const StageCost &cost, bool baseblock = true) noexcept;
/// §3.3: roofline overlaps a kernel's compute and memory time, no_overlap adds them.
[[nodiscard]] inline double processing(const LayerContext &c, double flopTime, double memoryTime) noexcept
{
    if (c.mode == ProcessingMode::Roofline)
        return flopTime > memoryTime ? flopTime : memoryTime;
    return flopTime + memoryTime;
}

/// processingTimeWithNet() of the layers that communicate (TPComm, AllToAll, LinearOverlapped,
/// FlashAttention).
[[nodiscard]] StageTiming communicatingProcessingTime(const Layer &l, const LayerContext &c, Stage s,
                                                      const StageCost &cost, double net) noexcept;

/// processingTime() from a stage cost and, for a LinearOverlapped, the netTime() it overlaps
/// (of the base or the edge block) already computed: computeBlockStats computes each once.
/// Inline for the layers that only compute (most of a block).
[[nodiscard]] inline StageTiming processingTimeWithNet(const Layer &l, const LayerContext &c, Stage s,
                                                       const StageCost &cost, double net) noexcept
{
    switch (l.kind) {
    case LayerKind::TPComm:
    case LayerKind::AllToAll:
    case LayerKind::LinearOverlapped:
    case LayerKind::FlashAttention:
        return communicatingProcessingTime(l, c, s, cost, net);
    default:
        return { processing(c, cost.flopTime, cost.memTime) + cost.castTime, 0 };
    }
}

[[nodiscard]] double commBytes(const Layer &l, const LayerContext &c, Stage s, bool baseblock) noexcept;
[[nodiscard]] double commTile(const Layer &l, const LayerContext &c, Stage s, bool baseblock) noexcept;
/// Reference `compute_net_time`: collective time plus, for reductions, their vector flops.
[[nodiscard]] double netTime(const Layer &l, const LayerContext &c, Stage s, bool baseblock) noexcept;
/// netTime() with the layer's stage cost already computed (a TPComm's reduction time).
[[nodiscard]] double netTime(const Layer &l, const LayerContext &c, Stage s, bool baseblock,
                             const StageCost &cost) noexcept;
/// netTime() with the layer's stage cost and commBytes() (for TPComm, LinearOverlapped and
/// AllToAll; else unused) already computed.
[[nodiscard]] double netTimeOfBytes(const Layer &l, const LayerContext &c, Stage s, bool baseblock,
                                    const StageCost &cost, double bytes) noexcept;
/// Bandwidth needed to hide one comm tile behind one (slowed) compute tile.
[[nodiscard]] double requiredBandwidth(const Layer &l, const LayerContext &c, Stage s,
                                       bool baseblock) noexcept;
/// requiredBandwidth() of a LinearOverlapped from its stage cost and comm bytes.
[[nodiscard]] double requiredBandwidth(const Layer &l, const StageCost &cost, double bytes) noexcept;

// Corrected model (calibrated_cost.cpp, ring_attention.cpp).
/// A stage's cost from the calibration: shape-aware GEMM and attention-kernel efficiency,
/// HBM efficiency, roofline, separate FP8 cast kernels.
[[nodiscard]] StageCost calibratedStageCost(const Layer &l, const LayerContext &c, Stage s) noexcept;
/// Extra HBM bytes of a layer's stage when its element-wise operations run as separate eager-mode
/// kernels (LayerContext::eagerKernels) instead of one fused kernel; 0 otherwise.
[[nodiscard]] double eagerExtraBytes(const Layer &l, const LayerContext &c, Stage s) noexcept;

// Inline: a layout search computes some fifty stage costs per evaluation.
[[nodiscard]] inline bool usesMatrixEngine(const Layer &l) noexcept
{
    return l.kind == LayerKind::Linear || l.kind == LayerKind::LinearOverlapped
           || l.kind == LayerKind::BatchMatMul || l.kind == LayerKind::FlashAttention;
}

/// The optimizer's shards of a layer's weights (data_par with optimizer sharding, else 1).
[[nodiscard]] inline double shards(const Layer &l, const LayerContext &c) noexcept
{
    return l.optimizerShards > 0 ? l.optimizerShards : c.optimizerShards;
}

[[nodiscard]] inline double stageFlops(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    switch (s) {
    case Stage::Fw:
        return l.fwFlops;
    case Stage::Agrad:
        return l.agradFlops;
    case Stage::Wgrad:
        return l.wgradFlops;
    case Stage::Optim:
        break;
    }
    // Adam: 11 flops per (sharded) weight gradient.
    return l.weightGrads / shards(l, c) * 11;
}

/// A stage's flops and bytes and their times at the engines' and memory's efficiency for
/// their size (§3.3), or the calibrated kernel costs.
[[nodiscard]] inline StageCost stageCost(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    if (c.calibration)
        return calibratedStageCost(l, c, s);
    StageCost cost;
    cost.flops = stageFlops(l, c, s);
    const ComputeEngine &engine = usesMatrixEngine(l) && s != Stage::Optim ? *c.matrix : *c.vector;
    cost.flopTime = cost.flops / (engine.peak_flops * efficiencyAt(engine.efficiency, cost.flops));
    cost.bytes = stageMemAccessed(l, c, s);
    cost.memTime = cost.bytes / (c.mem1->bandwidth_Bps * efficiencyAt(c.mem1->efficiency, cost.bytes));
    return cost;
}

/// stageCost() of another stage of the same layer than `known` (a Linear's backward products
/// have its forward flops): equal flops or bytes on the same engine and memory take equal time,
/// so those lookups and divisions are reused, not repeated (uncalibrated stages before the
/// optimizer's, which all run on the layer's engine).
[[nodiscard]] inline StageCost stageCost(const Layer &l, const LayerContext &c, Stage s,
                                         const StageCost &known) noexcept
{
    if (c.calibration || s == Stage::Optim)
        return stageCost(l, c, s);
    StageCost cost;
    cost.flops = stageFlops(l, c, s);
    const ComputeEngine &engine = usesMatrixEngine(l) ? *c.matrix : *c.vector;
    cost.flopTime = cost.flops == known.flops
                        ? known.flopTime
                        : cost.flops / (engine.peak_flops * efficiencyAt(engine.efficiency, cost.flops));
    cost.bytes = stageMemAccessed(l, c, s);
    cost.memTime = cost.bytes == known.bytes
                       ? known.memTime
                       : cost.bytes / (c.mem1->bandwidth_Bps * efficiencyAt(c.mem1->efficiency, cost.bytes));
    return cost;
}
/// Tile and wave quantisation and short-K efficiency of `count` GEMMs with an m x n output and
/// reduction depth `depth` (1 when the GPU's tile and SM count are unknown).
[[nodiscard]] double gemmShapeEfficiency(double m, double n, double depth, double count,
                                         const LayerContext &c) noexcept;
/// Bytes and link time of the K/V ring exchange of a FlashAttention layer over CP (0 without).
[[nodiscard]] double ringBytes(const Layer &l, const LayerContext &c, Stage s) noexcept;
[[nodiscard]] double ringTime(const Layer &l, const LayerContext &c, Stage s) noexcept;
/// A FlashAttention layer's time and the part of its ring exchange left exposed.
[[nodiscard]] StageTiming ringAttentionTime(const Layer &l, const LayerContext &c, Stage s,
                                            double compute) noexcept;
/// Exposed time once only `overlapEfficiency` of the hideable part really hides.
[[nodiscard]] double exposedWithOverlapEfficiency(const LayerContext &c, double link,
                                                  double exposed) noexcept;

} // namespace gapstudio::model::detail

#include "layer_memory.h" // the inline definitions of stageMemAccessed() and the footprints
