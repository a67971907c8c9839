// Scenario -> resolved blocks: presets looked up by id, then the designer's overrides applied
// (override_rules.h holds the single list of override keys; scenario.h documents the contract).
#include "gapstudio/scenario/scenario.h"

#include "scenario/override_rules.h"

#include "gapstudio/model/cost.h"
#include "gapstudio/model/goodput.h"

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

template <typename Block>
std::optional<Block> resolveRef(const BlockRef<Block> &ref, const std::map<std::string, Block> &presets,
                                const char *field, const char *kind, Diagnostics &diagnostics)
{
    if (ref.inlineBlock)
        return ref.inlineBlock;
    if (ref.presetId.empty()) {
        invalid(diagnostics, field, std::string("no ") + kind + " given");
        return std::nullopt;
    }
    const auto it = presets.find(ref.presetId);
    if (it == presets.end()) {
        invalid(diagnostics, field, std::string("no ") + kind + " preset with id \"" + ref.presetId + "\"");
        return std::nullopt;
    }
    return it->second;
}

/// An optional block: the scenario's, else the library's default preset (if any). A named
/// preset that does not exist is an error.
template <typename Block>
std::optional<Block> resolveOptionalRef(const BlockRef<Block> &ref,
                                        const std::map<std::string, Block> &presets, const char *defaultId,
                                        const char *field, const char *kind, Diagnostics &diagnostics)
{
    if (ref.inlineBlock || !ref.presetId.empty())
        return resolveRef(ref, presets, field, kind, diagnostics);
    const auto it = presets.find(defaultId);
    return it == presets.end() ? std::nullopt : std::optional<Block>(it->second);
}

/// Sets the interruption rates a block gives (blocks.h: PartFits) in place of the defaults.
void applyPartFits(model::ReliabilityAssumptions &a, const std::optional<PartFits> &fits)
{
    using A = model::ReliabilityAssumptions;
    static const std::pair<const char *, double A::*> kFields[] = { { "gpu_fit", &A::gpuFit },
                                                                    { "hbm_fit", &A::hbmFit },
                                                                    { "server_fit", &A::serverFit },
                                                                    { "nic_fit", &A::nicFit },
                                                                    { "link_fit", &A::linkFit } };
    if (!fits)
        return;
    for (const auto &[key, value] : fits->fit)
        for (const auto &[name, field] : kFields)
            if (key == name)
                a.*field = value;
}

/// The default software stack when the library has no preset of that id.
Software builtinSoftware()
{
    Software software;
    software.info = { kDefaultSoftwareId, "Megatron-Core with Transformer Engine",
                      "Built-in default: FP32 gradient reduction, as Megatron-LM with --bf16 "
                      "(arguments.py sets accumulate_allreduce_grads_in_fp32)." };
    software.framework = "Megatron-Core with Transformer Engine";
    software.gradientReduceBytes = 4;
    return software;
}

} // namespace

std::optional<ResolvedScenario> resolve(const Scenario &scenario, const PresetLibrary &library,
                                        Diagnostics &diagnostics)
{
    const std::size_t before = diagnostics.size();
    const auto gpu = resolveRef(scenario.gpu, library.gpus, "gpu", "GPU", diagnostics);
    const auto scaleUp
        = resolveRef(scenario.scaleUp, library.interconnects, "scale_up", "interconnect", diagnostics);
    const auto topology
        = resolveRef(scenario.topology, library.topologies, "topology", "topology", diagnostics);
    // FullFlat may reuse the scale-up links for the whole fabric when no scale-out is given.
    const bool reuseScaleUp = scenario.scaleOut.presetId.empty() && !scenario.scaleOut.inlineBlock && topology
                              && topology->kind == TopologyKind::FullFlat;
    const auto scaleOut = reuseScaleUp ? scaleUp
                                       : resolveRef(scenario.scaleOut, library.interconnects, "scale_out",
                                                    "interconnect", diagnostics);
    const auto llm = resolveRef(scenario.llm, library.llms, "llm", "LLM", diagnostics);
    const auto layout = resolveRef(scenario.layout, library.layouts, "layout", "layout", diagnostics);
    const auto software = resolveOptionalRef(scenario.software, library.software, kDefaultSoftwareId,
                                             "software", "software", diagnostics);
    // No default storage: without one the goodput model's default bandwidth is used, unpriced.
    const bool namesStorage = scenario.storage.inlineBlock || !scenario.storage.presetId.empty();
    const auto storage
        = namesStorage ? resolveRef(scenario.storage, library.storage, "storage", "storage", diagnostics)
                       : std::nullopt;
    const auto calibration
        = resolveOptionalRef(scenario.calibration, library.calibrations, kDefaultCalibrationId, "calibration",
                             "calibration", diagnostics);
    if (diagnostics.size() != before)
        return std::nullopt;

    ResolvedScenario resolved { *gpu,
                                *scaleUp,
                                *scaleOut,
                                *topology,
                                *llm,
                                *layout,
                                scenario.gpuCount,
                                software ? *software : builtinSoftware(),
                                calibration,
                                model::CostAssumptions {},
                                model::ReliabilityAssumptions {},
                                storage };
    // The blocks' interruption rates: the GPU's parts, and the scale-out network's.
    applyPartFits(resolved.reliability, resolved.gpu.reliability);
    applyPartFits(resolved.reliability, resolved.scaleOut.reliability);
    if (storage) {
        resolved.reliability.storage_Bps = storage->write_Bps;
        resolved.reliability.storageRead_Bps = storage->read_Bps;
    }
    for (const auto &[key, value] : scenario.overrides) {
        const std::string field = "overrides/" + key;
        if (const std::optional<std::string> problem = overrideProblem(key, value)) {
            invalid(diagnostics, field, *problem);
            continue;
        }
        detail::findOverrideRule(key)->apply(resolved, value);
    }
    if (resolved.gpuCount < 1)
        invalid(diagnostics, "gpu_count",
                "expected at least 1 GPU, got " + std::to_string(resolved.gpuCount));
    if (diagnostics.size() != before)
        return std::nullopt;
    return resolved;
}

} // namespace gapstudio::scenario
