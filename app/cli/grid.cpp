// `gapstudio-cli grid` (grid.h): arguments, the order of the points, one point's JSON line.
#include "grid.h"

#include "commands.h"
#include "json_output.h"

#include "gapstudio/io/preset_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace gapstudio::cli {

namespace {

const scenario::OverrideKey &overrideKey(const std::string &key)
{
    const auto &keys = scenario::overrideKeys();
    const auto it = std::find_if(keys.begin(), keys.end(),
                                 [&](const scenario::OverrideKey &k) { return key == k.key; });
    if (it == keys.end()) {
        std::string known;
        for (const scenario::OverrideKey &k : keys)
            known += (known.empty() ? "" : ", ") + std::string(k.key);
        throw UsageError { "--vary: unknown key '" + key + "' (known: " + known + ")" };
    }
    return *it;
}

/// "KEY=v1,v2,...", each value in the key's range and, for a whole-number key, exactly the number
/// written (scenario::overrideTextProblem, the rule the scenario's overrides and the CSV of runs follow).
GridAxis parseAxis(const std::string &text)
{
    const std::size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
        throw UsageError { "--vary expects KEY=v1,v2,..., got '" + text + "'" };
    const scenario::OverrideKey &key = overrideKey(text.substr(0, equals));
    GridAxis axis { key.key, key.integer, {} };
    std::stringstream list(text.substr(equals + 1));
    std::string item;
    while (std::getline(list, item, ',')) {
        double value = 0;
        if (const auto problem = scenario::overrideTextProblem(key.key, item, value))
            throw UsageError { "--vary " + axis.key + ": " + *problem };
        axis.values.push_back(value);
    }
    if (axis.values.empty())
        throw UsageError { "--vary " + axis.key + " needs at least one value" };
    return axis;
}

std::uint64_t positive(const std::string &text, const char *what, std::uint64_t maximum)
{
    char *end = nullptr;
    const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || text[0] == '-' || *end != '\0' || value < 1 || value > maximum)
        throw UsageError { std::string(what) + " expects a whole number in [1, " + std::to_string(maximum)
                           + "], got '" + text + "'" };
    return value;
}

/// The key results of one evaluation, named as the statistics they are.
nlohmann::ordered_json keyResults(const scenario::PipelineResult &r)
{
    const model::Stats &s = r.evaluation.stats;
    nlohmann::ordered_json out;
    out["total_time"] = s.total_time;
    out["sample_rate"] = s.sample_rate;
    out["tokens_per_second"] = r.analysis->tokensPerSecond;
    out["total_efficiency"] = s.total_efficiency;
    out["compute_efficiency"] = s.compute_efficiency;
    out["system_efficiency"] = s.system_efficiency;
    out["bubble_time"] = s.bubble_time;
    out["tp_comm_exposed_time"] = s.tp_comm_exposed_time;
    out["pp_comm_exposed_time"] = s.pp_comm_exposed_time;
    out["dp_comm_exposed_time"] = s.dp_comm_exposed_time;
    out["ep_comm_exposed_time"] = s.ep_comm_exposed_time;
    out["proc_mem_tier1_cap_req"] = s.proc_mem_tier1_cap_req;
    out["proc_mem_tier2_cap_req"] = s.proc_mem_tier2_cap_req;
    if (r.goodput && r.goodput->valid) { // after the others: the line only grows
        out["goodput"] = r.goodput->goodput;
        out["effective_tokens_per_second"] = r.goodput->effectiveTokensPerSecond;
    }
    if (r.interval) // after the others: the line only grows
        out["prediction_interval"] = intervalToJson(*r.interval, s, false);
    return out;
}

} // namespace

