// Selecting measured runs by what they ran on (run_filter.h).
#include "gapstudio/scenario/run_filter.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace gapstudio::scenario {

const std::vector<std::string> &runFilterKeys() noexcept
{
    static const std::vector<std::string> keys = { "family", "gpu", "gpu_arch", "software" };
    return keys;
}

std::string runAttribute(const io::Measurement &run, const PresetLibrary &library, const std::string &key)
{
    if (key == "family")
        return run.family;
    if (std::find(runFilterKeys().begin(), runFilterKeys().end(), key) == runFilterKeys().end())
        return {};
    model::Diagnostics diagnostics;
    const std::optional<ResolvedScenario> resolved = resolve(run.scenario, library, diagnostics);
    if (!resolved)
        return {};
    if (key == "gpu")
        return resolved->gpu.info.id;
    if (key == "software")
        return resolved->software.info.id;
    return gpuGeneration(resolved->gpu);
}

std::string gpuGeneration(const Gpu &gpu)
{
    return gpu.architecture.empty() ? gpu.info.id : gpu.architecture;
}

std::string runGeneration(const io::Measurement &run, const PresetLibrary &library)
{
    return runAttribute(run, library, "gpu_arch");
}

RunFilter parseRunFilter(const std::string &text, bool exclude)
{
    const std::string::size_type equals = text.find('=');
    std::string keys;
    for (const std::string &key : runFilterKeys())
        keys += (keys.empty() ? "" : ", ") + key;
    if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
        throw std::invalid_argument("expected KEY=VALUE with KEY one of " + keys + ", got '" + text + "'");
    RunFilter filter { text.substr(0, equals), text.substr(equals + 1), exclude };
    if (std::find(runFilterKeys().begin(), runFilterKeys().end(), filter.key) == runFilterKeys().end())
        throw std::invalid_argument("unknown key '" + filter.key + "' in '" + text + "': expected one of "
                                    + keys);
    return filter;
}

std::vector<io::Measurement> filterMeasurements(const std::vector<io::Measurement> &runs,
                                                const PresetLibrary &library,
                                                const std::vector<RunFilter> &filters)
{
    std::vector<bool> keep(runs.size(), true);
    for (const RunFilter &filter : filters) {
        const std::string words
            = std::string(filter.exclude ? "--exclude " : "--only ") + filter.key + "=" + filter.value;
        if (std::find(runFilterKeys().begin(), runFilterKeys().end(), filter.key) == runFilterKeys().end())
            throw std::invalid_argument(words + ": unknown key '" + filter.key + "'");
        std::set<std::string> seen;
        bool matched = false;
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const std::string value = runAttribute(runs[i], library, filter.key);
            seen.insert(value.empty() ? "(unresolved)" : value);
            const bool match = value == filter.value;
            matched |= match;
            if (match == filter.exclude)
                keep[i] = false;
        }
        if (!matched) {
            std::string values;
            for (const std::string &value : seen)
                values += (values.empty() ? "" : ", ") + value;
            throw std::invalid_argument(words + " matches none of the " + std::to_string(runs.size())
                                        + " runs; their " + filter.key + " values: " + values);
        }
    }
    std::vector<io::Measurement> kept;
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (keep[i])
            kept.push_back(runs[i]);
    if (kept.empty() && !runs.empty())
        throw std::invalid_argument("the filters leave none of the " + std::to_string(runs.size()) + " runs");
    return kept;
}

} // namespace gapstudio::scenario
