// The corrected model's features (model/include/gapstudio/model/fidelity.h), each checked against
// a number derived by hand from its published definition, never against the code's own output:
// FlashAttention-2's causal FLOP count, the Megatron-LM FLOP formula with the logit layer
// (Narayanan et al. 2021, equation 3), context parallelism's ring traffic, the FP8 recipe's
// message and memory sizes, Megatron-LM's mixed-precision bytes per parameter, hierarchical DP
// collectives, shared experts, multi-head latent attention, multi-token prediction, the 1F1B
// pipeline of uneven stages and the software stack's fixed costs counted per block and pass. Sources:
// docs/references.md.
#include "relative_near.h"

#include "gapstudio/model/analysis.h"
#include "gapstudio/model/evaluate.h"

#include "engine/layers.h"
#include "network/network.h"

#include <QTest>

#include <cmath>
#include <string>

using namespace gapstudio::model;

namespace {

/// A small synthetic machine: BF16 1 PFLOP/s, FP8 2 PFLOP/s, 1 TB/s HBM, an 8-GPU scale-up tier
/// at 100 GB/s and a scale-out tier at 10 GB/s (ring collectives, no latency unless set).
System machine()
{
    System sys;
    const auto engine = [](double peak) { return ComputeEngine{peak, EfficiencyTable{{{0, 1.0}}}}; };
    for (const Datatype t : {Datatype::Bfloat16, Datatype::Float16}) {
        sys.matrix[static_cast<std::size_t>(t)] = engine(1e15);
        sys.vector[static_cast<std::size_t>(t)] = engine(1e14);
    }
    sys.matrix[static_cast<std::size_t>(Datatype::Float8)] = engine(2e15);
    sys.vector[static_cast<std::size_t>(Datatype::Float8)] = engine(1e14);
    sys.mem1 = {1e15, 1e12, EfficiencyTable{{{0, 1.0}}}};
    sys.mem2 = {0, 1e9, EfficiencyTable{{{0, 1.0}}}};
    NetworkTier up;
    up.bandwidth_Bps = 100e9;
    up.size = 8;
    up.p2p = {1, 0, 0};
    up.reduceScatter = up.allGather = {1, -1, 0};
    up.allReduce = {2, -1, 0};
    up.allToAll = {1, 0, 0};
    NetworkTier out = up;
    out.bandwidth_Bps = 10e9;
    out.size = 4096;
    sys.networks = {up, out};
    return sys;
}

Application gpt(std::int64_t seq = 2048)
{
    Application app;
    app.hidden = 1024;
    app.feedforward = 4096;
    app.seqSize = seq;
    app.attnHeads = 16;
    app.attnSize = 64;
    app.numBlocks = 4;
    return app;
}

Execution layout(std::int64_t tp = 1, std::int64_t dp = 1)
{
    Execution exe;
    exe.tensorPar = tp;
    exe.dataPar = dp;
    exe.numProcs = tp * dp;
    exe.batchSize = dp;
    exe.microbatchSize = 1;
    exe.datatype = Datatype::Bfloat16;
    exe.tensorParNet = 0;
    exe.pipelineParNet = 1;
    exe.dataParNet = 1;
    exe.contextParNet = 0;
    exe.tensorParCommType = tp > 1 ? TpCommType::RsAg : TpCommType::Ar;
    exe.optimizerSharding = dp > 1;
    return exe;
}

/// Eight experts, top-2, one per GPU of an 8-GPU expert-parallel group in the scale-up domain.
Execution moeLayout()
{
    Execution exe = layout(1, 8);
    exe.modelMoE = true;
    exe.numExperts = 8;
    exe.topKExperts = 2;
    exe.expertPar = 8;
    exe.dataParExp = 1;
    exe.expertParNet = 0;
    exe.dataParExpNet = 1;
    return exe;
}

EvaluateOptions corrected(bool calibrated = false)
{
    EvaluateOptions o;
    o.withLayers = true;
    o.quirks = Quirks::corrected();
    o.features = Features::corrected();
    o.features.calibrated = calibrated;
    return o;
}

Evaluation run(const Application &app, const Execution &exe, const EvaluateOptions &options)
{
    Evaluation e = evaluate(app, exe, machine(), options);
    if (!e.ok)
        qWarning("%s", e.diagnostics.empty() ? "?" : e.diagnostics.front().message.c_str());
    return e;
}

const LayerStats &layer(const Evaluation &e, const char *name)
{
    for (const LayerStats &l : e.layers)
        if (l.name == name)
            return l;
    qFatal("no layer %s", name);
}

} // namespace