GridCommand parseGridCommand(const std::vector<std::string> &args)
{
    GridCommand c;
    std::vector<std::string> positional;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--vary") {
            GridAxis axis = parseAxis(optionValue(a, args, i));
            for (const GridAxis &other : c.axes)
                if (other.key == axis.key)
                    throw UsageError { "--vary " + axis.key + " given twice" };
            c.axes.push_back(std::move(axis));
        } else if (a == "--best-layout") {
            c.bestLayout = true;
        } else if (a == "--reference-quirks") {
            c.referenceQuirks = true;
        } else if (a == "--presets") {
            c.presetsDir = optionValue(a, args, i);
            if (c.presetsDir.empty())
                throw UsageError { "--presets needs a directory" };
        } else if (a == "--threads") {
            c.threads = static_cast<unsigned>(positive(optionValue(a, args, i), "--threads", 4096));
        } else if (a == "--shard") {
            const std::string &v = optionValue(a, args, i);
            const std::size_t slash = v.find('/');
            if (slash == std::string::npos)
                throw UsageError { "--shard expects K/N (part K of N, 1 <= K <= N), got '" + v + "'" };
            c.shards = positive(v.substr(slash + 1), "--shard N", 1'000'000);
            c.shard = positive(v.substr(0, slash), "--shard K", c.shards);
        } else if (a.size() > 1 && a[0] == '-') {
            throw UsageError { "unknown option '" + a + "' for grid" };
        } else {
            positional.push_back(a);
        }
    }
    if (positional.size() != 1)
        throw UsageError { "grid needs one SCENARIO.gapstudio.json and --vary KEY=v1,v2,..." };
    if (c.axes.empty())
        throw UsageError { "grid needs at least one --vary KEY=v1,v2,..." };
    c.scenarioPath = positional[0];
    std::uint64_t points = 1;
    for (const GridAxis &axis : c.axes)
        if (__builtin_mul_overflow(points, static_cast<std::uint64_t>(axis.values.size()), &points)
            || points > kMaxGridPoints)
            throw UsageError { "the grid has more than " + std::to_string(kMaxGridPoints)
                               + " points; vary fewer values" };
    return c;
}

std::uint64_t gridPoints(const GridCommand &command) noexcept
{
    std::uint64_t points = 1;
    for (const GridAxis &axis : command.axes)
        points *= axis.values.size();
    return points;
}

std::pair<std::uint64_t, std::uint64_t> shardRange(std::uint64_t points, std::uint64_t shard,
                                                   std::uint64_t shards) noexcept
{
    // points <= 1e8 and shards <= 1e6: the products fit in 64 bits.
    return { points * (shard - 1) / shards, points * shard / shards };
}

GridEvaluator::GridEvaluator(const GridCommand &command)
    : mCommand(command)
    , mScenario(io::loadScenario(command.scenarioPath))
    , mLibrary(presetLibrary(command.presetsDir))
{
}

std::string GridEvaluator::line(std::uint64_t index, unsigned searchThreads) const
{
    // 1. The point's overrides: the last axis varies fastest.
    scenario::Scenario point = mScenario;
    nlohmann::ordered_json overrides = nlohmann::ordered_json::object();
    std::uint64_t rest = index;
    std::vector<std::size_t> at(mCommand.axes.size());
    for (std::size_t a = mCommand.axes.size(); a-- > 0;) {
        at[a] = static_cast<std::size_t>(rest % mCommand.axes[a].values.size());
        rest /= mCommand.axes[a].values.size();
    }
    for (std::size_t a = 0; a < mCommand.axes.size(); ++a) {
        const GridAxis &axis = mCommand.axes[a];
        const double value = axis.values[at[a]];
        point.overrides[axis.key] = value;
        if (axis.integer)
            overrides[axis.key] = static_cast<std::int64_t>(value);
        else
            overrides[axis.key] = value;
    }

    // 2. Its evaluation: at the scenario's layout, or at the best layout found for it.
    scenario::PipelineOptions options;
    options.referenceQuirks = mCommand.referenceQuirks;
    scenario::PipelineResult r;
    if (mCommand.bestLayout) {
        scenario::BestLayoutOptions best;
        best.threads = searchThreads;
        r = scenario::runScenarioAtBestLayout(point, mLibrary, best, options).result;
    } else {
        r = scenario::runScenario(point, mLibrary, options);
    }

    // 3. One line.
    nlohmann::ordered_json out;
    out["point"] = index;
    out["overrides"] = std::move(overrides);
    out["status"] = scenario::statusName(r.status);
    if (!r.ok())
        out["message"] = r.statusText;
    if (r.compiled) {
        const bool moe = r.compiled->resolved.llm.isMoe();
        out["layout"]
            = executionToJson(r.compiled->execution, moe ? StatsFormat::CalculonMoe : StatsFormat::Calculon);
    }
    if (r.ok())
        out["results"] = keyResults(r);
    return out.dump();
}

} // namespace gapstudio::cli
