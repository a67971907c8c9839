#pragma once
// One layer of the transformer block as the reference model sees it (Calculon `llm/layers.py`
// at caa4b11): element counts and flags, what it needs to know about the run, and the shape of
// its per-stage costs. The cost functions are in layers.h, the memory footprints in
// layer_memory.h. Internal to the model.

#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/fidelity.h"

#include "engine/efficiency.h"

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

/// Element counts (not bytes) and flags of one layer, for one microbatch on one processor. Every
/// member has a default initialiser: BlockBuilder::add default-initialises its layers.
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
    bool expertWork = false;    ///< a routed expert's GEMM or activation (Block::expertImbalance)
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
    /// With a calibration: the HBM rate of its kernels, calibratedHbmRate() (set with it).
    double calibratedHbm_Bps = 0;
    std::int64_t smCount = 0, tileM = 0, tileN = 0;
    bool eagerKernels = false;    ///< Features::eagerKernels and Execution::eagerKernels
    bool gatedActivation = false; ///< the GeLU-kind layers are SwiGLU (silu and gating product)
    double hostOpTime_s = 0;      ///< System::hostOpTime_s, or kDefaultHostOpTime_s if unknown
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

/// The optimizer's shards of a layer's weights (data_par with optimizer sharding, else 1).
[[nodiscard]] inline double shards(const Layer &l, const LayerContext &c) noexcept
{
    return l.optimizerShards > 0 ? l.optimizerShards : c.optimizerShards;
}

} // namespace gapstudio::model::detail
