// Kernel times of the corrected model from a calibration (model::Calibration): the reference's
// size-threshold efficiency tables give way to a GEMM efficiency that depends on the GEMM's shape
// (tile and wave quantisation, reduction depth), datatype and GPU, an attention-kernel efficiency,
// an HBM efficiency and the roofline of compute and memory time. Sources: docs/references.md
// (CUTLASS and cuBLAS tile quantisation, NVIDIA "Matrix Multiplication Background" guide; the
// FP8 casts of Transformer Engine).
#include "engine/layers.h"

#include <cmath>

namespace gapstudio::model::detail {

namespace {

/// The three GEMMs of a matrix layer (forward, activation gradient, weight gradient) for the
/// forward product (M x N) by (N x K): output rows, output columns and reduction depth.
struct GemmShape {
    double rows = 0, columns = 0, depth = 0;
};

GemmShape stageShape(const Layer &l, Stage s) noexcept
{
    if (l.kind == LayerKind::BatchMatMul)
        return {l.gemmM, l.gemmK, l.gemmN}; // both backward products have the forward's size
    switch (s) {
    case Stage::Agrad:
        return {l.gemmM, l.gemmN, l.gemmK}; // dX = dY W^T
    case Stage::Wgrad:
        return {l.gemmN, l.gemmK, l.gemmM}; // dW = X^T dY: the tokens are the reduction
    case Stage::Fw:
    case Stage::Optim:
        break;
    }
    return {l.gemmM, l.gemmK, l.gemmN}; // Y = X W
}

/// Bytes of the separate FP8/FP4 cast kernels of a low-precision linear layer: the 16-bit input
/// (forward) or output gradient (backward) is read and written in the low datatype, and the
/// weight gradient needs the transposed low-precision copies of both (Transformer Engine,
/// "Using FP8 with Transformer Engine": casts and transposes run outside the GEMM).
double castBytes(const Layer &l, const LayerContext &c, Stage s) noexcept
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

} // namespace

double eagerExtraBytes(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    if (!c.eagerKernels || (s != Stage::Fw && s != Stage::Agrad))
        return 0;
    const double b = c.bytesPerElement; // the 16-bit activations
    constexpr double f = 4;             // FP32 temporaries
    const bool fw = s == Stage::Fw;
    if (l.kind == LayerKind::LayerNorm) {
        // torchtitan's RMSNorm (torchtitan/models/norms.py at 9dec370): x.float() [b + f],
        // pow(2) [2f], mean(-1) [f], x * rsqrt(...) [2f], type_as(x) [f + b], * weight [2b]:
        // 7f + 4b per element against the fused kernel's 2b (read x, write y).
        // Backward under PyTorch autograd (tools/autograd/derivatives.yaml, FunctionsManual.cpp
        // at torch 1963fc8): * weight: grad * w [2b] and sum(grad * y) [3b + b]; the cast back to
        // FP32 [b + f]; x * r: grad * r [2f] and sum(grad * x) [3f + f]; mean_backward's division
        // [f]; pow_backward grad * (2 * x.pow(1)): copy, scale, product [2f + 2f + 3f]; the sum of
        // x's two gradients [3f]; the cast to 16 bits [f + b]: 19f + 8b against the fused 4b
        // (read x and dy for dx and dw, write both).
        return l.inputs * (fw ? 7 * f + 2 * b : 19 * f + 4 * b);
    }
    if (l.kind == LayerKind::GeLU && c.gatedActivation) {
        // torchtitan's FeedForward, w2(F.silu(w1(x)) * w3(x)) (torchtitan/models/llama/model.py
        // at 9dec370), per element of the gate: silu [2b] and the product [3b] against the fused
        // 2b; backward: the product's two gradients [3b + 3b] and silu_backward [3b] against 2b.
        return l.inputs * (fw ? 3 * b : 7 * b);
    }
    return 0;
}

double gemmShapeEfficiency(double m, double n, double depth, double count, const LayerContext &c) noexcept
{
    double efficiency = 1;
    if (c.tileM > 0 && c.tileN > 0 && m > 0 && n > 0) {
        // Tile quantisation: the kernel computes whole tiles, padding the output up to them.
        const auto tileM = static_cast<double>(c.tileM);
        const auto tileN = static_cast<double>(c.tileN);
        const double tilesM = std::ceil(m / tileM);
        const double tilesN = std::ceil(n / tileN);
        efficiency *= (m * n) / (tilesM * tileM * tilesN * tileN);
        if (c.smCount > 0) {
            // Wave quantisation: tiles run in waves of one per SM; the last wave may be partial.
            const double tiles = count * tilesM * tilesN;
            const auto sms = static_cast<double>(c.smCount);
            efficiency *= tiles / (std::ceil(tiles / sms) * sms);
        }
    }
    const double halfDepth = c.calibration ? c.calibration->gemmHalfDepth : 0;
    if (halfDepth > 0 && depth > 0)
        efficiency *= depth / (depth + halfDepth);
    return efficiency;
}

StageCost calibratedStageCost(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    const Calibration &cal = *c.calibration;
    StageCost cost;
    cost.flops = stageFlops(l, c, s);
    cost.bytes = stageMemAccessed(l, c, s) + eagerExtraBytes(l, c, s);
    // Every kernel of the software stack runs at computeEfficiency of its hardware rate.
    const double hbm = c.mem1->bandwidth_Bps * cal.hbmEfficiency * cal.computeEfficiency;
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
            rate = c.vector->peak_flops * c.vector->efficiency.lookup(cost.flops);
        }
        cost.flopTime = cost.flops / (rate * cal.computeEfficiency);
    }
    if (c.recipe && l.lowPrecision && s != Stage::Optim)
        cost.castTime = castBytes(l, c, s) / hbm;
    return cost;
}

double exposedWithOverlapEfficiency(const LayerContext &c, double link, double exposed) noexcept
{
    if (!c.calibration || !(link > exposed))
        return exposed;
    return exposed + (1 - c.calibration->overlapEfficiency) * (link - exposed);
}

} // namespace gapstudio::model::detail
