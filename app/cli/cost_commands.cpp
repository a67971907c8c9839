// `gapstudio-cli rank` and `cost-sweep`: layouts and GPU counts of a scenario judged by cost
// (scenario/costsearch.h).
#include "commands.h"
#include "cost_output.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/costsearch.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>

namespace gapstudio::cli {

namespace {

struct CostCommand {
    std::string scenarioPath, presetsDir;
    scenario::CostSearchOptions options;
    std::vector<std::int64_t> gpus;
    bool json = false;
};

CostCommand parse(const std::vector<std::string> &args, const char *command, bool sweep)
{
    CostCommand c;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--by") {
            const auto rank = scenario::rankFromName(optionValue(a, args, i));
            if (!rank)
                throw UsageError {
                    "--by expects sample_rate, mfu, usd_per_million_tokens, joules_per_token or "
                    "effective_usd_per_million_tokens, got '"
                    + args[i] + "'"
                };
            c.options.rank = *rank;
        } else if (a == "--top" && !sweep) {
            c.options.topN = static_cast<std::size_t>(positiveInteger(optionValue(a, args, i), "--top"));
        } else if (a == "--widen") {
            c.options.widen = true;
        } else if (a == "--threads") {
            c.options.threads = static_cast<unsigned>(positiveInteger(optionValue(a, args, i), "--threads"));
        } else if (a == "--presets") {
            c.presetsDir = optionValue(a, args, i);
        } else if (a == "--json" && sweep) {
            c.json = true;
        } else if (a == "--gpus" && sweep) {
            std::stringstream in(optionValue(a, args, i));
            std::string item;
            while (std::getline(in, item, ','))
                c.gpus.push_back(positiveInteger(item, "--gpus"));
        } else if (a.rfind("-", 0) == 0) {
            throw UsageError { "unknown option '" + a + "' for " + command };
        } else if (c.scenarioPath.empty()) {
            c.scenarioPath = a;
        } else {
            throw UsageError { "unexpected argument '" + a + "'" };
        }
    }
    if (c.scenarioPath.empty())
        throw UsageError { std::string(command) + " needs SCENARIO.gapstudio.json" };
    if (sweep && c.gpus.empty())
        throw UsageError { "cost-sweep needs --gpus N1,N2,..." };
    return c;
}

/// The key numbers of one ranked layout, and the layout as a preset file.
nlohmann::ordered_json hitToJson(const scenario::CostSearchHit &hit, const std::string &id)
{
    scenario::Layout layout;
    layout.info = { id, id, "gapstudio-cli layout search" };
    layout.execution = hit.execution;
    nlohmann::ordered_json out;
    out["sample_rate"] = hit.stats.sample_rate;
    out["mfu"] = hit.stats.total_efficiency;
    out["usd_per_million_tokens"] = hit.cost.usdPerMillionTokens;
    out["joules_per_token"] = hit.cost.joulesPerToken;
    out["cluster_usd_per_hour"] = hit.cost.clusterUsdPerHour;
    out["hbm_bytes"] = hit.stats.proc_mem_tier1_cap_req;
    // Under failures, checkpoints and restarts (the scenario's reliability assumptions).
    out["goodput"] = hit.goodput.goodput;
    out["effective_usd_per_million_tokens"] = hit.goodput.effectiveUsdPerMillionTokens;
    out["layout"] = io::toJson(layout);
    return out;
}

scenario::CompiledScenario compiled(const CostCommand &c, const scenario::PresetLibrary &library)
{
    return io::compileScenarioFile(io::loadScenario(c.scenarioPath), library, c.scenarioPath);
}

} // namespace

int runRank(const std::vector<std::string> &args)
{
    CostCommand c = parse(args, "rank", false);
    c.options.exhaustive = true; // "valid" counts every valid layout of the space
    const scenario::PresetLibrary library = presetLibrary(c.presetsDir);
    const scenario::CostSearchResult found = scenario::searchByCost(compiled(c, library), c.options);
    nlohmann::ordered_json out;
    out["by"] = scenario::rankName(c.options.rank);
    out["search"] = found.note;
    out["configurations"] = found.configurations;
    out["valid"] = found.valid;
    out["exact"] = found.exact;
    nlohmann::ordered_json layouts = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < found.hits.size(); ++i)
        layouts.push_back(hitToJson(found.hits[i], "rank-" + std::to_string(i + 1)));
    out["layouts"] = layouts;
    std::cout << out.dump(2) << '\n';
    if (found.hits.empty()) {
        if (found.configurations == 0)
            std::cerr << "error: " << found.note << '\n';
        else
            std::cerr << "error: no feasible layout among " << found.configurations << " configurations\n";
        return kExitInfeasible;
    }
    return kExitOk;
}

int runCostSweep(const std::vector<std::string> &args)
{
    CostCommand c = parse(args, "cost-sweep", true);
    const scenario::PresetLibrary library = presetLibrary(c.presetsDir);
    const std::vector<scenario::CostSweepPoint> points
        = scenario::sweepCostByGpuCount(io::loadScenario(c.scenarioPath), library, c.gpus, c.options);
    if (c.json) {
        nlohmann::ordered_json out = nlohmann::ordered_json::array();
        for (const scenario::CostSweepPoint &p : points) {
            nlohmann::ordered_json j;
            j["gpus"] = p.gpus;
            j["ok"] = p.ok;
            if (!p.ok)
                j["why"] = p.why;
            j["time_to_train_seconds"] = p.timeToTrain_s;
            j["cost_to_train_usd"] = p.costToTrain_USD;
            j["pareto"] = p.pareto;
            if (p.best)
                j["best"] = hitToJson(*p.best, "gpus-" + std::to_string(p.gpus));
            out.push_back(std::move(j));
        }
        std::cout << out.dump(2) << '\n';
        return kExitOk;
    }
    // The goodput's columns come last (scripts that read the first eight keep working).
    std::cout << "gpus,ok,time_to_train_days,cost_to_train_usd,usd_per_million_tokens,joules_per_token,mfu,"
                 "pareto,goodput,effective_training_days,effective_usd_per_million_tokens\n";
    for (const scenario::CostSweepPoint &p : points) {
        char line[320];
        if (p.ok)
            std::snprintf(line, sizeof line, "%lld,1,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%.6g,%.6g,%.6g\n",
                          static_cast<long long>(p.gpus), p.timeToTrain_s / 86400.0, p.costToTrain_USD,
                          p.best->cost.usdPerMillionTokens, p.best->cost.joulesPerToken,
                          p.best->stats.total_efficiency, p.pareto ? 1 : 0, p.best->goodput.goodput,
                          p.best->goodput.effectiveTrainingDays,
                          p.best->goodput.effectiveUsdPerMillionTokens);
        else
            std::snprintf(line, sizeof line, "%lld,0,,,,,,0,,,\n", static_cast<long long>(p.gpus));
        std::cout << line;
    }
    return kExitOk;
}

} // namespace gapstudio::cli
