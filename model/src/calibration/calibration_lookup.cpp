// The calibration a scenario runs with in the corrected model (calibration_lookup.h).
#include "calibration/calibration_lookup.h"

#include <array>
#include <string>

namespace gapstudio::scenario {

namespace {

template <typename Entry>
const Entry *find(const std::map<std::string, Entry> &entries, const std::string &key)
{
    const auto it = entries.find(key);
    return it == entries.end() ? nullptr : &it->second;
}

/// The first set value along a chain of entries.
template <typename Entry, typename Get>
bool pick(const std::array<const Entry *, 3> &chain, Get get, double &out)
{
    for (const Entry *entry : chain)
        if (entry)
            if (const std::optional<double> value = get(*entry)) {
                out = *value;
                return true;
            }
    return false;
}

} // namespace

model::Calibration lookupCalibration(const CalibrationSet *set, const Gpu &gpu, const Software &software,
                                     std::string *note)
{
    model::Calibration c;
    if (!set) {
        if (note)
            *note = "built-in default efficiencies (no calibration preset)";
        return c;
    }
    c.gemmHalfDepth = set->gemmHalfDepth;
    const GpuCalibration *byId = find(set->gpus, gpu.info.id);
    const GpuCalibration *byArchitecture = gpu.architecture.empty() ? nullptr : find(set->gpus, gpu.architecture);
    const std::array<const GpuCalibration *, 3> gpuChain = { byId, byArchitecture, find(set->gpus, "default") };
    for (std::size_t i = 0; i < model::kDatatypeCount; ++i)
        pick(gpuChain, [i](const GpuCalibration &e) { return e.gemmEfficiency[i]; }, c.gemmEfficiency[i]);
    pick(gpuChain, [](const GpuCalibration &e) { return e.attentionEfficiency; }, c.attentionEfficiency);
    pick(gpuChain, [](const GpuCalibration &e) { return e.hbmEfficiency; }, c.hbmEfficiency);
    const SoftwareCalibration *softwareById = find(set->software, software.info.id);
    const std::array<const SoftwareCalibration *, 3> softwareChain
        = { softwareById, find(set->software, "default"), nullptr };
    pick(softwareChain, [](const SoftwareCalibration &e) { return e.computeEfficiency; }, c.computeEfficiency);
    pick(softwareChain, [](const SoftwareCalibration &e) { return e.blockOverhead_s; }, c.blockOverhead_s);
    pick(softwareChain, [](const SoftwareCalibration &e) { return e.overlapEfficiency; }, c.overlapEfficiency);
    pick(softwareChain, [](const SoftwareCalibration &e) { return e.moeBlockOverhead_s; }, c.moeBlockOverhead_s);
    if (note) {
        const std::string gpuEntry = byId ? gpu.info.id
                                     : byArchitecture ? gpu.architecture + " (architecture of " + gpu.info.id + ")"
                                                      : "default (no entry for " + gpu.info.id + ")";
        const std::string softwareEntry
            = softwareById ? software.info.id : "default (no entry for " + software.info.id + ")";
        *note = "calibration " + set->info.id + ": GPU " + gpuEntry + ", software " + softwareEntry;
    }
    return c;
}

void applyCalibration(CompiledScenario &compiled)
{
    const ResolvedScenario &r = compiled.resolved;
    const CalibrationSet *set = r.calibration ? &*r.calibration : nullptr;
    compiled.calibration = lookupCalibration(set, r.gpu, r.software, &compiled.calibrationNote);
    if (!set)
        return;
    if (set->fit) {
        CalibrationAccuracy &a = compiled.calibrationAccuracy.emplace();
        a.runs = set->fit->rows;
        a.fittedMeanAbsError = set->fit->meanAbsError;
        a.leaveOneFamilyOutMeanAbsError = set->fit->leaveOneFamilyOutMeanAbsError;
        a.gpuHasEntry = find(set->gpus, r.gpu.info.id)
                        || (!r.gpu.architecture.empty() && find(set->gpus, r.gpu.architecture));
        a.softwareHasEntry = find(set->software, r.software.info.id) != nullptr;
        for (const auto &[generation, error] : set->fit->leaveOneGenerationOutMeanAbsError)
            if (!a.gpuHasEntry && error > a.unseenGenerationMeanAbsError) {
                a.unseenGenerationMeanAbsError = error;
                a.unseenGeneration = generation;
            }
    }
    // Tier 0 is the scale-up domain; every further tier is built from the scale-out link.
    for (std::size_t i = 0; i < compiled.system.networks.size(); ++i) {
        const Interconnect &link = i == 0 ? r.scaleUp : r.scaleOut;
        const std::array<const NetworkCalibration *, 3> chain
            = { find(set->networks, link.info.id), find(set->networks, i == 0 ? "scale_up" : "scale_out"), nullptr };
        model::NetworkTier &tier = compiled.system.networks[i];
        pick(chain, [](const NetworkCalibration &e) { return e.efficiency; }, tier.efficiency);
        pick(chain, [](const NetworkCalibration &e) { return e.latency_s; }, tier.latency_s);
    }
}

void keepOverriddenLinks(CompiledScenario &compiled, const Scenario &scenario)
{
    const auto overridden = [&](const char *key) { return scenario.overrides.count(key) > 0; };
    for (std::size_t i = 0; i < compiled.system.networks.size(); ++i) {
        const bool scaleUp = i == 0;
        const Interconnect &link = scaleUp ? compiled.resolved.scaleUp : compiled.resolved.scaleOut;
        model::NetworkTier &tier = compiled.system.networks[i];
        if (overridden(scaleUp ? "scale_up.efficiency" : "scale_out.efficiency"))
            tier.efficiency = link.efficiency;
        if (overridden(scaleUp ? "scale_up.latency_us" : "scale_out.latency_us"))
            tier.latency_s = link.latency_s;
    }
}

} // namespace gapstudio::scenario
