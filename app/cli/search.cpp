// `gapstudio-cli search`: the reference's llm-optimal-execution (and calculon-MoE's legacy MoE
// search) on the model's multi-threaded search; output in the reference's own shape.
#include "commands.h"
#include "json_output.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/model/search_bounded.h"
#include "gapstudio/model/enum_names.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace gapstudio::cli {

std::int64_t positiveInteger(const std::string &text, const char *what)
{
    std::size_t used = 0;
    long long value = 0;
    try {
        value = std::stoll(text, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    // At most 2^53, like every integer a reader accepts (and divisors stay fast: O(sqrt n)).
    if (used != text.size() || value < 1 || value > (std::int64_t { 1 } << 53))
        throw UsageError { std::string(what) + " expects an integer in [1, 2^53], got '" + text + "'" };
    return value;
}

namespace {

std::vector<model::TpCommType> commTypes(const std::string &list)
{
    std::vector<model::TpCommType> out;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto &names = model::names::kTpCommType;
        const auto found = std::find(names.begin(), names.end(), std::string_view(item));
        if (found == names.end())
            throw UsageError{"--tp-comm expects a comma list of ar, p2p_rs_ag, rs_ag, got '" + item + "'"};
        out.push_back(static_cast<model::TpCommType>(found - names.begin()));
    }
    if (out.empty())
        throw UsageError{"--tp-comm needs at least one type"};
    return out;
}

struct SearchCommand {
    std::string modelPath, systemPath;
    model::SearchSpace space;
    model::SearchOptions options;
    std::uint64_t maxLayouts = model::kDefaultMaxLayouts; ///< 0: no limit
    bool bounded = true; ///< the same top N as --exhaustive, for far fewer evaluations
};

SearchCommand parse(const std::vector<std::string> &args)
{
    SearchCommand c;
    std::vector<std::string> positional;
    bool calculon = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--calculon")
            calculon = true;
        else if (a == "--top")
            c.options.topN = static_cast<std::size_t>(positiveInteger(optionValue(a, args, i), "--top"));
        else if (a == "-m")
            c.space.mbsBreak = true;
        else if (a == "--no-tp-overlap")
            c.space.tpOverlapVariants = false;
        else if (a == "--no-dp-overlap")
            c.space.dpOverlap = model::OverlapChoice::Off;
        else if (a == "--dp-overlap") {
            const std::string &v = optionValue(a, args, i);
            if (v != "both" && v != "on" && v != "off")
                throw UsageError{"--dp-overlap expects both, on or off, got '" + v + "'"};
            c.space.dpOverlap = v == "both" ? model::OverlapChoice::Both
                                : v == "on" ? model::OverlapChoice::On
                                            : model::OverlapChoice::Off;
        } else if (a == "-f") {
            const std::string &v = optionValue(a, args, i);
            if (v != "true" && v != "false" && v != "both")
                throw UsageError{"-f expects true, false or both, got '" + v + "'"};
            c.space.fused = v == "true"    ? model::FusedActivationChoice::True
                            : v == "false" ? model::FusedActivationChoice::False
                                           : model::FusedActivationChoice::Both;
        } else if (a == "--moe")
            c.space.moeExperts = positiveInteger(optionValue(a, args, i), "--moe");
        else if (a == "--tp-comm")
            c.space.tpCommTypes = commTypes(optionValue(a, args, i));
        else if (a == "--rank") {
            const std::string &v = optionValue(a, args, i);
            if (v != "sample_rate" && v != "mfu")
                throw UsageError{"--rank expects sample_rate or mfu, got '" + v + "'"};
            c.space.rankBy = v == "mfu" ? model::RankBy::Mfu : model::RankBy::SampleRate;
        } else if (a == "--max-layouts") {
            const std::string &v = optionValue(a, args, i);
            c.maxLayouts = v == "0" ? 0 : static_cast<std::uint64_t>(positiveInteger(v, "--max-layouts"));
        } else if (a == "--exhaustive")
            c.bounded = false;
        else if (a == "--threads")
            c.options.threads = static_cast<unsigned>(positiveInteger(optionValue(a, args, i), "--threads"));
        else if (a.size() > 1 && a[0] == '-')
            throw UsageError{"unknown option '" + a + "' for search"};
        else
            positional.push_back(a);
    }
    if (!calculon || positional.size() != 5)
        throw UsageError{"search needs --calculon MODEL.json NUM_PROCS MAX_BATCH DATATYPE SYSTEM.json"};
    c.modelPath = positional[0];
    c.space.numProcs = positiveInteger(positional[1], "NUM_PROCS");
    c.space.maxBatchSize = positiveInteger(positional[2], "MAX_BATCH");
    const auto type = model::datatypeFromName(positional[3]);
    if (!type)
        throw UsageError{"unknown datatype '" + positional[3] + "'"};
    c.space.datatype = *type;
    c.systemPath = positional[4];
    return c;
}

} // namespace

int runSearch(const std::vector<std::string> &args)
{
    SearchCommand c = parse(args);
    const model::Application app = io::parseApplication(io::readJsonFile(c.modelPath), c.modelPath);
    const model::System sys = io::parseSystem(io::readJsonFile(c.systemPath), c.systemPath);
    // Refuse a space that cannot finish in reasonable time, before starting (counted from the
    // loop sizes, which is instant); --max-layouts raises the limit or, with 0, lifts it.
    if (c.maxLayouts > 0) {
        const std::uint64_t layouts = model::countLayouts(app, sys, c.space, c.maxLayouts);
        if (layouts > c.maxLayouts)
            throw UsageError {
                "the search space has more than " + std::to_string(c.maxLayouts)
                + " layouts (about ten minutes per billion on two cores); narrow it (a smaller "
                  "MAX_BATCH, -m, --no-tp-overlap, --dp-overlap on, fewer --tp-comm types) or "
                  "raise --max-layouts (0: no limit)"
            };
    }
    const auto start = std::chrono::steady_clock::now();
    model::BoundedSearchResult bounded;
    if (c.bounded)
        bounded = model::searchLayoutsBounded(app, sys, c.space, c.options);
    else {
        bounded.search = model::searchLayouts(app, sys, c.space, c.options);
        bounded.evaluated = bounded.search.configurations;
    }
    const model::SearchResult &result = bounded.search;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const StatsFormat format = c.space.moeExperts > 0 ? StatsFormat::CalculonMoe : StatsFormat::Calculon;
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < result.top.size(); ++i) {
        nlohmann::ordered_json entry;
        entry["execution"] = executionToJson(result.top[i].execution, format);
        entry["stats"] = statsToJson(result.top[i].stats, format);
        out[std::to_string(i)] = std::move(entry);
    }
    std::cout << out.dump(2) << '\n' << std::flush;
    // The fields before `evaluated` keep their order and meaning; a bounded search counts as
    // valid only the layouts it evaluated.
    std::fprintf(stderr,
                 "configurations: %llu, valid: %llu, seconds: %.3f, configurations_per_second: %.0f, "
                 "evaluated: %llu, skipped: %llu\n",
                 static_cast<unsigned long long>(result.configurations),
                 static_cast<unsigned long long>(result.valid), seconds,
                 seconds > 0 ? static_cast<double>(result.configurations) / seconds : 0.0,
                 static_cast<unsigned long long>(bounded.evaluated), static_cast<unsigned long long>(bounded.skipped));
    if (result.top.empty()) {
        std::fprintf(stderr, "error: no valid layout in the search space\n");
        return kExitInfeasible;
    }
    return kExitOk;
}

} // namespace gapstudio::cli
