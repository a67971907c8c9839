// Layer sequence of one transformer block: calculon-model.md §3.1 (Megatron-LM's attention and
// MLP blocks with Korthikanti et al.'s sequence parallelism and selective recompute).
#include "block.h"

#include <algorithm>
#include <cstdint>

namespace gapstudio::model::detail {

namespace {

using I = std::int64_t;

double d(I value) noexcept
{
    return static_cast<double>(value);
}

struct Flags {
    bool recompute = false;
    bool recomm = false;
    bool reused = false;
    bool activationStored = true;
    bool outputStored = true;
};

class BlockBuilder {
public:
    BlockBuilder(const Application &app, const Execution &exe, const System &sys)
        : mApp(app), mExe(exe), mNet(&sys.networks[static_cast<std::size_t>(exe.tensorParNet)])
    {
    }

    void linear(const char *name, I m, I n, I k, Flags f)
    {
        Layer &l = add(name, LayerKind::Linear, f);
        l.fwFlops = l.agradFlops = l.wgradFlops = d(2 * m * n * k);
        l.inputs = l.activationSpace = d(m * n);
        l.outputs = l.activationGrads = d(m * k);
        l.weightSpace = l.weightGrads = d(n * k);
        l.optimSpace = d(2 * n * k);
    }

    void linearOverlapped(const char *name, I m, I n, I k, bool conjugate, Flags f)
    {
        // Reference `LinearOverlapped.__init__`: the layer splits its own k (f side) or n (g side).
        const I peers = mExe.tensorPar;
        const I tiles = mExe.tensorPar;
        I actSpace = 0;
        I actGrads = 0;
        if (!conjugate)
            k /= peers;
        else
            n /= peers;
        if (mExe.tensorParCommType == TpCommType::RsAg) {
            actSpace = conjugate ? m * n : m * n / tiles;
            actGrads = conjugate ? 2 * (m * k / tiles) : m * k; // gradient plus a comm buffer
        } else {
            actSpace = conjugate ? 0 : m * n;
            actGrads = conjugate ? 2 * (m * k) : 0;
        }
        Layer &l = add(name, LayerKind::LinearOverlapped, f);
        l.fwFlops = l.agradFlops = l.wgradFlops = d(2 * m * n * k);
        l.inputs = d(m * n);
        l.outputs = d(m * k);
        l.weightSpace = l.weightGrads = d(n * k);
        l.activationSpace = d(actSpace);
        l.activationGrads = d(actGrads);
        l.optimSpace = d(2 * n * k);
        tpFields(l, conjugate);
        l.numTiles = tiles;
    }

    void batchMatMul(const char *name, I batch, I m, I n, I k, Flags f)
    {
        Layer &l = add(name, LayerKind::BatchMatMul, f);
        l.fwFlops = d(batch * 2 * m * n * k);
        l.agradFlops = d(batch * 2 * 2 * m * n * k);
        l.inputs = l.activationSpace = d(batch * (m * n + n * k));
        l.outputs = l.activationGrads = d(batch * m * k);
    }

    void layerNorm(const char *name, I x, Flags f)
    {
        Layer &l = add(name, LayerKind::LayerNorm, f);
        l.fwFlops = d(9 * x);
        l.agradFlops = d(14 * x);
        l.wgradFlops = d(7 * x);
        l.inputs = l.outputs = l.activationSpace = l.activationGrads = d(x);
        l.weightSpace = l.weightGrads = d(2 * mApp.hidden);
        l.optimSpace = d(2 * 2 * mApp.hidden);
    }

    void elementwiseLike(const char *name, LayerKind kind, I x, I fw, I agrad, Flags f)
    {
        Layer &l = add(name, kind, f);
        l.fwFlops = d(fw * x);
        l.agradFlops = d(agrad * x);
        l.inputs = l.outputs = l.activationSpace = l.activationGrads = d(x);
    }

    void gelu(const char *name, I x, Flags f)
    {
        elementwiseLike(name, LayerKind::GeLU, x, 8, 13, f);
        if (mExe.fusedActivation) {
            // Fused into the preceding GEMM: nothing stored for the backward pass.
            Layer &l = mBlock.layers[mBlock.size - 1];
            l.activationSpace = l.activationGrads = 0;
        }
    }

    void residual(const char *name, I p, I q, Flags f)
    {
        Layer &l = add(name, LayerKind::ElementWise, f);
        l.fwFlops = d(std::max(p, q));
        l.agradFlops = d(p + q);
        l.inputs = l.activationSpace = d(p + q);
        l.outputs = l.activationGrads = d(std::max(p, q));
    }

    void fork(const char *name, I x, I users, Flags f)
    {
        Layer &l = add(name, LayerKind::Fork, f);
        l.inputs = l.activationSpace = d(x);
        l.agradFlops = d(users * x);
        l.numUsers = d(users);
    }

