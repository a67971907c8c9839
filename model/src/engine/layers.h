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
