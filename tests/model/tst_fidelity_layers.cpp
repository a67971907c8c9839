// The corrected model's layers and kernel costs (model/include/gapstudio/model/fidelity.h), each
// checked against a number derived by hand from its published definition, never against the
// code's own output: shared experts and the capacity factor, multi-head latent attention,
// multi-token prediction, GEMM tile and wave quantisation, eager-mode element-wise kernels, the
// software stack's fixed costs counted per block and pass, and the load imbalance of dropless
// routing. Attention, FLOPs, parallelism and schedules: tst_fidelity. Sources: docs/references.md.
#include "fidelity_machine.h"
#include "relative_near.h"

#include "gapstudio/model/analysis.h"
#include "gapstudio/model/evaluate.h"

#include "engine/layers.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <string>

using namespace gapstudio::model;
using namespace gapstudio::test::fidelity;

class tst_FidelityLayers : public QObject {
    Q_OBJECT

private slots:
    void dropoutOfZeroIsNoKernel()
    {
        // PyTorch's dropout returns its input when p = 0 (docs/references.md): a model trained
        // without dropout runs no dropout kernel and keeps no mask. With unfused attention there
        // are three dropouts per block: on the 16 heads' 2048 x 2048 probabilities and on the
        // 2048 x 1024 hidden states after attention and after the MLP.
        const Application app = gpt();
        Execution exe = layout();
        exe.attentionKernel = AttentionKernel::Unfused;
        const char *names[] = { "AttnBlock_Multihead_DropOut", "AttnBlock_DropOut", "MlpBlock_DropOut" };
        const double elements[] = { 16.0 * 2048 * 2048, 2048.0 * 1024, 2048.0 * 1024 };
        const Evaluation stated = run(app, exe, corrected());
        QVERIFY(stated.ok);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(layer(stated, names[i]).inputs_size, elements[i]);
        const auto has = [](const Evaluation &e, const char *name) {
            return std::any_of(e.layers.begin(), e.layers.end(),
                               [&](const LayerStats &l) { return l.name == name; });
        };
        Application none = app;
        none.attentionDropout = 0;
        none.hiddenDropout = 0;
        const Evaluation dropless = run(none, exe, corrected());
        QVERIFY(dropless.ok);
        for (const char *name : names)
            QVERIFY2(!has(dropless, name), name);
        // Each dropout kept a 1-byte mask per element for the backward pass.
        gapstudio::test::relativeNear(stated.stats.block_act_storage_space
                                          - dropless.stats.block_act_storage_space,
                                      elements[0] + elements[1] + elements[2]);
        QVERIFY(dropless.stats.total_time < stated.stats.total_time);
        // Each switch acts on its own dropouts; a probability above 0 runs the kernel.
        Application attentionOnly = app;
        attentionOnly.attentionDropout = 0;
        attentionOnly.hiddenDropout = 0.1;
        const Evaluation hidden = run(attentionOnly, exe, corrected());
        QVERIFY(!has(hidden, names[0]) && has(hidden, names[1]) && has(hidden, names[2]));
        // The references always run them.
        EvaluateOptions reference = corrected();
        reference.features = Features::reference();
        reference.quirks = Quirks::reference();
        QVERIFY(has(run(none, exe, reference), names[0]));
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
        for (const char *name : { "AttnBlock_Query_Down", "AttnBlock_Query_Up", "AttnBlock_KV_Down",
                                  "AttnBlock_KV_Up", "AttnBlock_MLP" })
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

    void calibratedMemoryTrafficAtTheStacksHbmRate()
    {
        // A calibrated kernel moves its bytes at the HBM bandwidth times the calibration's HBM
        // efficiency, and every kernel of the software stack at its compute efficiency of the
        // hardware's rate (docs/references.md): here 1 TB/s x 0.7 x 0.9 = 630 GB/s for every
        // layer and pass, so each pass's memory time is its bytes over that rate.
        EvaluateOptions options = corrected(true);
        options.calibration.hbmEfficiency = 0.7;
        options.calibration.computeEfficiency = 0.9;
        const Evaluation e = run(gpt(), layout(), options);
        QVERIFY(e.ok);
        const double rate = 1e12 * 0.7 * 0.9;
        QVERIFY(e.stats.block_fw_mem_accessed > 0 && e.stats.block_agrad_mem_accessed > 0);
        gapstudio::test::relativeNear(e.stats.block_fw_mem_time, e.stats.block_fw_mem_accessed / rate, 1e-12);
        gapstudio::test::relativeNear(e.stats.block_agrad_mem_time, e.stats.block_agrad_mem_accessed / rate,
                                      1e-12);
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

    void expertLoadImbalance()
    {
        // Dropless routing of 2048 tokens x top-2 on each of 8 GPUs with one expert each: 4096
        // token-expert pairs per GPU on average. Spread at random, the fullest of the 8 GPUs
        // gets 4096 + sqrt(2 x 4096 x ln 8) = 4226.5 (Raab and Steger 1998, the heavily loaded
        // case), 1.03186 times the mean, and the EP group waits for it: its expert GEMMs and
        // activation take that much longer in every pass. Four MoE blocks, one microbatch.
        Application app = gpt();
        app.feedforward = 512;
        Execution exe = moeLayout();
        const double factor = (4096 + std::sqrt(2 * 4096 * std::log(8.0))) / 4096;
        EvaluateOptions even = corrected();
        even.features.moeImbalance = false;
        const Evaluation balanced = run(app, exe, even);
        const Evaluation dropless = run(app, exe, corrected());
        QVERIFY(balanced.ok && dropless.ok);
        double fw = 0, bw = 0;
        for (const char *name : { "MlpBlock_Mlp1_MoE", "MlpBlock_GeLU_MoE", "MlpBlock_Mlp2_MoE" }) {
            const LayerStats &l = layer(balanced, name);
            fw += l.fw_processing_time;
            bw += l.agrad_processing_time + l.wgrad_processing_time;
        }
        QVERIFY(fw > 0 && bw > 0);
        const Stats &a = balanced.stats, &b = dropless.stats;
        gapstudio::test::relativeNear(b.block_fw_time - a.block_fw_time, (factor - 1) * fw, 1e-9);
        gapstudio::test::relativeNear((b.block_agrad_time + b.block_wgrad_time)
                                          - (a.block_agrad_time + a.block_wgrad_time),
                                      (factor - 1) * bw, 1e-9);
        gapstudio::test::relativeNear(b.block_moe_imbalance_time, (factor - 1) * (fw + bw), 1e-9);
        gapstudio::test::relativeNear(b.moe_imbalance_time, 4 * (factor - 1) * (fw + bw), 1e-9);
        QCOMPARE(a.moe_imbalance_time, 0.0);
        // The efficiency gap names it.
        const Analysis analysis = analyze(app, exe, machine(), dropless);
        const auto loss = std::find_if(analysis.gap.losses.begin(), analysis.gap.losses.end(),
                                       [](const TimeComponent &l) { return l.key == "moe_imbalance"; });
        QVERIFY(loss != analysis.gap.losses.end());
        gapstudio::test::relativeNear(loss->seconds, b.moe_imbalance_time / b.total_time);
        // Experts padded to a capacity factor take no imbalance, nor do experts that all sit on
        // each GPU (EP 1: every GPU routes its own tokens).
        Execution padded = exe;
        padded.moeCapacityFactor = 1;
        const Evaluation capacity = run(app, padded, corrected());
        QVERIFY(capacity.ok);
        QCOMPARE(capacity.stats.moe_imbalance_time, 0.0);
        Execution local = exe;
        local.expertPar = 1;
        local.dataParExp = 8;
        const Evaluation one = run(app, local, corrected());
        QVERIFY(one.ok);
        QCOMPARE(one.stats.moe_imbalance_time, 0.0);
    }
};

QTEST_APPLESS_MAIN(tst_FidelityLayers)
#include "tst_fidelity_layers.moc"
