// Layer sequence of one transformer block: calculon-model.md §3.1 (Megatron-LM's attention and
// MLP blocks with Korthikanti et al.'s sequence parallelism and selective recompute).
#include "engine/block_builder.h"

namespace gapstudio::model::detail {

namespace {

/// Average keys a query attends to (corrected model): causal attention sees (s + 1) / 2 keys
/// per query; a sliding window of W keys sees sum_i min(i, W) / s; averaged over the blocks
/// that use each (FlashAttention-2 counts causal attention as half the full FLOPs).
double attendedKeys(const Application &app)
{
    const double s = d(app.seqSize);
    const double causal = (s + 1) / 2;
    if (app.slidingWindow <= 0 || app.slidingWindow >= app.seqSize || app.slidingWindowBlocks <= 0)
        return causal;
    const double w = d(app.slidingWindow);
    const double windowed = (w * (w + 1) / 2 + (s - w) * w) / s;
    const double share = d(std::min(app.slidingWindowBlocks, app.numBlocks)) / d(app.numBlocks);
    return share * windowed + (1 - share) * causal;
}

/// Multi-head latent attention projections (DeepSeek-V3 technical report, section 2.1.1;
/// Megatron-Core MLASelfAttention): the down projections are replicated on every TP rank, the
/// up projections split by heads. Writes the per-rank query and key/value widths.
void buildLatentProjections(BlockBuilder &b, const Application &app, I tokens, I tp, Flags f)
{
    const I h = app.hidden;
    const I a = app.attnHeads;
    const I dqk = app.attnSize + app.ropeHeadSize;
    const I dv = app.valueHeadSize > 0 ? app.valueHeadSize : app.attnSize;
    if (app.qLoraRank > 0) {
        b.linear("AttnBlock_Query_Down", tokens, h, app.qLoraRank, f);
        b.layerNorm("AttnBlock_Query_Norm", tokens * app.qLoraRank, f);
        b.linear("AttnBlock_Query_Up", tokens, app.qLoraRank, a * dqk / tp, f);
    } else {
        b.linear("AttnBlock_Query", tokens, h, a * dqk / tp, f);
    }
    b.linear("AttnBlock_KV_Down", tokens, h, app.kvLoraRank + app.ropeHeadSize, f);
    b.layerNorm("AttnBlock_KV_Norm", tokens * app.kvLoraRank, f);
    b.linear("AttnBlock_KV_Up", tokens, app.kvLoraRank, a * (app.attnSize + dv) / tp, f);
}

/// Whether a dropout of probability p runs a kernel: PyTorch's dropout returns its input when
/// p = 0 (aten/src/ATen/native/Dropout.cpp, _dropout_impl; docs/references.md), so a model trained
/// without dropout has none. Unstated (p < 0) and the references: it runs, as they assume.
bool dropoutRuns(double p, const Features &features) noexcept
{
    return !(features.dropout && p == 0.0);
}

} // namespace

I tokensPerRank(const Application &app, const Execution &exe, const Features &features) noexcept
{
    const I tokens = exe.microbatchSize * app.seqSize;
    return features.attention ? tokens / exe.contextPar : tokens;
}

void buildAttention(BlockBuilder &b, const Application &app, const Execution &exe, std::int64_t local,
                    const Features &features)
{
    const I tp = exe.tensorPar;
    const I h = app.hidden;
    const I s = app.seqSize;
    const I a = app.attnHeads;
    const I dh = app.attnSize;
    const I batchSeq = tokensPerRank(app, exe, features); // mbs * s (/ CP in the corrected model)
    const I act = batchSeq * h; // A: full activation

    const bool full = exe.activationRecompute == Recompute::Full;
    const bool attn = full || exe.activationRecompute == Recompute::AttnOnly;
    const bool agRedoAttn = attn || exe.seqParAgRedo;
    const bool overlap = exe.tensorParOverlap != TpOverlap::None;
    const bool multiquery = exe.attentionType == AttentionType::MultiQuery;
    const bool latent = features.attention && (app.qLoraRank > 0 || app.kvLoraRank > 0);
    const bool flash = features.attention && exe.attentionKernel == AttentionKernel::Flash;
    // Key/value heads: grouped-query (Application::kvHeads), else 1 (MQA) or a (MHA). Their K and
    // V projections are split by TP when the heads divide evenly, else every rank holds them all
    // (MQA is the g = 1 case of the latter, MHA the g = a case of the former). Without grouping
    // the reference's rule stays: MQA replicated, MHA split (a % tp may be non-zero in MoE blocks).
    const I kvHeads = latent ? a : app.kvHeads > 0 ? app.kvHeads : (multiquery ? 1 : a);
    const bool kvReplicated = latent ? false : app.kvHeads > 0 ? kvHeads % tp != 0 : multiquery;

    b.fork("AttnBlock_Fork", local, 2, {full, false, false, true, true});
    b.layerNorm("AttnBlock_LayerNorm", local, {full, false, true, false, true});
    if (latent) {
        b.tpComm("AttnBlock_F", act, false, {false, agRedoAttn, false, true, true});
        buildLatentProjections(b, app, batchSeq, tp, {full, false, true, false, true});
    } else if (!overlap) {
        b.tpComm("AttnBlock_F", act, false, {false, agRedoAttn, false, true, true});
        b.fork("AttnBlock_Multihead_Fork", act, 3, {agRedoAttn, false, false, !agRedoAttn, true});
        const I kv = kvReplicated ? kvHeads * dh : kvHeads * dh / tp;
        b.linear("AttnBlock_Query", batchSeq, h, a * dh / tp, {full, false, true, false, true});
        b.linear("AttnBlock_Key", batchSeq, h, kv, {full, false, true, false, true});
        b.linear("AttnBlock_Value", batchSeq, h, kv, {full, false, true, false, true});
    } else if (!kvReplicated) {
        b.linearOverlapped("AttnBlock_QKV_AG", batchSeq, h, (a + 2 * kvHeads) * dh, false, {full, agRedoAttn});
    } else {
        b.linearOverlapped("AttnBlock_Query_AG", batchSeq, h, a * dh, false, {full, agRedoAttn});
        b.fork("AttnBlock_KV_Fork", act, 2, {agRedoAttn, false, false, !agRedoAttn, true});
        b.linear("AttnBlock_Key", batchSeq, h, kvHeads * dh, {full, false, true, false, true});
        b.linear("AttnBlock_Value", batchSeq, h, kvHeads * dh, {full, false, true, false, true});
    }
    const I dv = latent && app.valueHeadSize > 0 ? app.valueHeadSize : dh;
    const I dqk = latent ? dh + app.ropeHeadSize : dh; // latent attention: rotary part on Q and K
    if (flash) {
        const I heads = a / tp;
        const I kvLocal = kvReplicated ? kvHeads : kvHeads / tp;
        const I kvElements = batchSeq * kvLocal * (dqk + dv);
        b.flashAttention("AttnBlock_FlashAttention", heads, batchSeq, attendedKeys(app), dqk, dv, kvElements,
                         {attn, attn, false, true, true}, exe.contextPar,
                         exe.contextPar > 1 ? b.tier(exe.contextParNet) : nullptr, kvElements);
    } else {
        const I scores = a / tp * s * s * exe.microbatchSize;
        // Unfused (Transformer Engine's UnfusedDotProductAttention): the full s x s scores of
        // every head in HBM, Q K^T over dqk and the probabilities times V over dv.
        b.batchMatMul("AttnBlock_Multihead_Key_Query", exe.microbatchSize * a / tp, s, dqk, s,
                      { attn, false, false, true, !attn });
        b.elementwiseLike("AttnBlock_Multihead_SoftMax", LayerKind::SoftMax, scores, 5, 8,
                          {attn, false, false, true, !attn});
        if (dropoutRuns(app.attentionDropout, features))
            b.elementwiseLike("AttnBlock_Multihead_DropOut", LayerKind::DropOut, scores, 1, 1,
                              { attn, false, false, !attn, true });
        b.batchMatMul("AttnBlock_Multihead_Attn", exe.microbatchSize * a / tp, s, s, latent ? dv : a * dh / a,
                      { full });
    }
    if (latent || !overlap) {
        b.linear("AttnBlock_MLP", batchSeq, a * dv / tp, h, {full});
        b.tpComm("AttnBlock_G", act, true, {false, full, false, false, true});
    } else {
        b.linearOverlapped("AttnBlock_MLP_RS", batchSeq, a * dh, h, true, {full, full});
    }
    if (dropoutRuns(app.hiddenDropout, features))
        b.elementwiseLike("AttnBlock_DropOut", LayerKind::DropOut, local, 1, 1, { full });
    b.residual("AttnBlock_Residual", local, local, {full, false, true, false, true});
}

Block buildBlock(const Application &app, const Execution &exe, const System &sys, const Quirks &quirks,
                 const Features &features, std::int64_t feedforward) noexcept
{
    const I tp = exe.tensorPar;
    const I h = app.hidden;
    const I batchSeq = tokensPerRank(app, exe, features);
    const I act = batchSeq * h;            // A: full activation
    const I seqParAct = batchSeq / tp * h; // A_s: sequence-parallel activation
    // LayerNorm, dropout and residual work on A_s with sequence parallelism (rs_ag).
    const I local = exe.tensorParCommType == TpCommType::RsAg ? seqParAct : act;
    const bool full = exe.activationRecompute == Recompute::Full;
    const bool agRedoMlp = full || exe.seqParAgRedo;
    const bool overlap = exe.tensorParOverlap != TpOverlap::None;
    // SwiGLU (Llama-style gated MLP): the up projection is twice as wide (gate and value) and the
    // activation multiplies the halves. Both references always use GeLU in dense blocks.
    const bool swiglu = exe.activationFunction == ActivationFunction::Silu && !quirks.denseMlpAlwaysGelu;
    const I ff = feedforward > 0 ? feedforward : app.feedforward;
    const I up = swiglu ? 2 * ff : ff;

    Block block; // built in place and returned without a copy (NRVO)
    BlockBuilder b(app, exe, sys, block);
    buildAttention(b, app, exe, local, features);
    b.fork("MlpBlock_Fork", local, 2, {full, false, false, true, true});
    b.layerNorm("MlpBlock_LayerNorm", local, {full, false, true, false, true});
    if (!overlap) {
        b.tpComm("MlpBlock_F", act, false, {false, agRedoMlp, false, true, true});
        b.linear("MlpBlock_Mlp1", batchSeq, h, up / tp, {full, false, false, !agRedoMlp, true});
    } else {
        b.linearOverlapped("MlpBlock_Mlp1_AG", batchSeq, h, up, false, {full, agRedoMlp});
    }
    if (swiglu)
        b.swiglu("MlpBlock_SwiGLU", ff * batchSeq / tp, {full});
    else
        b.gelu("MlpBlock_GeLU", ff * batchSeq / tp, {full});
    if (!overlap) {
        b.linear("MlpBlock_Mlp2", batchSeq, ff / tp, h, {full});
        b.tpComm("MlpBlock_G", act, true, {false, full, false, false, true});
    } else {
        b.linearOverlapped("MlpBlock_Mlp2_RS", batchSeq, ff, h, true, {full, full});
    }
    if (dropoutRuns(app.hiddenDropout, features))
        b.elementwiseLike("MlpBlock_DropOut", LayerKind::DropOut, local, 1, 1, { full });
    b.residual("MlpBlock_Residual", local, local, {full, false, true, false, true});
    return block;
}

} // namespace gapstudio::model::detail
