// Resolved blocks -> the reference model's three inputs (calculon-model.md §1). The network tiers
// follow the topology kind; every other number is copied from one block without arithmetic, so
// presets that hold a reference system's numbers compile to exactly that system.
#include "gapstudio/scenario/scenario.h"

#include "calibration/calibration_lookup.h"
#include "gapstudio/model/limits.h"
#include "gapstudio/scenario/locate.h"

#include <string>

namespace gapstudio::scenario {

namespace {

using model::Diagnostic;
using model::DiagnosticCode;
using model::Diagnostics;

void invalid(Diagnostics &diagnostics, std::string field, std::string message)
{
    diagnostics.push_back(
        Diagnostic { DiagnosticCode::InvalidScenario, std::move(field), std::move(message) });
}

/// One tier made of `link` (calculon-model.md §1.3 network keys; all_to_all from calculon-MoE).
model::NetworkTier tierOf(const Interconnect &link, std::int64_t size, bool mustBeFilled)
{
    model::NetworkTier tier;
    tier.bandwidth_Bps = link.bandwidth_Bps;
    tier.efficiency = link.efficiency;
    tier.size = size;
    tier.latency_s = link.latency_s;
    tier.p2p = model::NetworkOp { 1, 0, 0 };
    tier.reduceScatter = link.reduceScatter;
    tier.allGather = link.allGather;
    tier.allReduce = link.allReduce;
    tier.allToAll = model::NetworkOp { 1, 0, link.allToAllEfficiency > 0 ? link.allToAllEfficiency : 0 };
    tier.mustBeFilled = mustBeFilled;
    tier.processorUsage = link.processorUsage;
    return tier;
}

std::int64_t fabricSize(const Interconnect &link, std::int64_t gpuCount)
{
    return link.maxDomainSize > 0 ? link.maxDomainSize : gpuCount;
}

model::System systemOf(const ResolvedScenario &r, Diagnostics &diagnostics)
{
    model::System sys;
    for (std::size_t i = 0; i < model::kDatatypeCount; ++i) {
        if (r.gpu.matrixPeak_flops[i])
            sys.matrix[i] = model::ComputeEngine { *r.gpu.matrixPeak_flops[i], r.gpu.matrixEfficiency };
        if (r.gpu.vectorPeak_flops[i])
            sys.vector[i] = model::ComputeEngine { *r.gpu.vectorPeak_flops[i], r.gpu.vectorEfficiency };
    }
    sys.mem1 = r.gpu.hbm;
    sys.mem2 = r.gpu.tier2;
    sys.smCount = r.gpu.smCount;
    sys.gemmTileM = r.gpu.gemmTileM;
    sys.gemmTileN = r.gpu.gemmTileN;
    // Host time per framework operator: the GPU's host (else the documented x86 one) times the
    // software stack's cost per operator.
    sys.hostOpTime_s = model::hostOpTimeOrDefault(r.gpu.hostOpTime_s) * r.software.hostOpFactor;
    sys.processingMode = model::ProcessingMode::NoOverlap; // every reference system file

    const Topology &topo = r.topology;
    if (topo.scaleUpDomainSize < 1)
        invalid(diagnostics, "topology", "the scale-up domain needs at least 1 GPU");
    if (r.scaleUp.maxDomainSize > 0 && topo.scaleUpDomainSize > r.scaleUp.maxDomainSize)
        invalid(diagnostics, "topology",
                "a scale-up domain of " + std::to_string(topo.scaleUpDomainSize) + " GPUs exceeds what "
                    + r.scaleUp.info.name + " can join (" + std::to_string(r.scaleUp.maxDomainSize) + ")");
    // A scale-out fabric joins every GPU of the design: its link must be able to (the
    // interconnect preset's max_domain_size, e.g. 576 GPUs for NVLink 5 with NVLink switches).
    if (r.scaleOut.maxDomainSize > 0 && r.gpuCount > r.scaleOut.maxDomainSize)
        invalid(diagnostics, "scale_out",
                "a scale-out fabric of " + std::to_string(r.gpuCount) + " GPUs exceeds what "
                    + r.scaleOut.info.name + " can join (" + std::to_string(r.scaleOut.maxDomainSize) + ")");
    // Tier 0: the scale-up domain.
    sys.networks.push_back(tierOf(r.scaleUp, topo.scaleUpDomainSize, topo.scaleUpMustBeFilled));
    switch (topo.kind) {
    case TopologyKind::TwoTier:
    case TopologyKind::FullFlat:
        // Tier 1: the scale-out fabric across domains. For FullFlat (Tithi et al.) that fabric is
        // the optical full-flat interconnect at scale-up-class bandwidth (calculon-moe-model.md §9).
        sys.networks.push_back(tierOf(r.scaleOut, fabricSize(r.scaleOut, r.gpuCount), false));
        break;
    case TopologyKind::ThreeTier: {
        if (topo.leafSize < 1)
            invalid(diagnostics, "topology", "a three-tier topology needs a leaf size of at least 1 GPU");
        if (!(topo.oversubscription >= 1))
            invalid(diagnostics, "topology", "the spine oversubscription must be at least 1");
        // Tier 1: GPUs under one leaf switch at full scale-out bandwidth; tier 2: across the
        // spine, whose bandwidth per GPU is divided by the oversubscription ratio.
        sys.networks.push_back(tierOf(r.scaleOut, topo.leafSize, false));
        model::NetworkTier spine = tierOf(r.scaleOut, fabricSize(r.scaleOut, r.gpuCount), false);
        spine.bandwidth_Bps = r.scaleOut.bandwidth_Bps / topo.oversubscription;
        sys.networks.push_back(spine);
        break;
    }
    }
    return sys;
}

model::Application applicationOf(const Llm &llm, Diagnostics &diagnostics)
{
    model::Application app;
    app.hidden = llm.hidden;
    app.feedforward = llm.feedforward;
    app.seqSize = llm.seqSize;
    app.attnHeads = llm.attnHeads;
    app.attnSize = llm.headSize;
    app.numBlocks = llm.numBlocks;
    for (const auto &[value, key] :
         { std::pair { llm.hidden, "hidden" }, std::pair { llm.feedforward, "feedforward" },
           std::pair { llm.seqSize, "seq_size" }, std::pair { llm.attnHeads, "attn_heads" },
           std::pair { llm.headSize, "head_size" }, std::pair { llm.numBlocks, "num_blocks" } }) {
        if (value < 1)
            invalid(diagnostics, std::string("llm/") + key,
                    "expected at least 1, got " + std::to_string(value));
    }
    const std::int64_t kv = llm.kvHeads == 0 ? llm.attnHeads : llm.kvHeads; // 0: not set, multi-head
    if (kv < 1 || kv > llm.attnHeads || (llm.attnHeads > 0 && llm.attnHeads % kv != 0))
        invalid(diagnostics, "llm/kv_heads",
                std::to_string(llm.kvHeads) + " key/value heads do not divide the "
                    + std::to_string(llm.attnHeads) + " attention heads");
    else if (kv > 1 && kv < llm.attnHeads)
        app.kvHeads = kv; // grouped-query; MHA and MQA are the execution's attention_type
    // The corrected model's parts of the transformer (the references never read them).
    app.vocabSize = llm.vocabSize;
    app.tiedEmbeddings = llm.tiedEmbeddings;
    app.sharedExperts = llm.sharedExperts;
    app.sharedExpertFeedforward = llm.sharedExpertFeedforward;
    app.routerGroups = llm.routerGroups;
    app.denseBlocks = llm.denseBlocks;
    app.denseFeedforward = llm.denseFeedforward;
    app.denseBlocksInterleaved = llm.denseBlocksInterleaved;
    app.qLoraRank = llm.qLoraRank;
    app.kvLoraRank = llm.kvLoraRank;
    app.ropeHeadSize = llm.ropeHeadSize;
    app.valueHeadSize = llm.valueHeadSize;
    app.slidingWindow = llm.slidingWindow;
    app.slidingWindowBlocks = llm.slidingWindowBlocks;
    app.mtpLayers = llm.mtpLayers;
    app.attentionDropout = llm.attentionDropout;
    app.hiddenDropout = llm.hiddenDropout;
    if (llm.denseBlocks > llm.numBlocks)
        invalid(diagnostics, "llm/dense_blocks",
                std::to_string(llm.denseBlocks) + " dense blocks exceed the " + std::to_string(llm.numBlocks)
                    + " blocks of the model");
    if (llm.mtpLayers > llm.numBlocks)
        invalid(diagnostics, "llm/mtp_layers",
                std::to_string(llm.mtpLayers) + " multi-token prediction layers exceed the "
                    + std::to_string(llm.numBlocks) + " blocks of the model");
    if (llm.numExperts < 1 || llm.topK < 1 || llm.topK > llm.numExperts)
        invalid(diagnostics, "llm/top_k",
                "top-k " + std::to_string(llm.topK)
                    + " must lie in [1, experts = " + std::to_string(llm.numExperts) + "]");
    return app;
}

model::Execution executionOf(const ResolvedScenario &r, std::size_t tiers, Diagnostics &diagnostics)
{
    model::Execution exe = r.layout.execution;
    exe.numProcs = r.gpuCount;
    const bool mqa = r.llm.attnHeads > 1 && (r.llm.kvHeads == 1);
    exe.attentionType = mqa ? model::AttentionType::MultiQuery : model::AttentionType::MultiHead;
    // Dense blocks honour it in the corrected model only (Quirks::denseMlpAlwaysGelu).
    exe.activationFunction = r.llm.activation;
    if (r.llm.isMoe()) {
        exe.modelMoE = true;
        exe.numExperts = r.llm.numExperts;
        exe.topKExperts = r.llm.topK;
    } else {
        exe.modelMoE = false;
        exe.numExperts = 1;
        exe.topKExperts = 1;
        exe.expertPar = exe.expertSlice = exe.dataParExp = 1;
    }
    exe.gradientReduceBytes = r.software.gradientReduceBytes;
    exe.eagerKernels = r.software.eagerKernels;
    exe.moeRouterFusion = r.software.moeRouterFusion;
    exe.pipelineScatterGather = r.software.pipelineScatterGather;
    // The software stack's MoE dispatcher and all-to-all overlap, unless the layout names its own.
    if (r.software.moeDispatcher && !r.layout.namesMoeDispatcher)
        exe.moeDispatcher = *r.software.moeDispatcher;
    if (r.software.moeAllToAllOverlap && !r.layout.namesMoeAllToAllOverlap)
        exe.moeAllToAllOverlap = *r.software.moeAllToAllOverlap;
    if (r.software.cudaGraphScopes && !r.layout.namesCudaGraphScopes)
        exe.cudaGraphScopes = *r.software.cudaGraphScopes;
    if (exe.contextParNet < 0) {
        // Automatic: CP sits next to TP in Megatron-Core's rank order (tp-cp-ep-dp-pp), so its
        // ranks share the scale-up domain when TP x CP fits in it.
        exe.contextParNet = exe.tensorPar * exe.contextPar <= r.topology.scaleUpDomainSize ? 0 : 1;
    }
    const auto net = [&](std::int64_t index, const char *key) {
        if (index < 0 || static_cast<std::size_t>(index) >= tiers)
            invalid(diagnostics, std::string("layout/") + key,
                    "network tier " + std::to_string(index) + " does not exist: the topology has "
                        + std::to_string(tiers) + " tiers");
    };
    net(exe.tensorParNet, "tensor_par_net");
    net(exe.pipelineParNet, "pipeline_par_net");
    net(exe.dataParNet, "data_par_net");
    if (exe.contextPar > 1)
        net(exe.contextParNet, "context_par_net");
    if (exe.modelMoE) {
        net(exe.expertParNet, "expert_par_net");
        net(exe.expertSliceNet, "expert_slice_net");
        net(exe.dataParExpNet, "data_par_exp_net");
    }
    return exe;
}

} // namespace

std::optional<CompiledScenario> compileResolved(const ResolvedScenario &resolved, Diagnostics &diagnostics,
                                                const CompileOptions &options)
{
    const std::size_t before = diagnostics.size();
    CompiledScenario out;
    out.system = systemOf(resolved, diagnostics);
    out.application = applicationOf(resolved.llm, diagnostics);
    out.execution = executionOf(resolved, out.system.networks.size(), diagnostics);
    out.resolved = resolved;
    out.quirks = scenarioQuirks(options.referenceQuirks, resolved.llm.isMoe());
    out.features = options.referenceQuirks ? model::Features::reference() : model::Features::corrected();
    if (diagnostics.size() != before)
        return std::nullopt;
    if (!options.referenceQuirks)
        applyCalibration(out);
    return out;
}

CompileResult compile(const Scenario &scenario, const PresetLibrary &library, const CompileOptions &options)
{
    CompileResult result;
    try {
        if (const auto resolved = resolve(scenario, library, result.diagnostics)) {
            result.compiled = compileResolved(*resolved, result.diagnostics, options);
            if (result.compiled && !options.referenceQuirks)
                keepOverriddenLinks(*result.compiled, scenario);
        }
        if (result.compiled) {
            // Numbers the model cannot compute with (a GPU scaled past 1e9 TFLOPS, ...), named
            // where the scenario sets them.
            model::Diagnostics ranges;
            model::checkSystemRanges(result.compiled->execution, result.compiled->system, true, ranges);
            for (const Diagnostic &d : ranges)
                invalid(result.diagnostics, scenarioPointer(scenario, d).substr(1), d.message);
            if (!ranges.empty())
                result.compiled.reset();
        }
    } catch (const std::exception &error) { // std::bad_alloc only; compile() never throws
        result.compiled.reset();
        result.diagnostics.push_back(Diagnostic { DiagnosticCode::InvalidScenario, {}, error.what() });
    }
    return result;
}

} // namespace gapstudio::scenario
