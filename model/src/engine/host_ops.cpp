// The counts of host_ops.h, by hand from the sources in docs/references.md ("MoE host
// operators"), and the MoE block's wait for the host that they set.
#include "engine/host_ops.h"

#include "engine/block_stats.h"

#include <algorithm>

namespace gapstudio::model::detail {

namespace {

/// Operators of the attention half of the layer (input norm, QKV GEMM, rotary embedding of Q and
/// K, fused attention, output GEMM, bias-dropout-add, pre-MLP norm) and the MLP's residual add.
constexpr double kAttentionHostOps = 8;
constexpr double kResidualHostOps = 1;
/// Multi-head latent attention's half (Megatron-Core core_v0.14.0
/// multi_latent_attention.py with the fused MLA rotary embedding): input norm, the key/value
/// down projection, its norm and up projection, the fused rotary embedding of the query and of
/// the key/value, attention, output GEMM, bias-dropout-add, pre-MLP norm: 11, and with a
/// low-rank query (q_lora_rank) its down projection and norm before the up projection, 2 more
/// (a full-rank query's single projection replaces the up projection).
constexpr double kLatentAttentionHostOps = 11;
constexpr double kLowRankQueryHostOps = 2;
/// A group-limited router (DeepSeek-V3's: sigmoid scores, expert bias, 8 groups of which 4
/// are kept, sequence-level auxiliary loss), as NVIDIA counted its kernels on GB200: 72, and
/// 31 with --moe-router-fusion (NVIDIA/Megatron-LM@eb0783b deepseek-v3-gb200-optimization.md
/// section 2.1.4; the router options in the reproduce guide).
constexpr double kGroupLimitedRouterHostOps = 72;
constexpr double kFusedGroupLimitedRouterHostOps = 31;
/// The shared expert MLP (fc1, activation, fc2) and the sum of its output with the routed
/// experts': computed after the dispatch, beside the routed experts (moe_layer.py
/// experts_compute and combine).
constexpr double kSharedExpertHostOps = 4;
/// The router: its GEMM 1, top-k and softmax scores 12, the auxiliary load-balancing loss 15
/// (Megatron-Core core_v0.14.0 router.py and moe_utils.py: docs/references.md); fused
/// (--moe-router-fusion, Transformer Engine's fused router kernels): the GEMM, one top-k kernel
/// and 5 for the loss.
constexpr double kRouterHostOps = 28;
constexpr double kFusedRouterHostOps = 7;
/// The dispatcher's preprocessing: token counts and the all-gather of the counts
/// (token_dispatcher.py).
constexpr double kPreprocessHostOps = 7;
/// The fused permutation, queued before the host waits (Transformer Engine v2.8 permutation.py).
constexpr double kPermuteHostOps = 4;
/// After the wait: the dispatch all-to-alls of tokens and probabilities 2, sorting the chunks by
/// local expert 2, the weighted SwiGLU 3, unsorting 1, the combine all-to-all 1, unpermuting 1,
/// and the two grouped GEMMs' own bookkeeping 2.
constexpr double kDispatchHostOps = 12;
/// The flex dispatcher with DeepEP (Megatron-Core core_v0.14.0 token_dispatcher.py,
/// MoEFlexTokenDispatcher and _DeepepManager, and moe/fused_a2a.py): before the host wait the
/// top-k of the routing probabilities (setup_metadata), the dispatch layout and DeepEP's notify
/// kernel, whose received-token counts the host waits for inside the dispatch; the permutation
/// before the all-to-all is fused into DeepEP's dispatch kernel.
constexpr double kDeepEpPreprocessHostOps = 1;
constexpr double kDeepEpLayoutHostOps = 2;
/// After the wait: the dispatch kernel, the counts' tensor, the routing map turned multi-hot
/// (fused, with --enable-experimental as NVIDIA's DeepSeek-V3 guide recommends), the fused
/// permutation by local expert (4, as kPermuteHostOps), the weighted SwiGLU 3, unpermuting 1,
/// the combine kernel and the two grouped GEMMs' bookkeeping 2.
constexpr double kDeepEpDispatchHostOps = 14;
/// Per local expert: Transformer Engine's grouped linear issues one GEMM per expert and layer
/// (two layers). In FP8 (MXFP8) each expert's two GEMM inputs and two weights are quantised
/// apart, and each GEMM call swizzles its scales (4 fixed).
constexpr double kExpertHostOps = 2;
constexpr double kExpertHostOpsLowPrecision = 6;
constexpr double kLowPrecisionFixedHostOps = 4;

/// A part captured in a CUDA graph costs the host one graph launch instead of its operators.
constexpr double graphed(double ops, std::uint8_t scopes, CudaGraphScope scope) noexcept
{
    return (scopes & scope) != 0 ? 1 : ops;
}

} // namespace

double moeHostOps(const MoeLayerShape &layer) noexcept
{
    const auto e = static_cast<double>(layer.localExperts);
    const double experts = layer.lowPrecision ? kLowPrecisionFixedHostOps + e * kExpertHostOpsLowPrecision
                                              : e * kExpertHostOps;
    const std::uint8_t scopes = layer.graphScopes;
    double attention = kAttentionHostOps;
    if (layer.latentAttention)
        attention = kLatentAttentionHostOps + (layer.lowRankQuery ? kLowRankQueryHostOps : 0);
    attention = graphed(attention, scopes, kGraphAttn);
    // A CUDA graph of the whole MoE layer (scope "moe", possible with fixed expert capacities
    // only) takes everything after the attention half: one launch, and the residual add.
    if ((scopes & kGraphMoe) != 0)
        return attention + 1 + kResidualHostOps;
    double router = layer.routerFusion ? kFusedRouterHostOps : kRouterHostOps;
    if (layer.groupLimitedRouter)
        router = layer.routerFusion ? kFusedGroupLimitedRouterHostOps : kGroupLimitedRouterHostOps;
    const double shared = layer.sharedExperts ? kSharedExpertHostOps : 0;
    const double routed = attention + graphed(router, scopes, kGraphMoeRouter);
    // After either dispatcher's own operators: the experts, the shared expert, the residual add.
    const double after = experts + shared + kResidualHostOps;
    if (layer.deepEpDispatch)
        return routed + graphed(kDeepEpPreprocessHostOps, scopes, kGraphMoePreprocess) + kDeepEpLayoutHostOps
               + (kDeepEpDispatchHostOps + after);
    return routed + graphed(kPreprocessHostOps, scopes, kGraphMoePreprocess) + kPermuteHostOps
           + (kDispatchHostOps + after);
}

/// The time an MoE block's passes wait for the host (host_ops.h). Every pass of a block whose
/// dispatcher makes the host wait for the GPU every layer (Block::hostWaits,
/// moeDispatcherSyncsHost) runs at the host's launch pace: each wait empties the GPU's queue, so
/// the host never gets ahead, and the operators' host time adds to the GPU's time for the pass.
/// With the EP all-to-all overlap, Megatron-Core issues each layer's backward operators between
/// its forward ones, so the forward's wait stops the backward's issue too; without it the
/// published runs say the same (docs/references.md, "MoE host operators": the launch pace). A
/// block whose host never waits runs ahead: its host time hides behind the GPU's, up to it. The
/// backward pass issues twice the forward's operators.
double addHostWait(const Block &block, const LayerContext &ctx, const Execution &exe, const BlockComm &comm,
                   Stats &o) noexcept
{
    const double op = ctx.hostOpTime_s * ctx.calibration->hostOpScale;
    const double host = block.hostOps * op; // one forward pass
    const bool waits = block.hostWaits;
    // What a pass issuing `passHost` of host work adds to its GPU time `gpu`: all of it at launch
    // pace, else what the GPU's time cannot hide.
    const auto hidden = [](double passHost, double gpu) { return std::max(0.0, passHost - gpu); };
    const double fw = waits ? host : hidden(host, o.block_fw_time + comm.fwExposed(0));
    o.block_fw_time += fw;
    o.block_moe_host_wait_fw_time = fw;
    if (!exe.training)
        return fw;
    const double bw
        = waits ? 2 * host : hidden(2 * host, o.block_agrad_time + o.block_wgrad_time + comm.bwExposed(0));
    o.block_agrad_time += bw;
    o.block_moe_host_wait_bw_time = bw;
    double re = 0;
    if (exe.activationRecompute == Recompute::Full) {
        re = waits ? host : hidden(host, o.block_re_time + comm.recommExposed(0));
        o.block_re_time += re;
    }
    o.block_moe_host_wait_re_time = re;
    return fw + bw + re;
}

} // namespace gapstudio::model::detail
