// The MoE block of calculon-MoE (github.com/HanjiangWu313/calculon-MoE at e3eb609, the model of
// Tithi et al., ICS'26; calculon-moe-model.md §4): the upstream attention, a router (LayerNorm,
// expert projection, top-k, softmax over the k logits, bucketing, dispatch all-to-all over EP,
// all-gather over ES) and E/EP local experts, then reduce-scatter over ES, combine all-to-all
// and the residual add. There is no dense MLP, MLP LayerNorm or MLP dropout.
#include "engine/block_builder.h"

#include <cmath>

namespace gapstudio::model::detail {

namespace {

/// Shared experts (DeepSeekMoE, Dai et al. 2024; Megatron-Core SharedExpertMLP): a dense gated
/// MLP of shared_experts x their width that every token passes, split over TP like the dense MLP.
void buildSharedExperts(BlockBuilder &b, const Application &app, const Execution &exe, I tokens, bool full)
{
    const I tp = exe.tensorPar;
    const I width = app.sharedExperts * app.sharedExpertFeedforward;
    const bool silu = exe.activationFunction == ActivationFunction::Silu;
    const I act = tokens * app.hidden;
    b.tpComm("SharedExpert_F", act, false, {false, full || exe.seqParAgRedo, false, true, true});
    b.linear("SharedExpert_Mlp1", tokens, app.hidden, (silu ? 2 * width : width) / tp, {full});
    if (silu)
        b.swiglu("SharedExpert_SwiGLU", width * tokens / tp, {full});
    else
        b.gelu("SharedExpert_GeLU", width * tokens / tp, {full});
    b.linear("SharedExpert_Mlp2", tokens, width / tp, app.hidden, {full});
    b.tpComm("SharedExpert_G", act, true, {false, full, false, false, true});
}

/// The sizes of one MoE block on one GPU (calculon-moe-model.md §4).
struct MoeSizes {
    I tokens, k, experts, ep, es, localExperts, local, shardTokens, pairs;
    bool full, agRedo, keepOutputs;
    I perExpert, gathered, dispatch, combine, width;
    bool silu;
};

MoeSizes moeSizes(const Application &app, const Execution &exe, const Quirks &quirks,
                  const Features &features) noexcept
{
    const I tp = exe.tensorPar;
    const I h = app.hidden;
    const I tokens = tokensPerRank(app, exe, features); // T (per CP rank in the corrected model)
    const I k = exe.topKExperts;
    const I experts = exe.numExperts;
    const I ep = exe.expertPar;
    const I es = exe.expertSlice;
    const I localExperts = experts / ep; // e
    const I local = tokens * h / tp;     // t*h: the sequence-parallel activation
    const I shardTokens = tokens / tp;   // t
    const bool full = exe.activationRecompute == Recompute::Full;
    const bool agRedo = full || exe.seqParAgRedo;
    // Q3: top-k, bucketing and all-to-all subtract their buffers from the stored activations.
    const bool keepOutputs = !quirks.negativeStoredActivations;

    // Routed token-expert pairs this GPU's experts process, and the ES-gathered buffer.
    // Q1 (reference): all T*k pairs of the microbatch land on the GPU's e experts, whose width
    // is f/ES, so expert work scales with 1/ES; only right when ES = TP. Corrected: the TP*DP
    // GPUs of a stage share the pairs, so the GPU gets T*k*ES/TP of them at width f/ES.
    I pairs = quirks.expertWorkScalesWithEs ? tokens * k : tokens * k * es / tp;
    if (features.moeDetails && exe.moeCapacityFactor > 0) // experts padded to their capacity
        pairs = static_cast<I>(std::ceil(exe.moeCapacityFactor * d(pairs)));
    const I perExpert = pairs / localExperts; // Te
    const I gathered = pairs * h;             // ES all-gather / reduce-scatter buffer
    const I dispatch = tokens * k / tp * h;   // per-GPU dispatch all-to-all
    const I combine = quirks.expertWorkScalesWithEs ? tokens * k * h / es : dispatch;
    const I width = app.feedforward / es;     // f' = f // ES
    const bool silu = exe.activationFunction == ActivationFunction::Silu;
    return { .tokens = tokens,
             .k = k,
             .experts = experts,
             .ep = ep,
             .es = es,
             .localExperts = localExperts,
             .local = local,
             .shardTokens = shardTokens,
             .pairs = pairs,
             .full = full,
             .agRedo = agRedo,
             .keepOutputs = keepOutputs,
             .perExpert = perExpert,
             .gathered = gathered,
             .dispatch = dispatch,
             .combine = combine,
             .width = width,
             .silu = silu };
}

/// The router: LayerNorm, expert projection, top-k, softmax over the k logits, bucketing, the
/// dispatch all-to-all over EP and the all-gather over ES.
void buildRouter(BlockBuilder &b, const Application &app, const Execution &exe, const Features &features,
                 const MoeSizes &s) noexcept
{
    const I h = app.hidden;
    b.fork("RouterBlock_Fork", s.local, 2, { s.full, false, false, true, true });
    b.layerNorm("RouterBlock_LayerNorm", s.local, { s.full, false, true, false, true });
    b.linear("RouterBlock_ExpertProjection", s.shardTokens, h, s.experts, { s.full });
    // Q2: the top-k sees t tokens rather than t*E logits.
    b.routing("RouterBlock_SelectTopK", s.shardTokens, s.k * s.shardTokens, s.shardTokens / s.experts * s.k,
              { s.full, false, false, false, s.keepOutputs });
    b.elementwiseLike("RouterBlock_Normalized_SoftMax", LayerKind::SoftMax, s.shardTokens * s.k, 5, 8,
                      { s.full, false, false, true, !s.full });
    b.routing("RouterBlock_TensorTransformation", s.shardTokens * s.k, s.shardTokens * s.k,
              s.shardTokens * s.k, { s.full, false, false, false, s.keepOutputs });
    if (features.moeDetails) {
        // Megatron-Core's token dispatcher copies each token once per chosen expert into
        // expert order before the all-to-all (moe_utils.permute) and back after it.
        b.elementwiseLike("RouterBlock_Permute", LayerKind::ElementWise, s.dispatch, 0, 0,
                          { s.full, false, false, false, true });
        if (app.sharedExperts > 0)
            buildSharedExperts(b, app, exe, s.tokens, s.full);
    }
    // Q8: the all-to-alls are never overlapped nor re-sent under recompute.
    b.allToAll("RouterBlock_All2All_Expert", s.dispatch, { false, false, false, false, s.keepOutputs }, s.ep,
               b.tier(exe.expertParNet));
    Layer &gather = b.collective("RouterBlock_Gather_ExpertSlice", s.gathered, false,
                                 { false, s.agRedo, false, true, true }, s.es, b.tier(exe.expertSliceNet),
                                 TpCommType::RsAg);
    gather.group = CommGroup::Es;
}

/// The E/EP local experts, the reduce-scatter over ES, the combine all-to-all and the residual add.
void buildExperts(BlockBuilder &b, const Application &app, const Execution &exe, const Quirks &quirks,
                  const Features &features, const MoeSizes &s) noexcept
{
    const I h = app.hidden;
    Layer &mlp1 = b.expertLinear("MlpBlock_Mlp1_MoE", s.localExperts, s.perExpert, h,
                                 s.silu ? 2 * s.width : s.width, { s.full, false, false, true, true });
    if (s.silu)
        b.swiglu("MlpBlock_SwiGLU_MoE", s.localExperts * s.perExpert * s.width, { s.full });
    else
        b.gelu("MlpBlock_GeLU_MoE", s.localExperts * s.perExpert * s.width, { s.full });
    b.last().expertWork = true;
    Layer &mlp2 = b.expertLinear("MlpBlock_Mlp2_MoE", s.localExperts, s.perExpert, s.width, h, { s.full });
    if (!quirks.expertOptimizerShardedByDp) {
        // Corrected Q5: expert optimizer state and gradients are sharded over expert DP.
        const double shards = exe.optimizerSharding ? static_cast<double>(exe.dataParExp) : 1.0;
        mlp1.optimizerShards = mlp2.optimizerShards = shards;
    }
    Layer &reduce = b.collective("MlpBlock_Reduce_MoE_ExpertSlice", s.gathered, true,
                                 { false, s.agRedo, false, false, true }, s.es, b.tier(exe.expertSliceNet),
                                 TpCommType::RsAg);
    reduce.group = CommGroup::Es;
    b.allToAll("MlpBlock_All2All_MoE_Expert", s.combine, { false, false, false, false, s.keepOutputs }, s.ep,
               b.tier(exe.expertParNet));
    if (features.moeDetails)
        b.elementwiseLike("MlpBlock_Unpermute", LayerKind::ElementWise, s.combine, 1, 1,
                          { s.full, false, false, false, true });
    b.residual("MlpBlock_MoE_Add", s.local, s.local, { s.full, false, true, false, true });
}

/// The busiest GPU's routed token-expert pairs over the mean under dropless routing. Each of the
/// EP GPUs gets `pairs` on average; a router that spreads them uniformly at random (as
/// Megatron-Core's --moe-router-force-load-balancing benchmark mode does, with random logits) is
/// m = EP x pairs balls thrown into n = EP bins, whose fullest bin holds
/// m/n + sqrt(2 (m/n) ln n) for m >> n ln n (Raab and Steger, "Balls into Bins - A Simple and
/// Tight Analysis", RANDOM 1998, Theorem 1): 1 + sqrt(2 ln(EP) / pairs) times the mean. For a
/// trained router it is an estimate (its load per microbatch depends on the model and its
/// balancing loss). A capacity factor pads every expert to its capacity instead (moeSizes).
double expertLoadImbalance(const Execution &exe, const Features &features, const MoeSizes &s) noexcept
{
    if (!features.moeImbalance || exe.moeCapacityFactor > 0 || s.pairs < 1)
        return 1;
    return 1 + std::sqrt(2 * std::log(d(s.ep)) / d(s.pairs));
}

} // namespace

Block buildMoeBlock(const Application &app, const Execution &exe, const System &sys, const Quirks &quirks,
                    const Features &features) noexcept
{
    const MoeSizes s = moeSizes(app, exe, quirks, features);
    Block block; // built in place and returned without a copy (NRVO)
    BlockBuilder b(app, exe, sys, block);
    buildAttention(b, app, exe, s.local, features);
    buildRouter(b, app, exe, features, s);
    buildExperts(b, app, exe, quirks, features, s);
    block.expertImbalance = expertLoadImbalance(exe, features, s);
    if (features.calibrated) {
        const bool lowPrecision = exe.datatype == Datatype::Float8 || exe.datatype == Datatype::Float4;
        MoeLayerShape layer;
        layer.localExperts = s.localExperts;
        layer.lowPrecision = lowPrecision;
        layer.graphScopes = exe.cudaGraphScopes;
        layer.routerFusion = exe.moeRouterFusion;
        layer.latentAttention = app.kvLoraRank > 0;
        layer.lowRankQuery = app.qLoraRank > 0;
        layer.groupLimitedRouter = app.routerGroups > 1;
        layer.sharedExperts = app.sharedExperts > 0;
        layer.deepEpDispatch = exe.moeDispatcher == MoeDispatcher::FlexDeepEp;
        block.hostOps = moeHostOps(layer);
        block.hostWaits = moeDispatcherSyncsHost(exe);
    }
    return block;
}

} // namespace gapstudio::model::detail
