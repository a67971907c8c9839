// Kernel times of the corrected model from a calibration (model::Calibration): the reference's
// size-threshold efficiency tables give way to a GEMM efficiency that depends on the GEMM's shape
// (tile and wave quantisation, reduction depth), datatype and GPU, an attention-kernel efficiency,
// an HBM efficiency and the roofline of compute and memory time. Sources: docs/references.md
// (CUTLASS and cuBLAS tile quantisation, NVIDIA "Matrix Multiplication Background" guide; the
// FP8 casts of Transformer Engine). The stage cost itself, calibratedStageCost(), is inline in
// layers.h (it runs for every stage of every layer); its parts that are not are here.
#include "engine/layers.h"

#include <cmath>

namespace gapstudio::model::detail {

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

double exposedWithOverlapEfficiency(const LayerContext &c, double link, double exposed) noexcept
{
    if (!c.calibration || !(link > exposed))
        return exposed;
    return exposed + (1 - c.calibration->overlapEfficiency) * (link - exposed);
}

} // namespace gapstudio::model::detail