class tst_Fidelity : public QObject {
    Q_OBJECT

private slots:
    void flashAttentionCausalFlops()
    {
        // FlashAttention-2 (Dao 2023, section 4.1): forward QK^T and PV, 2 flops per
        // multiply-add, over the s(s+1)/2 causal query-key pairs; backward = 2.5 x forward.
        const Application app = gpt();
        Execution exe = layout();
        const Evaluation e = run(app, exe, corrected());
        QVERIFY(e.ok);
        const double pairs = 2048.0 * 2049.0 / 2;
        const double forward = 2.0 * 2 * 64 * 16 * pairs;
        gapstudio::test::relativeNear(layer(e, "AttnBlock_FlashAttention").fw_flops, forward);
        gapstudio::test::relativeNear(layer(e, "AttnBlock_FlashAttention").agrad_flops, 2.5 * forward);
        // Unfused: both batched products over all s^2 pairs, 4 s^2 d flops per head.
        exe.attentionKernel = AttentionKernel::Unfused;
        const Evaluation u = run(app, exe, corrected());
        gapstudio::test::relativeNear(layer(u, "AttnBlock_Multihead_Key_Query").fw_flops
                                          + layer(u, "AttnBlock_Multihead_Attn").fw_flops,
                                      4.0 * 2048 * 2048 * 64 * 16);
    }

    void flashAttentionStoresNoScores()
    {
        // Only Q, K, V, O and the log-sum-exp are kept: stored activations grow linearly with s.
        Execution exe = layout();
        const double at1 = run(gpt(1024), exe, corrected()).stats.block_act_storage_space;
        const double at2 = run(gpt(2048), exe, corrected()).stats.block_act_storage_space;
        gapstudio::test::relativeNear(at2, 2 * at1);
        exe.attentionKernel = AttentionKernel::Unfused; // the s x s scores are stored
        const double un1 = run(gpt(1024), exe, corrected()).stats.block_act_storage_space;
        const double un2 = run(gpt(2048), exe, corrected()).stats.block_act_storage_space;
        QVERIFY(un2 > 2.5 * un1);
    }

