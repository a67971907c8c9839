// The MoE block of calculon-MoE (github.com/HanjiangWu313/calculon-MoE at e3eb609, the model of
// Tithi et al., ICS'26; calculon-moe-model.md §4): the upstream attention, a router (LayerNorm,
// expert projection, top-k, softmax over the k logits, bucketing, dispatch all-to-all over EP,
// all-gather over ES) and E/EP local experts, then reduce-scatter over ES, combine all-to-all
// and the residual add. There is no dense MLP, MLP LayerNorm or MLP dropout.
#include "block_builder.h"

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

} // namespace

Block buildMoeBlock(const Application &app, const Execution &exe, const System &sys, const Quirks &quirks,
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

    Block block; // built in place and returned without a copy (NRVO)
    BlockBuilder b(app, exe, sys, block);
    buildAttention(b, app, exe, local, features);

    // Router.
    b.fork("RouterBlock_Fork", local, 2, {full, false, false, true, true});
    b.layerNorm("RouterBlock_LayerNorm", local, {full, false, true, false, true});
    b.linear("RouterBlock_ExpertProjection", shardTokens, h, experts, {full});
    // Q2: the top-k sees t tokens rather than t*E logits.
    b.routing("RouterBlock_SelectTopK", shardTokens, k * shardTokens, shardTokens / experts * k,
              {full, false, false, false, keepOutputs});
    b.elementwiseLike("RouterBlock_Normalized_SoftMax", LayerKind::SoftMax, shardTokens * k, 5, 8,
                      {full, false, false, true, !full});
    b.routing("RouterBlock_TensorTransformation", shardTokens * k, shardTokens * k, shardTokens * k,
              {full, false, false, false, keepOutputs});
    if (features.moeDetails) {
        // Megatron-Core's token dispatcher copies each token once per chosen expert into
        // expert order before the all-to-all (moe_utils.permute) and back after it.
        b.elementwiseLike("RouterBlock_Permute", LayerKind::ElementWise, dispatch, 0, 0,
                          {full, false, false, false, true});
        if (app.sharedExperts > 0)
            buildSharedExperts(b, app, exe, tokens, full);
    }
    // Q8: the all-to-alls are never overlapped nor re-sent under recompute.
    b.allToAll("RouterBlock_All2All_Expert", dispatch, {false, false, false, false, keepOutputs}, ep,
               b.tier(exe.expertParNet));
    b.collective("RouterBlock_Gather_ExpertSlice", gathered, false, {false, agRedo, false, true, true}, es,
                 b.tier(exe.expertSliceNet), TpCommType::RsAg)
        .group = CommGroup::Es;

    // Experts.
    Layer &mlp1 = b.expertLinear("MlpBlock_Mlp1_MoE", localExperts, perExpert, h, silu ? 2 * width : width,
                                 {full, false, false, true, true});
    if (silu)
        b.swiglu("MlpBlock_SwiGLU_MoE", localExperts * perExpert * width, {full});
    else
        b.gelu("MlpBlock_GeLU_MoE", localExperts * perExpert * width, {full});
    Layer &mlp2 = b.expertLinear("MlpBlock_Mlp2_MoE", localExperts, perExpert, width, h, {full});
    if (!quirks.expertOptimizerShardedByDp) {
        // Corrected Q5: expert optimizer state and gradients are sharded over expert DP.
        const double shards = exe.optimizerSharding ? static_cast<double>(exe.dataParExp) : 1.0;
        mlp1.optimizerShards = mlp2.optimizerShards = shards;
    }
    b.collective("MlpBlock_Reduce_MoE_ExpertSlice", gathered, true, {false, agRedo, false, false, true}, es,
                 b.tier(exe.expertSliceNet), TpCommType::RsAg)
        .group = CommGroup::Es;
    b.allToAll("MlpBlock_All2All_MoE_Expert", combine, {false, false, false, false, keepOutputs}, ep,
               b.tier(exe.expertParNet));
    if (features.moeDetails)
        b.elementwiseLike("MlpBlock_Unpermute", LayerKind::ElementWise, combine, 1, 1,
                          {full, false, false, false, true});
    b.residual("MlpBlock_MoE_Add", local, local, {full, false, true, false, true});
    return block;
}

} // namespace gapstudio::model::detail
