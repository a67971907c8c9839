// The corrected model's embedding (first pipeline stage) and LM head with its loss (last stage):
// Megatron-LM's VocabParallelEmbedding, final norm, output layer and
// vocab_parallel_cross_entropy, all split over TP by vocabulary rows (Shoeybi et al. 2019,
// section 3; Narayanan et al. 2021, equation for the logit layer's 6 * B * s * h * V flops).
// The LM head runs in 16 bits under the FP8 recipe (Megatron-Core keeps the output layer out of
// Transformer Engine's FP8 autocast). Multi-token prediction (DeepSeek-V3 technical report,
// arXiv 2412.19437, section 2.2, equations 21-25; Megatron-Core
// megatron/core/transformer/multi_token_prediction.py): each of the D MTP layers on the last
// stage embeds the inputs shifted by one more token, normalises them and the previous depth's
// hidden state (RMSNorm each), projects their concatenation 2h -> h (eh_proj, column-parallel
// over TP, gathered back), runs one transformer block of the model's kind and the shared output
// head and loss. Sources: docs/references.md.
#include "engine/block_builder.h"

namespace gapstudio::model::detail {

namespace {

/// Tokens on this rank and the activation that TP sees before/after sequence parallelism.
struct HeadShape {
    I tokens = 0;
    I act = 0;   ///< tokens x h
    I local = 0; ///< tokens x h / TP with sequence parallelism, else act
    I rows = 0;  ///< vocabulary rows on this TP rank
};

HeadShape headShape(const Application &app, const Execution &exe, const Features &features)
{
    HeadShape s;
    s.tokens = tokensPerRank(app, exe, features);
    s.act = s.tokens * app.hidden;
    s.local = exe.tensorParCommType == TpCommType::RsAg ? s.act / exe.tensorPar : s.act;
    s.rows = (app.vocabSize + exe.tensorPar - 1) / exe.tensorPar;
    return s;
}

} // namespace

Block buildEmbedding(const Application &app, const Execution &exe, const System &sys, const Features &features) noexcept
{
    BlockBuilder b(app, exe, sys);
    if (!features.embeddingAndHead || app.vocabSize <= 0)
        return b.take();
    const HeadShape s = headShape(app, exe, features);
    b.embedding("Embedding_Lookup", s.tokens, s.rows, {});
    // Each rank looks up its own vocabulary rows; the partial embeddings are summed over TP
    // (an all-reduce, or a reduce-scatter into the sequence-parallel layout).
    b.tpComm("Embedding_G", s.act, true, {false, false, false, false, true});
    return b.take();
}

Block buildHead(const Application &app, const Execution &exe, const System &sys, const Features &features) noexcept
{
    BlockBuilder b(app, exe, sys);
    if (!features.embeddingAndHead || app.vocabSize <= 0)
        return b.take();
    const HeadShape s = headShape(app, exe, features);
    b.layerNorm("Head_FinalNorm", s.local, {false, false, true, false, true});
    b.tpComm("Head_F", s.act, false, {false, false, false, true, true});
    Layer &head = b.linear("Head_Logits", s.tokens, app.hidden, s.rows, {});
    head.lowPrecision = false;
    if (app.tiedEmbeddings && exe.pipelinePar == 1)
        head.weightSpace = head.weightGrads = head.optimSpace = 0; // the embedding's table
    b.loss("Head_CrossEntropy", s.tokens * s.rows, {});
    // The loss reduces the row maxima, the exponential sums and the target logits over TP:
    // three FP32 values per token.
    b.collective("Head_Loss_AllReduce", 3 * 2 * s.tokens, true, {}, exe.tensorPar, b.tier(exe.tensorParNet),
                 TpCommType::Ar);
    return b.take();
}

Block buildMtpLayer(const Application &app, const Execution &exe, const System &sys,
                    const Features &features) noexcept
{
    BlockBuilder b(app, exe, sys);
    if (!features.embeddingAndHead || app.vocabSize <= 0 || app.mtpLayers <= 0)
        return b.take();
    const HeadShape s = headShape(app, exe, features);
    // The embedding table is shared with the first stage's (a copy on the last stage, its
    // gradient reduced with the first's as for tied embeddings).
    b.embedding("Mtp_Embedding", s.tokens, s.rows, {});
    b.tpComm("Mtp_Embedding_G", s.act, true, { false, false, false, false, true });
    b.layerNorm("Mtp_EmbeddingNorm", s.local, { false, false, true, false, true });
    b.layerNorm("Mtp_HiddenNorm", s.local, { false, false, true, false, true });
    b.tpComm("Mtp_F", 2 * s.act, false, { false, false, false, true, true });
    b.linear("Mtp_Projection", s.tokens, 2 * app.hidden, app.hidden / exe.tensorPar, {});
    b.tpComm("Mtp_G", s.act, false, { false, false, false, false, true });
    return b.take();
}

} // namespace gapstudio::model::detail
