// The calibration a scenario runs with in the corrected model (calibration_lookup.h).
#include "calibration/calibration_lookup.h"

#include "calibration/calibration_parameters.h"

#include <algorithm>
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

/// The first set value along a chain of entries; the index of the entry that had it, or -1.
template <typename Entry, typename Get>
int pick(const std::array<const Entry *, 3> &chain, Get get, double &out)
{
    for (std::size_t i = 0; i < chain.size(); ++i)
        if (chain[i])
            if (const std::optional<double> value = get(*chain[i])) {
                out = *value;
                return static_cast<int>(i);
            }
    return -1;
}

/// The fitted parameter behind a value picked from entry `index` of a chain keyed `keys`, when
/// the calibration's fit names it; else empty.
template <typename Name>
std::string source(const CalibrationSet &set, const std::array<std::string, 3> &keys, int index, Name name)
{
    if (index < 0 || !set.fit)
        return {};
    const std::string parameter = name(keys[static_cast<std::size_t>(index)]);
    const std::vector<FittedParameter> &fitted = set.fit->parameters;
    const bool known = std::any_of(fitted.begin(), fitted.end(),
                                   [&](const FittedParameter &p) { return p.name == parameter; });
    return known ? parameter : std::string();
}

} // namespace

model::Calibration lookupCalibration(const CalibrationSet *set, const Gpu &gpu, const Software &software,
                                     std::string *note, CalibrationSources *sources)
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
    const std::array<std::string, 3> gpuKeys = { gpu.info.id, gpu.architecture, "default" };
    CalibrationSources found;
    for (std::size_t i = 0; i < model::kDatatypeCount; ++i) {
        const int entry = pick(
            gpuChain, [i](const GpuCalibration &e) { return e.gemmEfficiency[i]; }, c.gemmEfficiency[i]);
        found.gemmEfficiency[i] = source(*set, gpuKeys, entry, [i](const std::string &key) {
            return fit::gpuParameter(key, "gemm_efficiency/" + fit::dtClass(static_cast<model::Datatype>(i)));
        });
    }
    const int attention = pick(
        gpuChain, [](const GpuCalibration &e) { return e.attentionEfficiency; }, c.attentionEfficiency);
    found.attentionEfficiency = source(*set, gpuKeys, attention, [](const std::string &key) {
        return fit::gpuParameter(key, "attention_efficiency");
    });
    const int hbm = pick(
        gpuChain, [](const GpuCalibration &e) { return e.hbmEfficiency; }, c.hbmEfficiency);
    found.hbmEfficiency = source(
        *set, gpuKeys, hbm, [](const std::string &key) { return fit::gpuParameter(key, "hbm_efficiency"); });
    found.gemmHalfDepth
        = source(*set, gpuKeys, 0, [](const std::string &) { return std::string(fit::kHalfDepthParameter); });
    const SoftwareCalibration *softwareById = find(set->software, software.info.id);
    const std::array<const SoftwareCalibration *, 3> softwareChain
        = { softwareById, find(set->software, "default"), nullptr };
    const std::array<std::string, 3> softwareKeys = { software.info.id, "default", "" };
    const auto softwareSource = [&](int entry, const char *quantity) {
        return source(*set, softwareKeys, entry,
                      [quantity](const std::string &key) { return fit::softwareParameter(key, quantity); });
    };
    found.computeEfficiency
        = softwareSource(pick(
                             softwareChain, [](const SoftwareCalibration &e) { return e.computeEfficiency; },
                             c.computeEfficiency),
                         "compute_efficiency");
    found.blockOverhead = softwareSource(
        pick(
            softwareChain, [](const SoftwareCalibration &e) { return e.blockOverhead_s; }, c.blockOverhead_s),
        "block_overhead");
    found.overlapEfficiency
        = softwareSource(pick(
                             softwareChain, [](const SoftwareCalibration &e) { return e.overlapEfficiency; },
                             c.overlapEfficiency),
                         "overlap_efficiency");
    found.moeBlockOverhead
        = softwareSource(pick(
                             softwareChain, [](const SoftwareCalibration &e) { return e.moeBlockOverhead_s; },
                             c.moeBlockOverhead_s),
                         "moe_block_overhead");
    found.hostOpScale = softwareSource(
        pick(
            softwareChain, [](const SoftwareCalibration &e) { return e.hostOpScale; }, c.hostOpScale),
        "host_op_scale");
    if (sources)
        *sources = std::move(found);
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
    compiled.calibration
        = lookupCalibration(set, r.gpu, r.software, &compiled.calibrationNote, &compiled.calibrationSources);
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
        const std::array<std::string, 3> keys = { link.info.id, i == 0 ? "scale_up" : "scale_out", "" };
        model::NetworkTier &tier = compiled.system.networks[i];
        const int entry = pick(
            chain, [](const NetworkCalibration &e) { return e.efficiency; }, tier.efficiency);
        compiled.calibrationSources.networkEfficiency.push_back(
            source(*set, keys, entry, fit::networkParameter));
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
        if (overridden(scaleUp ? "scale_up.efficiency" : "scale_out.efficiency")) {
            tier.efficiency = link.efficiency;
            if (i < compiled.calibrationSources.networkEfficiency.size())
                compiled.calibrationSources.networkEfficiency[i].clear(); // the designer's, not fitted
        }
        if (overridden(scaleUp ? "scale_up.latency_us" : "scale_out.latency_us"))
            tier.latency_s = link.latency_s;
    }
}

} // namespace gapstudio::scenario
