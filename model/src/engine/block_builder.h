#pragma once
// Appends layers to a Block with the reference's per-class element counts (Calculon
// `llm/layers.py` at caa4b11 and calculon-MoE e3eb609; calculon-model.md §3.2,
// calculon-moe-model.md §4). Internal to the model.

#include "engine/block.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <new>

namespace gapstudio::model::detail {


using I = std::int64_t;

inline double d(I value) noexcept
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
        : BlockBuilder(app, exe, sys, mOwn)
    {
    }

    /// Builds in place into `out` (emptied first): a caller returning `out` by value (NRVO)
    /// copies no layer, which a layout search does once per evaluation.
    BlockBuilder(const Application &app, const Execution &exe, const System &sys, Block &out)
        : mApp(app)
        , mExe(exe)
        , mSys(sys)
        , mNet(&sys.networks[static_cast<std::size_t>(exe.tensorParNet)])
        , mBlock(out)
    {
        mBlock.size = 0;
    }

    Layer &linear(const char *name, I m, I n, I k, Flags f)
    {
        Layer &l = add(name, LayerKind::Linear, f);
        l.fwFlops = l.agradFlops = l.wgradFlops = d(2 * m * n * k);
        l.inputs = l.activationSpace = d(m * n);
        l.outputs = l.activationGrads = d(m * k);
        l.weightSpace = l.weightGrads = d(n * k);
        l.optimSpace = d(2 * n * k);
        gemm(l, m, n, k, 1);
        return l;
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
        gemm(l, m, n, k, 1);
    }

    void batchMatMul(const char *name, I batch, I m, I n, I k, Flags f)
    {
        Layer &l = add(name, LayerKind::BatchMatMul, f);
        l.fwFlops = d(batch * 2 * m * n * k);
        l.agradFlops = d(batch * 2 * 2 * m * n * k);
        l.inputs = l.activationSpace = d(batch * (m * n + n * k));
        l.outputs = l.activationGrads = d(batch * m * k);
        gemm(l, m, n, k, batch);
        l.lowPrecision = false; // attention products stay in 16 bits under the FP8 recipe
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
        collective(name, act, conjugate, f, mExe.tensorPar, mNet, mExe.tensorParCommType);
    }

    /// A TPComm-style collective over `peers` on `net` (also used for MoE expert slicing).
    Layer &collective(const char *name, I act, bool conjugate, Flags f, I peers, const NetworkTier *net,
                      TpCommType type)
    {
        Layer &l = add(name, LayerKind::TPComm, f);
        if (peers > 1) {
            // The reduction adds (n-1)/n of the tensor (fw for g, bw for f).
            const double reduction = d(act * (peers - 1)) / d(peers);
            (conjugate ? l.fwFlops : l.agradFlops) = reduction;
            l.inputs = l.outputs = l.activationSpace = l.activationGrads = d(act);
        }
        l.commSize = d(act);
        tpFields(l, conjugate);
        l.numPeers = peers;
        l.net = net;
        l.commType = type;
        return l;
    }

    /// MoE all-to-all of `act` elements per GPU among `peers` (calculon-MoE `EXPComm`).
    Layer &allToAll(const char *name, I act, Flags f, I peers, const NetworkTier *net)
    {
        Layer &l = add(name, LayerKind::AllToAll, f);
        if (peers > 1) {
            l.inputs = l.outputs = l.activationSpace = l.activationGrads = l.commSize = d(act);
        }
        l.numPeers = peers;
        l.net = net;
        l.group = CommGroup::Ep;
        return l;
    }

    /// `experts` independent GEMMs of m x n by n x k (calculon-MoE `Linear_MoE`).
    Layer &expertLinear(const char *name, I experts, I m, I n, I k, Flags f)
    {
        linear(name, m, n, k, f);
        Layer &l = mBlock.layers[mBlock.size - 1];
        l.fwFlops = l.agradFlops = l.wgradFlops = d(experts * 2 * m * n * k);
        l.inputs = l.activationSpace = d(experts * m * n);
        l.outputs = l.activationGrads = d(experts * m * k);
        l.weightSpace = l.weightGrads = d(experts * n * k);
        l.optimSpace = d(2 * experts * n * k);
        l.expertWeights = true;
        l.expertWork = true;
        gemm(l, m, n, k, experts); // a grouped GEMM over the local experts
        return l;
    }

    /// SwiGLU on `x` = experts * tokens * width elements: swish (GeLU-like) plus the gating
    /// product; it stores both halves unless fused (calculon-MoE `SwiGLU`).
    void swiglu(const char *name, I x, Flags f)
    {
        elementwiseLike(name, LayerKind::GeLU, x, 8, 13, f);
        Layer &l = mBlock.layers[mBlock.size - 1];
        l.fwFlops = d(8 * x) + d(x);
        l.agradFlops = d(13 * x) + d(2 * x);
        l.activationSpace = l.activationGrads = mExe.fusedActivation ? 0 : d(x * 2);
    }

