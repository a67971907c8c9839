// Built-in fallback presets. The H100, NVLink 4 and InfiniBand NDR entries are the reference's
// validation case 18 system (resources/default_scenario), so the fallback default scenario
// reproduces that case exactly; the others scale those figures by published datasheet ratios.
#include "studio/builtinpresets.h"

#include "scenario/defaultscenario.h"

#include <cstddef>

namespace gapstudio::views::fallback {

namespace {

using namespace gapstudio::scenario;
constexpr const char *kSource = "GapStudio built-in fallback (reference validation case 18 system)";

Gpu gpuFrom(const model::System &sys, BlockInfo info)
{
    Gpu gpu;
    gpu.info = std::move(info);
    for (std::size_t i = 0; i < model::kDatatypeCount; ++i) {
        if (sys.matrix[i]) {
            gpu.matrixPeak_flops[i] = sys.matrix[i]->peak_flops;
            gpu.matrixEfficiency = sys.matrix[i]->efficiency;
        }
        if (sys.vector[i]) {
            gpu.vectorPeak_flops[i] = sys.vector[i]->peak_flops;
            gpu.vectorEfficiency = sys.vector[i]->efficiency;
        }
    }
    gpu.hbm = sys.mem1;
    gpu.tier2 = sys.mem2;
    return gpu;
}

Interconnect linkFrom(const model::NetworkTier &tier, BlockInfo info)
{
    Interconnect link;
    link.info = std::move(info);
    link.bandwidth_Bps = tier.bandwidth_Bps;
    link.latency_s = tier.latency_s;
    link.efficiency = tier.efficiency;
    link.reduceScatter = tier.reduceScatter;
    link.allGather = tier.allGather;
    link.allReduce = tier.allReduce;
    link.inNetworkReduction = tier.allReduce.offset > 0;
    link.processorUsage = tier.processorUsage;
    return link;
}

Gpu scaledGpu(const Gpu &base, BlockInfo info, double flopsScale, double hbm_GiB, double hbm_GBps)
{
    Gpu gpu = base;
    gpu.info = std::move(info);
    for (auto &peak : gpu.matrixPeak_flops)
        if (peak)
            *peak *= flopsScale;
    gpu.hbm.capacity_B = hbm_GiB * 1024.0 * 1024.0 * 1024.0;
    gpu.hbm.bandwidth_Bps = hbm_GBps * 1e9;
    return gpu;
}

Interconnect scaledLink(const Interconnect &base, BlockInfo info, double bandwidth_GBps, double latency_us)
{
    Interconnect link = base;
    link.info = std::move(info);
    link.bandwidth_Bps = bandwidth_GBps * 1e9;
    link.latency_s = latency_us * 1e-6;
    return link;
}

Topology topology(BlockInfo info, TopologyKind kind, std::int64_t domain, bool mustBeFilled)
{
    Topology t;
    t.info = std::move(info);
    t.kind = kind;
    t.scaleUpDomainSize = domain;
    t.scaleUpMustBeFilled = mustBeFilled;
    return t;
}

Llm llm(BlockInfo info, std::int64_t hidden, std::int64_t ff, std::int64_t seq, std::int64_t heads,
        std::int64_t blocks, std::int64_t experts = 1, std::int64_t topK = 1)
{
    Llm l;
    l.info = std::move(info);
    l.hidden = hidden;
    l.feedforward = ff;
    l.seqSize = seq;
    l.attnHeads = heads;
    l.kvHeads = heads;
    l.headSize = hidden / heads;
    l.numBlocks = blocks;
    l.vocabSize = 51200;
    l.numExperts = experts;
    l.topK = topK;
    return l;
}

} // namespace

PresetLibrary library()
{
    const io::CalculonInputs ref = views::defaultScenario();
    PresetLibrary lib;
    const Gpu h100 = gpuFrom(ref.system, {"nvidia-h100-sxm-80gb", "NVIDIA H100 SXM 80GB", kSource});
    lib.gpus[h100.info.id] = h100;
    const Gpu a100 = scaledGpu(h100, {"nvidia-a100-80gb", "NVIDIA A100 80GB", "datasheet ratios to H100"},
                               312.0 / 1000.0, 80, 2039);
    lib.gpus[a100.info.id] = a100;
    const Gpu b200 = scaledGpu(h100, {"nvidia-b200", "NVIDIA B200", "datasheet ratios to H100"}, 2.25, 180, 8000);
    lib.gpus[b200.info.id] = b200;

    const Interconnect nvl4 = linkFrom(ref.system.networks.at(0), {"nvlink-4", "NVLink 4 (NVSwitch)", kSource});
    const Interconnect ndr = linkFrom(ref.system.networks.at(1), {"infiniband-ndr", "InfiniBand NDR", kSource});
    lib.interconnects[nvl4.info.id] = nvl4;
    lib.interconnects[ndr.info.id] = ndr;
    const Interconnect nvl5 = scaledLink(nvl4, {"nvlink-5", "NVLink 5 (NVSwitch)", "datasheet"}, 900, 10);
    lib.interconnects[nvl5.info.id] = nvl5;
    const Interconnect xdr = scaledLink(ndr, {"infiniband-xdr", "InfiniBand XDR", "datasheet"}, 100, 20);
    lib.interconnects[xdr.info.id] = xdr;
    const Interconnect cpo = scaledLink(nvl4, {"fullflat-cpo", "FullFlat co-packaged optics",
                                               "projection in Tithi et al. 2026"}, 1600, 5);
    lib.interconnects[cpo.info.id] = cpo;

    for (const Topology &t : {topology({"two-tier-8", "Two-tier, domains of 8", kSource}, TopologyKind::TwoTier, 8, true),
                              topology({"two-tier-4", "Two-tier, domains of 4", "PCIe/xGMI boards of 4"}, TopologyKind::TwoTier, 4, true),
                              topology({"two-tier-72", "Two-tier, domains of 72", "NVL72"}, TopologyKind::TwoTier, 72, false),
                              topology({"full-flat", "FullFlat", "Tithi et al. 2026"}, TopologyKind::FullFlat, 8, false)})
        lib.topologies[t.info.id] = t;

    const model::Application &app = ref.application;
    Llm gpt3 = llm({"gpt3-175b", "GPT-3 175B", "Brown et al. 2020"}, app.hidden, app.feedforward, app.seqSize,
                   app.attnHeads, app.numBlocks);
    gpt3.headSize = app.attnSize;
    lib.llms[gpt3.info.id] = gpt3;
    const Llm mt1t = llm({"megatron-1t", "Megatron 1T", "Narayanan et al. 2021"}, 25600, 102400, 2048, 160, 128);
    lib.llms[mt1t.info.id] = mt1t;
    const Llm gpt4 = llm({"gpt4-1.8t-moe", "GPT-4-class 1.8T MoE", "Tithi et al. 2026"}, 10752, 43008, 8192, 84,
                         120, 16, 2);
    lib.llms[gpt4.info.id] = gpt4;

    Layout layout{{"tp8-pp16-dp32", "TP 8 × PP 16 × DP 32 (case 18)", kSource}, ref.execution};
    lib.layouts[layout.info.id] = layout;
    Layout pp8 = layout;
    pp8.info = {"tp8-pp8-dp64", "TP 8 × PP 8 × DP 64", "GapStudio"};
    pp8.execution.pipelinePar = 8;
    pp8.execution.dataPar = 64;
    lib.layouts[pp8.info.id] = pp8;
    return lib;
}

Scenario defaultScenario()
{
    Scenario s;
    s.info = {"gpt3-175b-4096-h100", "GPT-3 175B on 4096 H100 (FP8)", kSource};
    s.gpu.presetId = "nvidia-h100-sxm-80gb";
    s.scaleUp.presetId = "nvlink-4";
    s.scaleOut.presetId = "infiniband-ndr";
    s.topology.presetId = "two-tier-8";
    s.llm.presetId = "gpt3-175b";
    s.layout.presetId = "tp8-pp16-dp32";
    s.gpuCount = 4096;
    return s;
}

} // namespace gapstudio::views::fallback