    void megatronFlopsWithLogitLayer()
    {
        // Narayanan et al. 2021, equation 3: one iteration of a GPT model costs
        // 72 B s l h^2 (1 + s / (6h) + V / (12 l h)) flops with full (non-causal) attention and
        // the logit layer. Sum the matrix layers' flops (fw + both backward products) of the
        // corrected model with the unfused kernel, the LM head included, for B = 1, l = 4.
        Application app = gpt();
        app.vocabSize = 51200;
        Execution exe = layout();
        exe.attentionKernel = AttentionKernel::Unfused;
        const Evaluation e = run(app, exe, corrected());
        QVERIFY(e.ok);
        double block = 0;
        for (const LayerStats &l : e.layers) {
            const std::string name = l.name;
            const bool matrix = name == "AttnBlock_Query" || name == "AttnBlock_Key" || name == "AttnBlock_Value" ||
                                name == "AttnBlock_MLP" || name == "MlpBlock_Mlp1" || name == "MlpBlock_Mlp2" ||
                                name == "AttnBlock_Multihead_Key_Query" || name == "AttnBlock_Multihead_Attn";
            if (matrix)
                block += l.fw_flops + l.agrad_flops + l.wgrad_flops;
        }
        const LayerStats &head = layer(e, "Head_Logits");
        const double total = 4 * block + head.fw_flops + head.agrad_flops + head.wgrad_flops;
        const double s = 2048, h = 1024, l = 4, V = 51200;
        gapstudio::test::relativeNear(total, 72 * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h)));
    }

    void contextParallelRing()
    {
        // CP = 2: every rank keeps s/2 queries and passes its K and V (s/2 x 16 heads x 64 each,
        // 16-bit) once around the ring forward, twice backward (K/V, then dK/dV); every other
        // layer works on half the tokens.
        Application app = gpt();
        Execution one = layout(1, 1);
        Execution two = one;
        two.contextPar = 2;
        two.numProcs = 2;
        two.contextParNet = 0;
        const Evaluation e1 = run(app, one, corrected());
        const Evaluation e2 = run(app, two, corrected());
        QVERIFY(e2.ok);
        const double kv = 1024.0 * 16 * (64 + 64) * 2; // bytes of K and V of one rank's chunk
        gapstudio::test::relativeNear(layer(e2, "AttnBlock_FlashAttention").baseblock_fw_tp_comm_size, kv);
        gapstudio::test::relativeNear(layer(e2, "AttnBlock_FlashAttention").baseblock_bw_tp_comm_size,
                                      2 * kv);
        gapstudio::test::relativeNear(layer(e2, "AttnBlock_Query").fw_flops,
                                      layer(e1, "AttnBlock_Query").fw_flops / 2);
        // Each ring step is one point-to-point message on the CP tier (100 GB/s, no latency).
        const double perStep = kv / 100e9;
        gapstudio::test::relativeNear(e2.stats.cp_comm_link_time,
                                      4 * (perStep + 2 * perStep)); // 4 blocks, 1 microbatch
    }

    void optimizerShardsOverContextParallelRanks()
    {
        // DP 2 x CP 2 with the distributed optimizer: each GPU keeps a quarter of the 12 bytes of
        // FP32 master weights and Adam moments per parameter (Megatron-Core shards the dense
        // optimizer over the DP x CP group), while its 16-bit weights and FP32 gradients stay whole.
        const Application app = gpt();
        Execution exe = layout(1, 2);
        exe.contextPar = 2;
        exe.numProcs = 4;
        const Evaluation e = run(app, exe, corrected());
        QVERIFY(e.ok);
        const double h = 1024;
        const double params = 12 * h * h + 4 * h; // per block: linear layers and two LayerNorms
        const double blocks = 4;
        gapstudio::test::relativeNear(e.stats.optimizer_space, blocks * params * 12 / 4);
        gapstudio::test::relativeNear(e.stats.weight_space, blocks * params * 2);
    }

    void fp8RecipeSizes()
    {
        // Transformer Engine's FP8 recipe: TP messages stay 16-bit (the same bytes as a BF16 run,
        // twice the reference's 1-byte FP8 messages); Megatron-LM keeps 16-bit parameters, FP32
        // main gradients and 12 bytes of FP32 master weights and Adam moments per parameter,
        // and Transformer Engine one FP8 copy of the weights.
        const Application app = gpt();
        Execution bf16 = layout(2, 1);
        Execution fp8 = bf16;
        fp8.datatype = Datatype::Float8;
        const Evaluation b = run(app, bf16, corrected());
        const Evaluation f = run(app, fp8, corrected());
        QVERIFY(b.ok && f.ok);
        gapstudio::test::relativeNear(f.stats.baseblock_fw_tp_size, b.stats.baseblock_fw_tp_size);
        EvaluateOptions reference;
        const Evaluation r = evaluate(app, fp8, machine(), reference);
        gapstudio::test::relativeNear(r.stats.baseblock_fw_tp_size, b.stats.baseblock_fw_tp_size / 2);
        // Parameters per block and TP rank: 12 h^2 / 2 of the linear layers (QKV, projection,
        // MLP), and the two LayerNorms' 2 x 2h replicated on each rank.
        const double h = 1024;
        const double params = (12 * h * h) / 2 + 4 * h;
        const double blocks = 4;
        gapstudio::test::relativeNear(b.stats.weight_space, blocks * params * 2);
        gapstudio::test::relativeNear(f.stats.weight_space, blocks * params * 3);
        gapstudio::test::relativeNear(b.stats.weight_grad_space, blocks * params * 4);
        gapstudio::test::relativeNear(b.stats.optimizer_space, blocks * params * 12);
    }

    void hierarchicalDataParallel()
    {
        // DP = 16 over the scale-out tier with 8 ranks per scale-up domain: reduce-scatter the
        // FP32 gradients inside the domain (ring over 8 at 100 GB/s), then 1/8 of them across the
        // 2 domains (ring over 2 at 10 GB/s); the 16-bit all-gather comes back the same way.
        const Application app = gpt();
        const Execution exe = layout(1, 16);
        const Evaluation e = run(app, exe, corrected());
        QVERIFY(e.ok);
        const double params = 12.0 * 1024 * 1024 + 4 * 1024;
        const auto ring = [](double bytes, double n, double bw) { return bytes * (n - 1) / n / bw; };
        const double rs = ring(params * 4, 8, 100e9) + ring(params * 4 / 8, 2, 10e9);
        const double ag = ring(params * 2, 8, 100e9) + ring(params * 2 / 8, 2, 10e9);
        gapstudio::test::relativeNear(e.stats.dp_comm_link_time,
                                      4 * (rs + ag)); // four blocks; no embedding here
    }

    void sharedExpertsAndCapacity()
    {
        // A shared SwiGLU expert of width 512 on every token: gate and up projections
        // 2 x T x h x (2 x 512) flops. A capacity factor of 1.25 pads every expert's tokens by 25 %.
        Application app = gpt();
        app.sharedExperts = 1;
        app.sharedExpertFeedforward = 512;
        app.feedforward = 512;
        Execution exe = moeLayout();
        exe.activationFunction = ActivationFunction::Silu;
        const Evaluation e = run(app, exe, corrected());
        QVERIFY(e.ok);
        gapstudio::test::relativeNear(layer(e, "SharedExpert_Mlp1").fw_flops, 2.0 * 2048 * 1024 * 1024);
        const double routed = layer(e, "MlpBlock_Mlp1_MoE").fw_flops;
        exe.moeCapacityFactor = 1.25;
        const Evaluation padded = run(app, exe, corrected());
        gapstudio::test::relativeNear(layer(padded, "MlpBlock_Mlp1_MoE").fw_flops, 1.25 * routed);
    }

    void latentAttentionWeights()
    {
        // DeepSeek-V3 (technical report, section 2.1.1 and its config.json): h 7168, 128 heads,
        // query rank 1536, key/value rank 512, 128 + 64 query/key dims, 128 value dims. Its
        // projections hold 7168 x 1536 + 1536 x 128 x 192 + 7168 x (512 + 64) + 512 x 128 x 256 +
        // 128 x 128 x 7168 = 187,105,280 weights per layer.
        Application app;
        app.hidden = 7168;
        app.feedforward = 18432;
        app.seqSize = 4096;
        app.attnHeads = 128;
        app.attnSize = 128;
        app.numBlocks = 1;
        app.qLoraRank = 1536;
        app.kvLoraRank = 512;
        app.ropeHeadSize = 64;
        app.valueHeadSize = 128;
        const Evaluation e = run(app, layout(), corrected());
        QVERIFY(e.ok);
        double weights = 0;
        for (const char *name :
             {"AttnBlock_Query_Down", "AttnBlock_Query_Up", "AttnBlock_KV_Down", "AttnBlock_KV_Up", "AttnBlock_MLP"})
            weights += layer(e, name).weight / 2; // bytes / 2 bytes per BF16 weight
        gapstudio::test::relativeNear(weights, 187105280.0);
        // Unfused attention (Transformer Engine's UnfusedDotProductAttention) over all s^2 pairs:
        // Q K^T over the 128 + 64 query/key dimensions, the probabilities times V over 128.
        Execution unfused = layout();
        unfused.attentionKernel = AttentionKernel::Unfused;
        const Evaluation u = run(app, unfused, corrected());
        QVERIFY(u.ok);
        gapstudio::test::relativeNear(layer(u, "AttnBlock_Multihead_Key_Query").fw_flops,
                                      2.0 * 128 * 4096 * 4096 * 192);
        gapstudio::test::relativeNear(layer(u, "AttnBlock_Multihead_Attn").fw_flops,
                                      2.0 * 128 * 4096 * 4096 * 128);
    }

    void multiTokenPrediction()
    {
        // DeepSeek-V3 technical report, section 2.2, equations 21-23: an MTP module of depth 1 is
        // a projection M (h x 2h) of the normalised hidden state and embedding, one transformer
        // block and the shared output head. Forward projection: 2 x s x 2h x h flops, its two
        // backward products the same each. Per iteration the model's work grows by exactly one
        // block, one LM-head pass and the module's own layers (on the last stage).
        Application app = gpt();
        app.vocabSize = 51200;
        Execution exe = layout();
        exe.batchSize = 4; // M = 4 microbatches
        const Evaluation base = run(app, exe, corrected());
        app.mtpLayers = 1;
        const Evaluation mtp = run(app, exe, corrected());
        QVERIFY(base.ok && mtp.ok);
        const LayerStats &projection = layer(mtp, "Mtp_Projection");
        const double s = 2048, h = 1024;
        gapstudio::test::relativeNear(projection.fw_flops, 2 * s * 2 * h * h);
        gapstudio::test::relativeNear(projection.agrad_flops + projection.wgrad_flops, 2 * 2 * s * 2 * h * h);
        // Useful work of one microbatch through the block, the head and the MTP layers, summed
        // over the layers the model lists; the ideal time at the 1 PFLOP/s peak is M x that.
        double block = 0, head = 0, own = 0;
        for (const LayerStats &l : mtp.layers) {
            const std::string name = l.name;
            const double work = l.fw_flops + l.agrad_flops + l.wgrad_flops;
            if (name.rfind("Mtp_", 0) == 0)
                own += work;
            else if (name.rfind("Head_", 0) == 0)
                head += work;
            else if (name.rfind("Embedding_", 0) != 0) // the first stage's embedding is not repeated
                block += work;
        }
        const auto idealSeconds
            = [](const Evaluation &e) { return e.stats.total_efficiency * e.stats.total_time; };
        gapstudio::test::relativeNear(idealSeconds(mtp) - idealSeconds(base), 4 * (block + head + own) / 1e15,
                                      1e-9);
        QVERIFY(mtp.stats.total_time > base.stats.total_time);
    }

    void unevenStagesPipeline()
    {
        // 1F1B with stage times t_i runs M microbatches in (M - 1) max t_i + sum t_i. Four
        // blocks of time t on two stages: even (2 + 2) costs (M - 1) 2t + 4t; one block on the
        // first stage and three on the last cost (M - 1) 3t + 4t, that is (M - 1) t more.
        const Application app = gpt();
        Execution even = layout();
        even.pipelinePar = 2;
        even.numProcs = 2;
        even.batchSize = 8; // M = 8 microbatches
        even.pipelineParNet = 0;
        Execution uneven = even;
        uneven.firstStageBlocks = 1;
        uneven.lastStageBlocks = 3;
        const Evaluation a = run(app, even, corrected());
        const Evaluation b = run(app, uneven, corrected());
        QVERIFY(a.ok && b.ok);
        const double M = 8;
        const double t = (a.stats.fw_time + a.stats.bw_time) / (M * 2); // one block, one microbatch
        gapstudio::test::relativeNear(b.stats.total_time - a.stats.total_time, (M - 1) * t, 1e-9);
    }

    void gemmTileAndWaveQuantisation()
    {
        // NVIDIA's "Matrix Multiplication Background" guide: a 129 x 256 output on 128 x 256 tiles
        // computes two tiles (tile quantisation 129 / 256), which fill 2 of 132 SMs in a single
        // wave; a reduction depth equal to the half-depth halves the rate.
        Calibration calibration;
        calibration.gemmHalfDepth = 64;
        detail::LayerContext c;
        c.calibration = &calibration;
        c.tileM = 128;
        c.tileN = 256;
        c.smCount = 132;
        gapstudio::test::relativeNear(detail::gemmShapeEfficiency(129, 256, 64, 1, c),
                                      (129.0 / 256) * (2.0 / 132) * 0.5);
        // 264 full tiles fill exactly two waves.
        gapstudio::test::relativeNear(detail::gemmShapeEfficiency(128 * 264, 256, 1e9, 1, c),
                                      1e9 / (1e9 + 64));
    }

    void eagerElementwiseKernels()
    {
        // Eager PyTorch (torchtitan without torch.compile) runs RMSNorm as 6 kernels and the
        // SwiGLU gate as 2. Bytes per element, 16-bit activations (b = 2) and FP32 temporaries
        // (f = 4), counted from torchtitan's norms.py / model.py and PyTorch's autograd formulas:
        //   RMSNorm forward  x.float() 6, pow 8, mean 4, x * rsqrt 8, type_as 6, * weight 4 = 36,
        //           fused: read x, write y = 4                                   -> 32 extra;
        //   RMSNorm backward grad * w 4, sum(grad * y) 8, to FP32 6, grad * r 8, sum(grad * x) 16,
        //           mean 4, pow 28, sum of x's two gradients 12, to 16 bits 6 = 92,
        //           fused: read x and dy, write dx (4) plus the weight gradient's 4 = 8 -> 84 extra;
        //   SwiGLU forward   silu 4, product 6 = 10, fused 4                     -> 6 extra;
        //   SwiGLU backward  the product's two gradients 12, silu_backward 6 = 18, fused 4 -> 14.
        // One block of gpt(): 2048 tokens, two RMSNorms over h = 1024 and a gate of 4096.
        const Application app = gpt();
        Execution fused = layout();
        fused.activationFunction = ActivationFunction::Silu;
        Execution eager = fused;
        eager.eagerKernels = true;
        const Evaluation f = run(app, fused, corrected(true));
        const Evaluation e = run(app, eager, corrected(true));
        QVERIFY(f.ok && e.ok);
        const double norm = 2048.0 * 1024;
        const double gate = 2048.0 * 4096;
        gapstudio::test::relativeNear(e.stats.block_fw_mem_accessed - f.stats.block_fw_mem_accessed,
                                      2 * 32 * norm + 6 * gate, 1e-9);
        gapstudio::test::relativeNear(e.stats.block_agrad_mem_accessed - f.stats.block_agrad_mem_accessed,
                                      2 * 84 * norm + 14 * gate, 1e-9);
        QVERIFY(e.stats.block_fw_time > f.stats.block_fw_time);
        // Without the feature switch (or without a calibration) the flag changes nothing.
        EvaluateOptions off = corrected(true);
        off.features.eagerKernels = false;
        QCOMPARE(run(app, eager, off).stats.block_fw_mem_accessed, f.stats.block_fw_mem_accessed);
        QCOMPARE(run(app, eager, corrected(false)).stats.total_time,
                 run(app, fused, corrected(false)).stats.total_time);
    }

    void pipelineScatterGather()
    {
        // Narayanan et al. 2021, section 4.1: without sequence parallelism the stage's output is
        // replicated on its t TP ranks, so each sends 1/t of it to the next stage and the
        // receivers all-gather it over TP. gpt(): a microbatch of 2048 tokens x h 1024 in bf16.
        const Application app = gpt();
        Execution plain = layout(4, 1);
        plain.tensorParCommType = TpCommType::Ar;
        plain.pipelinePar = 2;
        plain.numProcs = 8;
        plain.batchSize = 2;
        Execution scattered = plain;
        scattered.pipelineScatterGather = true;
        const Evaluation p = run(app, plain, corrected()), s = run(app, scattered, corrected());
        QVERIFY(p.ok && s.ok);
        const double message = 2048.0 * 1024 * 2;
        QCOMPARE(p.stats.block_fw_pp_size, message);
        QCOMPARE(s.stats.block_fw_pp_size, message / 4);
        QCOMPARE(s.stats.block_bw_pp_size, message / 4);
        // Each p2p: 1/4 of the message over the scale-out tier (PP's), then the ring all-gather
        // of the whole message over the scale-up tier (TP's), S (t - 1) / t.
        const System sys = machine();
        const NetworkTier &up = sys.networks[0], &out = sys.networks[1];
        const auto time = [](const NetworkTier &n, double bytes) {
            return n.latency_s + bytes / (n.bandwidth_Bps * n.efficiency);
        };
        const double p2ps = p.stats.pp_comm_link_time / time(out, message); // as many in both
        QVERIFY(p2ps >= 2);
        gapstudio::test::relativeNear(s.stats.pp_comm_link_time,
                                      p2ps * (time(out, message / 4) + time(up, message * 3 / 4)), 1e-12);
        QVERIFY(s.stats.total_time < p.stats.total_time);
        // Not in the reference models (the feature off), nor where TP already splits the
        // activation by sequence (its message is 1/t already, and no all-gather is added).
        EvaluateOptions off = corrected();
        off.features.pipelineScatterGather = false;
        QCOMPARE(run(app, scattered, off).stats.pp_comm_link_time, p.stats.pp_comm_link_time);
        Execution sequence = plain;
        sequence.tensorParCommType = TpCommType::RsAg;
        Execution sequenceScattered = sequence;
        sequenceScattered.pipelineScatterGather = true;
        QCOMPARE(run(app, sequenceScattered, corrected()).stats.pp_comm_link_time,
                 run(app, sequence, corrected()).stats.pp_comm_link_time);
    }

    void softwareOverheadsNamedInTheGap()
    {
        // The calibration's fixed costs, counted by hand: one microbatch per GPU, four MoE
        // blocks plus the embedding and the LM head, three passes each (forward, and a backward
        // that launches twice the forward's kernels), no recompute. Per-block overhead 10 us on
        // all six; the dropless all-to-all dispatcher's host synchronisation, 100 us, on the four
        // MoE blocks only. The efficiency gap shows each as its own loss, out of the kernels'.
        Application app = gpt();
        app.feedforward = 512;
        app.vocabSize = 32000;
        Execution exe = moeLayout();
        EvaluateOptions options = corrected(true);
        options.calibration.blockOverhead_s = 10e-6;
        options.calibration.moeBlockOverhead_s = 100e-6;
        const Evaluation e = run(app, exe, options);
        QVERIFY(e.ok);
        gapstudio::test::relativeNear(e.stats.software_overhead_time, 1.0 * (4 + 2) * 3 * 10e-6, 1e-9);
        gapstudio::test::relativeNear(e.stats.moe_sync_time, 1.0 * 4 * 3 * 100e-6, 1e-9);
        const Analysis a = analyze(app, exe, machine(), e);
        const auto loss = [&](const char *key) {
            for (const TimeComponent &l : a.gap.losses)
                if (l.key == key)
                    return l.seconds;
            qFatal("no loss %s", key);
        };
        gapstudio::test::relativeNear(loss("software"), e.stats.software_overhead_time / e.stats.total_time);
        gapstudio::test::relativeNear(loss("moe_sync"), e.stats.moe_sync_time / e.stats.total_time);
        // A capacity factor (or a fused dispatcher) needs no host synchronisation.
        exe.moeCapacityFactor = 1;
        QCOMPARE(run(app, exe, options).stats.moe_sync_time, 0.0);
        exe.moeCapacityFactor = 0;
        exe.moeDispatcher = MoeDispatcher::Flex;
        QCOMPARE(run(app, exe, options).stats.moe_sync_time, 0.0);
    }
};

QTEST_APPLESS_MAIN(tst_Fidelity)
#include "tst_fidelity.moc"
