// Layer sequence of one transformer block: calculon-model.md §3.1 (Megatron-LM's attention and
// MLP blocks with Korthikanti et al.'s sequence parallelism and selective recompute).
#include "block_builder.h"

namespace gapstudio::model::detail {

void buildAttention(BlockBuilder &b, const Application &app, const Execution &exe, std::int64_t local)
{
    const I tp = exe.tensorPar;
    const I h = app.hidden;
    const I s = app.seqSize;
    const I a = app.attnHeads;
    const I dh = app.attnSize;
    const I batchSeq = exe.microbatchSize * s;
    const I act = batchSeq * h; // A: full activation

    const bool full = exe.activationRecompute == Recompute::Full;
    const bool attn = full || exe.activationRecompute == Recompute::AttnOnly;
    const bool agRedoAttn = attn || exe.seqParAgRedo;
    const bool overlap = exe.tensorParOverlap != TpOverlap::None;
    const bool multiquery = exe.attentionType == AttentionType::MultiQuery;
    // Key/value heads: grouped-query (Application::kvHeads), else 1 (MQA) or a (MHA). Their K and
    // V projections are split by TP when the heads divide evenly, else every rank holds them all
    // (MQA is the g = 1 case of the latter, MHA the g = a case of the former). Without grouping
    // the reference's rule stays: MQA replicated, MHA split (a % tp may be non-zero in MoE blocks).
    const I kvHeads = app.kvHeads > 0 ? app.kvHeads : (multiquery ? 1 : a);
    const bool kvReplicated = app.kvHeads > 0 ? kvHeads % tp != 0 : multiquery;

    b.fork("AttnBlock_Fork", local, 2, {full, false, false, true, true});
    b.layerNorm("AttnBlock_LayerNorm", local, {full, false, true, false, true});
    if (!overlap) {
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
    const I scores = a / tp * s * s * exe.microbatchSize;
    b.batchMatMul("AttnBlock_Multihead_Key_Query", exe.microbatchSize * a / tp, s, dh, s,
                  {attn, false, false, true, !attn});
    b.elementwiseLike("AttnBlock_Multihead_SoftMax", LayerKind::SoftMax, scores, 5, 8,
                      {attn, false, false, true, !attn});
    b.elementwiseLike("AttnBlock_Multihead_DropOut", LayerKind::DropOut, scores, 1, 1,
                      {attn, false, false, !attn, true});
    b.batchMatMul("AttnBlock_Multihead_Attn", exe.microbatchSize * a / tp, s, s, a * dh / a, {full});
    if (!overlap) {
        b.linear("AttnBlock_MLP", batchSeq, a * dh / tp, h, {full});
        b.tpComm("AttnBlock_G", act, true, {false, full, false, false, true});
    } else {
        b.linearOverlapped("AttnBlock_MLP_RS", batchSeq, a * dh, h, true, {full, full});
    }
    b.elementwiseLike("AttnBlock_DropOut", LayerKind::DropOut, local, 1, 1, {full});
    b.residual("AttnBlock_Residual", local, local, {full, false, true, false, true});
}

Block buildBlock(const Application &app, const Execution &exe, const System &sys, const Quirks &quirks) noexcept
{
    const I tp = exe.tensorPar;
    const I h = app.hidden;
    const I batchSeq = exe.microbatchSize * app.seqSize;
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
    const I up = swiglu ? 2 * app.feedforward : app.feedforward;

    BlockBuilder b(app, exe, sys);
    buildAttention(b, app, exe, local);
    b.fork("MlpBlock_Fork", local, 2, {full, false, false, true, true});
    b.layerNorm("MlpBlock_LayerNorm", local, {full, false, true, false, true});
    if (!overlap) {
        b.tpComm("MlpBlock_F", act, false, {false, agRedoMlp, false, true, true});
        b.linear("MlpBlock_Mlp1", batchSeq, h, up / tp, {full, false, false, !agRedoMlp, true});
    } else {
        b.linearOverlapped("MlpBlock_Mlp1_AG", batchSeq, h, up, false, {full, agRedoMlp});
    }
    if (swiglu)
        b.swiglu("MlpBlock_SwiGLU", app.feedforward * batchSeq / tp, {full});
    else
        b.gelu("MlpBlock_GeLU", app.feedforward * batchSeq / tp, {full});
    if (!overlap) {
        b.linear("MlpBlock_Mlp2", batchSeq, app.feedforward / tp, h, {full});
        b.tpComm("MlpBlock_G", act, true, {false, full, false, false, true});
    } else {
        b.linearOverlapped("MlpBlock_Mlp2_RS", batchSeq, app.feedforward, h, true, {full, full});
    }
    b.elementwiseLike("MlpBlock_DropOut", LayerKind::DropOut, local, 1, 1, {full});
    b.residual("MlpBlock_Residual", local, local, {full, false, true, false, true});
    return b.take();
}

} // namespace gapstudio::model::detail