    void tpComm(const char *name, I act, bool conjugate, Flags f)
    {
        Layer &l = add(name, LayerKind::TPComm, f);
        const I peers = mExe.tensorPar;
        if (peers > 1) {
            // The reduction adds (n-1)/n of the tensor (fw for g, bw for f).
            const double reduction = d(act * (peers - 1)) / d(peers);
            (conjugate ? l.fwFlops : l.agradFlops) = reduction;
            l.inputs = l.outputs = l.activationSpace = l.activationGrads = d(act);
        }
        l.commSize = d(act);
        tpFields(l, conjugate);
    }

    [[nodiscard]] Block take() noexcept { return mBlock; }

private:
    Layer &add(const char *name, LayerKind kind, Flags f)
    {
        Layer &l = mBlock.layers[mBlock.size++];
        l = Layer{};
        l.name = name;
        l.kind = kind;
        l.needsRecompute = f.recompute;
        l.needsRecomm = f.recomm;
        l.activationReused = f.reused;
        l.activationStored = f.activationStored;
        l.outputStored = f.outputStored;
        return l;
    }

    void tpFields(Layer &l, bool conjugate) const
    {
        l.conjugate = conjugate;
        l.numPeers = mExe.tensorPar;
        l.net = mNet;
        l.commType = mExe.tensorParCommType;
        l.overlap = mExe.tensorParOverlap;
    }

    const Application &mApp;
    const Execution &mExe;
    const NetworkTier *mNet;
    Block mBlock;
};

} // namespace

Block buildBlock(const Application &app, const Execution &exe, const System &sys) noexcept
{
    const I tp = exe.tensorPar;
    const I h = app.hidden;
    const I s = app.seqSize;
    const I a = app.attnHeads;
    const I dh = app.attnSize;
    const I batchSeq = exe.microbatchSize * s;
    const I act = batchSeq * h;                    // A: full activation
    const I seqParAct = batchSeq / tp * h;         // A_s: sequence-parallel activation
    const bool seqPar = exe.tensorParCommType == TpCommType::RsAg;
    const I local = seqPar ? seqParAct : act;      // LayerNorm/DropOut/residual work on A_s with rs_ag

    const bool full = exe.activationRecompute == Recompute::Full;
    const bool attn = full || exe.activationRecompute == Recompute::AttnOnly;
    const bool agRedoAttn = attn || exe.seqParAgRedo;
    const bool agRedoMlp = full || exe.seqParAgRedo;
    const bool overlap = exe.tensorParOverlap != TpOverlap::None;
    const bool multiquery = exe.attentionType == AttentionType::MultiQuery;

    BlockBuilder b(app, exe, sys);
    // Attention block.
    b.fork("AttnBlock_Fork", local, 2, {full, false, false, true, true});
    b.layerNorm("AttnBlock_LayerNorm", local, {full, false, true, false, true});
    if (!overlap) {
        b.tpComm("AttnBlock_F", act, false, {false, agRedoAttn, false, true, true});
        b.fork("AttnBlock_Multihead_Fork", act, 3, {agRedoAttn, false, false, !agRedoAttn, true});
        const I kv = multiquery ? dh : a * dh / tp; // MQA: one K/V head, not split by TP
        b.linear("AttnBlock_Query", batchSeq, h, a * dh / tp, {full, false, true, false, true});
        b.linear("AttnBlock_Key", batchSeq, h, kv, {full, false, true, false, true});
        b.linear("AttnBlock_Value", batchSeq, h, kv, {full, false, true, false, true});
    } else if (!multiquery) {
        b.linearOverlapped("AttnBlock_QKV_AG", batchSeq, h, a * dh * 3, false, {full, agRedoAttn});
    } else {
        b.linearOverlapped("AttnBlock_Query_AG", batchSeq, h, a * dh, false, {full, agRedoAttn});
        b.fork("AttnBlock_KV_Fork", act, 2, {agRedoAttn, false, false, !agRedoAttn, true});
        b.linear("AttnBlock_Key", batchSeq, h, dh, {full, false, true, false, true});
        b.linear("AttnBlock_Value", batchSeq, h, dh, {full, false, true, false, true});
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

    // MLP block.
    b.fork("MlpBlock_Fork", local, 2, {full, false, false, true, true});
    b.layerNorm("MlpBlock_LayerNorm", local, {full, false, true, false, true});
    if (!overlap) {
        b.tpComm("MlpBlock_F", act, false, {false, agRedoMlp, false, true, true});
        b.linear("MlpBlock_Mlp1", batchSeq, h, app.feedforward / tp, {full, false, false, !agRedoMlp, true});
    } else {
        b.linearOverlapped("MlpBlock_Mlp1_AG", batchSeq, h, app.feedforward, false, {full, agRedoMlp});
    }
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
