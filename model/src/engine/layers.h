#pragma once
// The per-stage cost functions of one layer of the transformer block as the reference model sees
// it (Calculon `llm/layers.py` at caa4b11); the layer itself is in layer_types.h, its memory in
// layer_memory.h. Internal to the model.

#include "engine/layer_memory.h" // the layer and its context (layer_types.h), footprints, stageMemAccessed()

namespace gapstudio::model::detail {

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

/// The kinds of layer that move data over a network (their processing time depends on it).
[[nodiscard]] inline bool communicates(LayerKind kind) noexcept
{
    return kind == LayerKind::TPComm || kind == LayerKind::LinearOverlapped || kind == LayerKind::AllToAll
           || kind == LayerKind::FlashAttention;
}

/// processingTimeWithNet() of a layer whose communicates() is known (`comms`): a block's walk
/// tests the kind once per layer, not once per stage.
[[nodiscard]] inline StageTiming processingTimeWithNet(const Layer &l, const LayerContext &c, Stage s,
                                                       const StageCost &cost, double net, bool comms) noexcept
{
    if (comms)
        return communicatingProcessingTime(l, c, s, cost, net);
    return { processing(c, cost.flopTime, cost.memTime) + cost.castTime, 0 };
}

/// processingTime() from a stage cost and, for a LinearOverlapped, the netTime() it overlaps
/// (of the base or the edge block) already computed: computeBlockStats computes each once.
/// Inline for the layers that only compute (most of a block).
[[nodiscard]] inline StageTiming processingTimeWithNet(const Layer &l, const LayerContext &c, Stage s,
                                                       const StageCost &cost, double net) noexcept
{
    return processingTimeWithNet(l, c, s, cost, net, communicates(l.kind));
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
/// The HBM rate of the calibrated kernels: every kernel of the software stack runs at the
/// calibration's computeEfficiency of its hardware rate, memory traffic at hbmEfficiency of the
/// HBM bandwidth. Computed once per evaluation (LayerContext::calibratedHbm_Bps).
[[nodiscard]] inline double calibratedHbmRate(const MemoryTier &hbm, const Calibration &cal) noexcept
{
    return hbm.bandwidth_Bps * cal.hbmEfficiency * cal.computeEfficiency;
}
/// Extra HBM bytes of a layer's stage when its element-wise operations run as separate eager-mode
/// kernels (LayerContext::eagerKernels) instead of one fused kernel; 0 otherwise.
[[nodiscard]] double eagerExtraBytes(const Layer &l, const LayerContext &c, Stage s) noexcept;

// Inline: a layout search computes some fifty stage costs per evaluation.
[[nodiscard]] inline bool usesMatrixEngine(const Layer &l) noexcept
{
    return l.kind == LayerKind::Linear || l.kind == LayerKind::LinearOverlapped
           || l.kind == LayerKind::BatchMatMul || l.kind == LayerKind::FlashAttention;
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

/// Tile and wave quantisation and short-K efficiency of `count` GEMMs with an m x n output and
/// reduction depth `depth` (1 when the GPU's tile and SM count are unknown).
[[nodiscard]] double gemmShapeEfficiency(double m, double n, double depth, double count,
                                         const LayerContext &c) noexcept;

// The calibrated kernel costs (calibrated_cost.cpp has their sources), inline: the corrected
// model computes some hundred and forty stage costs per evaluation of the default design.
/// The three GEMMs of a matrix layer (forward, activation gradient, weight gradient) for the
/// forward product (M x N) by (N x K): output rows, output columns and reduction depth.
struct GemmShape {
    double rows = 0, columns = 0, depth = 0;
};

[[nodiscard]] inline GemmShape stageShape(const Layer &l, Stage s) noexcept
{
    if (l.kind == LayerKind::BatchMatMul)
        return { l.gemmM, l.gemmK, l.gemmN }; // both backward products have the forward's size
    switch (s) {
    case Stage::Agrad:
        return { l.gemmM, l.gemmN, l.gemmK }; // dX = dY W^T
    case Stage::Wgrad:
        return { l.gemmN, l.gemmK, l.gemmM }; // dW = X^T dY: the tokens are the reduction
    case Stage::Fw:
    case Stage::Optim:
        break;
    }
    return { l.gemmM, l.gemmK, l.gemmN }; // Y = X W
}

/// Bytes of the separate FP8/FP4 cast kernels of a low-precision linear layer: the 16-bit input
/// (forward) or output gradient (backward) is read and written in the low datatype, and the
/// weight gradient needs the transposed low-precision copies of both (Transformer Engine,
/// "Using FP8 with Transformer Engine": casts and transposes run outside the GEMM).
[[nodiscard]] inline double castBytes(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    const double perElement = c.bytesPerElement + c.lowBytesPerElement;
    switch (s) {
    case Stage::Fw:
        return l.inputs * perElement;
    case Stage::Agrad:
        return l.outputs * perElement;
    case Stage::Wgrad:
        return 2 * c.lowBytesPerElement * (l.inputs + l.outputs);
    case Stage::Optim:
        break;
    }
    return 0;
}

/// A stage's cost from the calibration: shape-aware GEMM and attention-kernel efficiency,
/// HBM efficiency, roofline, separate FP8 cast kernels.
[[nodiscard]] inline StageCost calibratedStageCost(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    const Calibration &cal = *c.calibration;
    StageCost cost;
    cost.flops = stageFlops(l, c, s);
    cost.bytes = stageMemAccessed(l, c, s) + eagerExtraBytes(l, c, s);
    const double hbm = c.calibratedHbm_Bps;
    cost.memTime = cost.bytes / hbm;
    if (cost.flops > 0) {
        double rate = 0;
        if (s != Stage::Optim && usesMatrixEngine(l)) {
            const bool low = c.recipe && l.lowPrecision && c.matrixLow;
            const ComputeEngine &engine = low ? *c.matrixLow : *c.matrix;
            double kernel = cal.attentionEfficiency;
            if (l.kind != LayerKind::FlashAttention) {
                const GemmShape shape = stageShape(l, s);
                kernel = cal.gemmEfficiency[static_cast<std::size_t>(low ? c.matrixLowType : c.matrixType)]
                         * gemmShapeEfficiency(shape.rows, shape.columns, shape.depth, l.gemmCount, c);
            }
            rate = engine.peak_flops * kernel;
        } else {
            rate = c.vector->peak_flops * efficiencyAt(c.vector->efficiency, cost.flops);
        }
        cost.flopTime = cost.flops / (rate * cal.computeEfficiency);
    }
    if (c.recipe && l.lowPrecision && s != Stage::Optim)
        cost.castTime = castBytes(l, c, s) / hbm;
    return cost;
}

/// A stage's flops and bytes and their times at the engines' and memory's efficiency for
/// their size (§3.3), or the calibrated kernel costs; `kCalibrated` says whether the context
/// has a calibration (a block's walk decides once and runs only one kind of cost in its loop).
template <bool kCalibrated>
[[nodiscard]] inline StageCost stageCostOf(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    if constexpr (kCalibrated)
        return calibratedStageCost(l, c, s);
    StageCost cost;
    cost.flops = stageFlops(l, c, s);
    const ComputeEngine &engine = usesMatrixEngine(l) && s != Stage::Optim ? *c.matrix : *c.vector;
    cost.flopTime = cost.flops / (engine.peak_flops * efficiencyAt(engine.efficiency, cost.flops));
    cost.bytes = stageMemAccessed(l, c, s);
    cost.memTime = cost.bytes / (c.mem1->bandwidth_Bps * efficiencyAt(c.mem1->efficiency, cost.bytes));
    return cost;
}

/// stageCostOf() for a context whose calibration is known at run time.
[[nodiscard]] inline StageCost stageCost(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    return c.calibration ? stageCostOf<true>(l, c, s) : stageCostOf<false>(l, c, s);
}

/// stageCostOf() of another stage of the same layer than `known` (a Linear's backward products
/// have its forward flops): equal flops or bytes on the same engine and memory take equal time,
/// so those lookups and divisions are reused, not repeated (uncalibrated stages before the
/// optimizer's, which all run on the layer's engine).
template <bool kCalibrated>
[[nodiscard]] inline StageCost stageCostOf(const Layer &l, const LayerContext &c, Stage s,
                                           const StageCost &known) noexcept
{
    if (kCalibrated || s == Stage::Optim)
        return stageCostOf<kCalibrated>(l, c, s);
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