    /// MoE top-k selection or bucketing (calculon-MoE `SelTopK`, `TensorTrans`).
    Layer &routing(const char *name, I x, I fw, I outputs, Flags f)
    {
        Layer &l = add(name, LayerKind::Routing, f);
        l.fwFlops = l.agradFlops = d(fw);
        l.inputs = l.activationSpace = l.activationGrads = d(x);
        l.outputs = d(outputs);
        return l;
    }

    [[nodiscard]] Block take() noexcept { return mBlock; }
    [[nodiscard]] const NetworkTier *tier(std::int64_t index) const noexcept
    {
        return &mSys.networks[static_cast<std::size_t>(index)];
    }

    /// Corrected model: fused causal attention of `queries` tokens against `keys` attended keys
    /// per query (on average) with `heads` query heads of width dqk (scores) and dv (values),
    /// `kvElements` key/value elements in and `ringStep` K/V elements per CP ring step.
    /// FlashAttention-2 (Dao 2023, section 4.1 and its benchmark FLOP count): forward
    /// 2 * heads * queries * keys * (dqk + dv) flops, backward 2.5 x forward (it recomputes the
    /// scores); only Q, K, V, O and the row log-sum-exp (FP32) are stored, never the scores.
    Layer &flashAttention(const char *name, I heads, I queries, double keys, I dqk, I dv, I kvElements,
                          Flags f, I cp, const NetworkTier *cpNet, I ringStep)
    {
        Layer &l = add(name, LayerKind::FlashAttention, f);
        l.fwFlops = 2.0 * d(heads) * d(queries) * keys * d(dqk + dv);
        l.agradFlops = 2.5 * l.fwFlops;
        l.inputs = d(heads * queries * dqk + kvElements);
        l.outputs = l.activationGrads = d(heads * queries * dv);
        l.activationSpace = l.inputs + l.outputs + 2.0 * d(heads * queries); // + FP32 log-sum-exp
        l.numPeers = cp;
        l.net = cpNet;
        l.group = CommGroup::Cp;
        l.ringStepElements = d(ringStep);
        return l;
    }

    /// Corrected model: the input embedding, a vocabulary-parallel table of `rows` x h (rows =
    /// V / TP) gathered for `tokens` tokens; its gradient accumulates into the table's rows.
    Layer &embedding(const char *name, I tokens, I rows, Flags f)
    {
        Layer &l = add(name, LayerKind::Embedding, f);
        l.outputs = l.activationGrads = d(tokens * mApp.hidden);
        l.weightSpace = l.weightGrads = d(rows * mApp.hidden);
        l.optimSpace = 2 * l.weightSpace;
        l.wgradFlops = l.outputs; // scatter-add of the output gradient
        return l;
    }

    /// Corrected model: vocabulary-parallel cross-entropy over `logits` = tokens x V / TP
    /// logits (Megatron-LM vocab_parallel_cross_entropy: softmax in FP32, kept for backward).
    Layer &loss(const char *name, I logits, Flags f)
    {
        Layer &l = add(name, LayerKind::Loss, f);
        l.fwFlops = d(5 * logits);
        l.agradFlops = d(2 * logits);
        l.inputs = l.outputs = l.activationGrads = d(logits);
        l.activationSpace = d(2 * logits); // the FP32 softmax, in 16-bit elements
        return l;
    }

    /// The layer added last.
    Layer &last() noexcept { return mBlock.layers[mBlock.size - 1]; }

protected:
    Layer &add(const char *name, LayerKind kind, Flags f)
    {
        assert(mBlock.size < kMaxBlockLayers && "kMaxBlockLayers is too small for this block");
        // Default-initialised: every member of Layer has its default initialiser, stored field by
        // field. `Layer{}` would first zero all 192 bytes, which GCC does with `rep stos`, a
        // microcoded instruction whose start-up, paid once per layer, took some 14 % of an
        // evaluation (README, "Command-line tool", `bench`).
        Layer &l = *new (&mBlock.layers[mBlock.size++]) Layer;
        l.name = name;
        l.kind = kind;
        l.needsRecompute = f.recompute;
        l.needsRecomm = f.recomm;
        l.activationReused = f.reused;
        l.activationStored = f.activationStored;
        l.outputStored = f.outputStored;
        return l;
    }

    static void gemm(Layer &l, I m, I n, I k, I count)
    {
        l.gemmM = d(m);
        l.gemmN = d(n);
        l.gemmK = d(k);
        l.gemmCount = d(count);
        l.lowPrecision = true;
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
    const System &mSys;
    const NetworkTier *mNet;
    Block mOwn; // the block built when no caller's block is given (its slots stay unwritten)
    Block &mBlock;
};


/// The attention half of a block (§3.1 layers 1-15); `local` is the element count that the
/// LayerNorm, dropout and residual work on (A, or A_s with sequence parallelism).
void buildAttention(BlockBuilder &b, const Application &app, const Execution &exe, std::int64_t local,
                    const Features &features);

/// Tokens of one microbatch on one rank: mbs * s, split over CP in the corrected model.
[[nodiscard]] I tokensPerRank(const Application &app, const Execution &exe, const Features &features) noexcept;

} // namespace gapstudio::model::detail
