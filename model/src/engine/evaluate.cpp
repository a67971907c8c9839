// One evaluation of the reference model: compile (layout, block), run (block, batch, memory),
// check capacities. Calculon caa4b11 `Llm.compile` / `Llm.run`; calculon-model.md §2-§8.
#include "gapstudio/model/evaluate.h"

#include "engine/block_builder.h"
#include "engine/block_stats.h"
#include "engine/checks.h"
#include "engine/run.h"

#include <optional>
#include <utility>

namespace gapstudio::model {

namespace detail {

Layout compileLayout(const Application &app, const Execution &exe, const Features &features) noexcept
{
    Layout lay;
    // Uneven PP: the first L mod pp stages get one block more; processor 0 is reported, and
    // the later stages' missing blocks shorten its bubble (§4.5).
    lay.blocksPerProc = app.numBlocks / exe.pipelinePar;
    if (app.numBlocks % exe.pipelinePar != 0) {
        lay.blocksPerProc += 1;
        lay.bubbleReductionBlocks = exe.pipelinePar - app.numBlocks % exe.pipelinePar;
    }
    lay.blocksPerChunk = lay.blocksPerProc / exe.pipelineInterleaving;
    lay.chunksPerProc = lay.blocksPerProc / lay.blocksPerChunk;
    lay.baseblocksPerChunk = lay.blocksPerChunk - 1;
    lay.microbatches = exe.batchSize / exe.dataPar / exe.microbatchSize;
    const std::int64_t batchSeq = tokensPerRank(app, exe, features);
    lay.activationSize = dbl(batchSeq * app.hidden);
    lay.seqParActivationSize = dbl(batchSeq / exe.tensorPar * app.hidden);
    return lay;
}

Execution effectiveExecution(const Execution &input) noexcept
{
    // calculon-MoE forces sequence parallelism in MoE blocks with TP (its quirk Q10; the expert
    // layers assume the sequence-split attention output).
    Execution exe = input;
    if (exe.modelMoE && exe.tensorPar > 1)
        exe.tensorParCommType = TpCommType::RsAg;
    return exe;
}

LayerContext layerContext(const Execution &exe, const System &sys, const EvaluateOptions &options) noexcept
{
    const auto dt = static_cast<std::size_t>(exe.datatype);
    LayerContext ctx;
    ctx.matrix = &*sys.matrix[dt];
    ctx.vector = &*sys.vector[dt];
    ctx.mem1 = &sys.mem1;
    ctx.mode = sys.processingMode;
    ctx.bytesPerElement = bytesPerElement(exe.datatype);
    ctx.matrixType = exe.datatype;
    const Features &features = options.features;
    // The distributed optimizer shards over the data-parallel ranks, which under context
    // parallelism include the context-parallel ones: Megatron-Core builds the dense parameters'
    // optimizer over the DP x CP group (docs/references.md, distributed optimizer). The experts'
    // shard over expert DP, which spans the context-parallel ranks already.
    const double contextShards = features.attention ? dbl(exe.contextPar) : 1.0;
    ctx.optimizerShards = exe.optimizerSharding ? dbl(exe.dataPar) * contextShards : 1.0;
    if (features.precisionRecipe) {
        ctx.recipe = true;
        ctx.lowBytesPerElement = ctx.bytesPerElement;
        if (ctx.bytesPerElement < 2) {
            // FP8/FP4 run only the blocks' linear layers in the low datatype; everything else,
            // activations and messages included, stays in 16 bits (Transformer Engine's FP8
            // autocast; Micikevicius et al. 2022, section 5).
            for (const Datatype wide : {Datatype::Bfloat16, Datatype::Float16}) {
                const auto w = static_cast<std::size_t>(wide);
                if (sys.matrix[w] && sys.vector[w] && sys.matrix[w]->peak_flops > 0) {
                    ctx.matrixLow = ctx.matrix;
                    ctx.matrixLowType = exe.datatype;
                    ctx.matrix = &*sys.matrix[w];
                    ctx.vector = &*sys.vector[w];
                    ctx.matrixType = wide;
                    ctx.bytesPerElement = 2;
                    break;
                }
            }
        }
    }
    if (features.calibrated) {
        ctx.calibration = &options.calibration;
        ctx.calibratedHbm_Bps = calibratedHbmRate(*ctx.mem1, options.calibration);
        ctx.mode = ProcessingMode::Roofline; // a kernel's memory traffic overlaps its math
        ctx.smCount = sys.smCount;
        ctx.tileM = sys.gemmTileM;
        ctx.tileN = sys.gemmTileN;
        ctx.eagerKernels = features.eagerKernels && exe.eagerKernels;
        ctx.gatedActivation = exe.activationFunction == ActivationFunction::Silu;
        ctx.hostOpTime_s = hostOpTimeOrDefault(sys.hostOpTime_s);
    }
    ctx.collectiveAllToAll = features.moeDetails;
    return ctx;
}

Run prepareRun(const Application &app, const Execution &exe, const System &sys,
               const EvaluateOptions &options) noexcept
{
    const Features &features = options.features;
    Run run{app, exe, sys, options.quirks, features, compileLayout(app, exe, features), layerContext(exe, sys, options),
            nullptr, nullptr, nullptr, nullptr, 0, 0, 0, {}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, {}};
    if (features.embeddingAndHead)
        run.layout.bubbleReductionBlocks = 0; // uneven stages are the stage model's (stages.cpp)
    run.tpNetIndex = exe.tensorParNet;
    run.ppNetIndex = exe.pipelineParNet;
    run.dpNetIndex = exe.dataParNet;
    const auto tier = [&sys](std::int64_t index) { return &sys.networks[static_cast<std::size_t>(index)]; };
    run.tpNet = tier(exe.tensorParNet);
    run.ppNet = tier(exe.pipelineParNet);
    run.dpNet = tier(exe.dataParNet);
    run.dpExpNet = exe.modelMoE ? tier(exe.dataParExpNet) : run.dpNet;
    return run;
}

namespace {

/// Full recompute keeps one checkpoint, the block input, per block and microbatch (§5); in MoE
/// blocks the sequence-parallel shard of it.
void checkpointSize(const Run &run, Stats &o) noexcept
{
    const Application &app = run.app;
    const Execution &exe = run.exe;
    const Features &features = run.features;
    const double b = run.ctx.bytesPerElement;
    // The corrected model keeps the sequence-parallel shard in dense blocks too, as Megatron-LM
    // checkpoints the layer input in its sequence-parallel layout (Korthikanti et al. 2022, 5.1).
    const bool shardedCheckpoint = exe.modelMoE || (features.precisionRecipe && exe.tensorParCommType == TpCommType::RsAg);
    if (exe.training && exe.activationRecompute == Recompute::Full)
        o.block_act_checkpoint_size =
            (shardedCheckpoint ? dbl(tokensPerRank(app, exe, features) * app.hidden / exe.tensorPar)
                               : run.layout.activationSize) *
            b;
}

/// §4.3: the p2p message is the sequence-split activation when TP splits it at chunk edges, and
/// each TP rank's 1/TP share of it under the scatter/gather optimisation (scatterGathersPipeline).
void pipelineMessageSizes(const Run &run, Stats &o) noexcept
{
    const Execution &exe = run.exe;
    const double b = run.ctx.bytesPerElement;
    if (exe.pipelinePar > 1) {
        const bool split = exe.tensorParCommType != TpCommType::Ar || scatterGathersPipeline(run);
        o.block_fw_pp_size = (split ? run.layout.seqParActivationSize : run.layout.activationSize) * b;
    }
    if (exe.training)
        o.block_bw_pp_size = o.block_fw_pp_size;
}

/// The capacity check of both memory tiers: a design over capacity is evaluated but not ok.
void checkCapacities(Evaluation &result, const System &sys, bool explain)
{
    const Stats &o = result.stats;
    const auto capacity = [&](double need, double has, DiagnosticCode code, const char *memory) {
        if (need <= has)
            return;
        result.ok = false;
        result.diagnostics.push_back({ code, "",
                                       explain ? std::string("Mem ") + memory + " needs " + humanBytes(need)
                                                     + " but only has " + humanBytes(has)
                                               : std::string() });
    };
    capacity(o.proc_mem_tier1_cap_req, sys.mem1.capacity_B, DiagnosticCode::Tier1CapacityExceeded, "tier1");
    capacity(o.proc_mem_tier2_cap_req, sys.mem2.capacity_B, DiagnosticCode::Tier2CapacityExceeded, "tier2");
}

/// The per-layer records (eval --layers): the block's, then the first and last stage's own.
void appendLayers(Evaluation &result, const Block &block, const Run &run)
{
    const Application &app = run.app;
    const Execution &exe = run.exe;
    const System &sys = run.sys;
    const Features &features = run.features;
    result.layers.reserve(block.size);
    for (const Layer &l : block)
        result.layers.push_back(layerStats(l, run.ctx));
    if (features.embeddingAndHead) { // the first and last stage's own layers, after the block's
        for (const Block &ends :
             { buildEmbedding(app, exe, sys, features), buildHead(app, exe, sys, features),
               buildMtpLayer(app, exe, sys, features) })
            for (const Layer &l : ends)
                result.layers.push_back(layerStats(l, run.ctx));
    }
}

} // namespace

} // namespace detail

Evaluation evaluate(const Application &app, const Execution &input, const System &sys,
                    const EvaluateOptions &options)
{
    using namespace detail;
    Evaluation result;
    result.diagnostics
        = checkConfiguration(app, input, sys, options.explain, options.features, options.checkSystemRanges);
    if (!result.diagnostics.empty())
        return result;

    const Execution exe = effectiveExecution(input);

    const Features &features = options.features;
    Run run = prepareRun(app, exe, sys, options);
    const Block block = exe.modelMoE ? buildMoeBlock(app, exe, sys, options.quirks, features)
                                     : buildBlock(app, exe, sys, options.quirks, features);
    Stats &o = result.stats;
    checkpointSize(run, o);
    computeBlockStats(block, run.ctx, exe, options.quirks, o, run.comm);
    pipelineMessageSizes(run, o);

    computeBatchStats(run, o);
    if (features.embeddingAndHead)
        applyStages(run, o);
    computeMemoryAndEfficiency(run, block, o);

    // The final guard: finite, non-negative results, or an error naming the likeliest input.
    if (std::optional<Diagnostic> guard = checkResults(app, exe, sys, o, options.explain)) {
        result.diagnostics.push_back(std::move(*guard));
        return result;
    }

    result.ok = true;
    checkCapacities(result, sys, options.explain);
    if (options.withLayers)
        appendLayers(result, block, run);
    return result;
}

} // namespace gapstudio::model
