#pragma once
/**
 * @file fidelity.h
 * What the corrected model adds to the reference models to predict real training runs, and the
 * calibrated efficiencies it runs with. Every behaviour has one switch in Features; both reference
 * modes turn all of them off (Features::reference()), so their results stay bit-exact.
 * Sources of each formula: docs/references.md.
 */

#include "gapstudio/model/calculon_inputs.h"

#include <array>

namespace gapstudio::model {

struct Features {
    /// Input embedding on the first pipeline stage; final norm, LM head and cross-entropy loss on
    /// the last (vocabulary-parallel over TP, as Megatron-LM's VocabParallelEmbedding and
    /// vocab_parallel_cross_entropy); uneven stages and their imbalance.
    bool embeddingAndHead = false;
    /// Execution::attentionKernel, context parallelism, multi-head latent attention and sliding
    /// windows are honoured (the references always use unfused, full-sequence attention).
    bool attention = false;
    /// Mixed precision as Megatron-LM / Transformer Engine keep and send data: FP8/FP4 only in
    /// the linear layers of the blocks, 16-bit activations and messages, FP32 main gradients and
    /// master weights, and the cost of the FP8 casts.
    bool precisionRecipe = false;
    /// MoE as Megatron-Core runs it: grouped GEMMs, token permutation, shared experts, dense
    /// blocks and the capacity factor.
    bool moeDetails = false;
    /// Kernel times from the calibration (shape-aware GEMM efficiency, attention-kernel and HBM
    /// efficiency, per-block overhead, overlap efficiency) instead of the reference's
    /// size-threshold tables.
    bool calibrated = false;
    /// Execution::eagerKernels is honoured: the extra HBM traffic of unfused eager-mode
    /// element-wise kernels (with calibrated kernel times only).
    bool eagerKernels = false;
    /// Execution::pipelineScatterGather is honoured: without sequence parallelism, each TP rank
    /// sends 1/TP of the activation between pipeline stages and the receiver all-gathers it over
    /// TP (Narayanan et al. 2021, section 4.1; docs/references.md).
    bool pipelineScatterGather = false;
    /// Application::attentionDropout and hiddenDropout are honoured: a dropout of probability 0
    /// is no kernel (PyTorch's dropout returns its input unchanged when p = 0; docs/references.md).
    bool dropout = false;
    /// Dropless MoE routing loads the GPUs unevenly and the busiest one sets the pace: its expert
    /// layers take 1 + sqrt(2 ln(EP) / pairs) times the mean's time, the maximum load of
    /// balls thrown at random into EP bins (Raab and Steger 1998; docs/references.md).
    bool moeImbalance = false;

    [[nodiscard]] bool any() const noexcept
    {
        return embeddingAndHead || attention || precisionRecipe || moeDetails || calibrated || eagerKernels
               || pipelineScatterGather || dropout || moeImbalance;
    }
    [[nodiscard]] static constexpr Features reference() noexcept { return {}; }
    [[nodiscard]] static constexpr Features corrected() noexcept
    {
        return { true, true, true, true, true, true, true, true, true };
    }
};

/// Achieved efficiencies of one GPU under one software stack (a calibration preset resolved for
/// a scenario). Efficiencies are fractions in (0, 1]; overheads are seconds >= 0.
struct Calibration {
    /// Fraction of the matrix peak a large, well-shaped GEMM reaches, per datatype.
    std::array<double, kDatatypeCount> gemmEfficiency{0.8, 0.8, 0.8, 0.8, 0.8};
    /// Reduction depth K (elements) at which a GEMM runs at half its large-K efficiency: the
    /// prologue/epilogue and memory-bound share of short GEMMs, efficiency K / (K + K_half).
    double gemmHalfDepth = 0;
    /// Fraction of the 16-bit matrix peak the fused attention kernel reaches.
    double attentionEfficiency = 0.6;
    /// Fraction of the HBM bandwidth memory-bound kernels reach.
    double hbmEfficiency = 0.8;
    /// Software stack: multiplies every kernel's rate (host stalls, synchronisation).
    double computeEfficiency = 1;
    /// Software stack: fixed cost per transformer block, microbatch and pass (launches, host).
    double blockOverhead_s = 0;
    /// Software stack: the share of overlappable communication (DP, TP, CP) that really hides.
    double overlapEfficiency = 1;
    /// Software stack: a fixed cost per MoE block, microbatch and pass in the blocks whose
    /// dispatcher makes the host wait (a calibration file's moe_block_overhead_us). calibrate no
    /// longer fits it: hostOpScale costs the same wait from its mechanism.
    double moeBlockOverhead_s = 0;
    /// Software stack: host time per framework operator in bare PyTorch operators
    /// (System::hostOpTime_s, else kDefaultHostOpTime_s); the MoE blocks wait for the host's
    /// operators (engine/host_ops.h). calibrate writes 1; 0 (an older calibration file): the
    /// host's operators are not costed.
    double hostOpScale = 0;
};

/// Host CPU time to issue one PyTorch operator that launches one kernel, on the x86 host of a
/// DGX H100 (Intel Xeon Platinum 8480C): 13.48 us for torch.nn.Linear's forward
/// (NVIDIA/TransformerEngine issue 2053, 2025-08-11, its table of CPU runtimes; 37.08 us on a
/// GB200's Grace CPU). The corrected model assumes it for a GPU whose preset states no host.
inline constexpr double kDefaultHostOpTime_s = 13.48e-6;

/// A host's time per operator (System::hostOpTime_s), or kDefaultHostOpTime_s when it is unknown (0).
[[nodiscard]] constexpr double hostOpTimeOrDefault(double hostOpTime_s) noexcept
{
    return hostOpTime_s > 0 ? hostOpTime_s : kDefaultHostOpTime_s;
}

/// Whether the MoE token dispatcher makes the host wait in every MoE layer: the dropless
/// all-to-all dispatcher copies the tokens-per-expert counts to the host; a capacity factor (fixed
/// split sizes) or the flex dispatcher with a sync-free backend such as HybridEP does not
/// (Megatron-Core MoE documentation, token dispatchers). DeepEP's normal kernels do, inside the
/// dispatch, whatever the capacity (DeepEP docs/legacy.md; Megatron-Core core_v0.14.0
/// moe/fused_a2a.py, FusedDispatch.forward: "the CPU will wait for GPU's signal to arrive").
[[nodiscard]] constexpr bool moeDispatcherSyncsHost(const Execution &exe) noexcept
{
    return (exe.moeDispatcher == MoeDispatcher::AllToAll && !(exe.moeCapacityFactor > 0))
           || exe.moeDispatcher == MoeDispatcher::FlexDeepEp;
}

} // namespace gapstudio::model
