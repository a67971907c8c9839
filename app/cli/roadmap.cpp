// `gapstudio-cli roadmap FILE`: the steps of a roadmap (io/roadmap_json.h) through the scenario
// pipeline, one row per step with its throughput, cost, energy and gain over the step before.
#include "commands.h"
#include "cost_output.h"
#include "json_output.h"

#include "gapstudio/io/roadmap_json.h"
#include "gapstudio/scenario/locate.h"
#include "gapstudio/scenario/roadmap.h"

#include <cstdio>
#include <iostream>
#include <optional>

namespace gapstudio::cli {

namespace {

struct RoadmapArgs {
    std::string path, presetsDir, calibrationFile;
    bool json = false, referenceQuirks = false;
};

RoadmapArgs parse(const std::vector<std::string> &args)
{
    RoadmapArgs r;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--json") {
            r.json = true;
        } else if (a == "--reference-quirks") {
            r.referenceQuirks = true;
        } else if (a == "--presets") {
            if (i + 1 >= args.size())
                throw UsageError { "--presets needs a directory" };
            r.presetsDir = args[++i];
        } else if (a == "--calibration") {
            if (i + 1 >= args.size() || args[i + 1].empty())
                throw UsageError { "--calibration needs a calibration file" };
            r.calibrationFile = args[++i];
        } else if (a.rfind("-", 0) == 0) {
            throw UsageError { "unknown option '" + a + "' for roadmap" };
        } else if (r.path.empty()) {
            r.path = a;
        } else {
            throw UsageError { "unexpected argument '" + a + "'" };
        }
    }
    if (r.path.empty())
        throw UsageError { "roadmap needs FILE.gapstudio-roadmap.json" };
    rejectCalibrationUnderReferenceQuirks(r.referenceQuirks, r.calibrationFile);
    return r;
}

/// "%.6g", or nothing for a figure that does not exist (0).
std::string figure(double value)
{
    if (value == 0)
        return {};
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

/// The MFU's likely range "low,high" (the prediction interval), or "," without one.
std::string mfuRange(const scenario::PipelineResult &result)
{
    if (!result.interval)
        return ",";
    const auto [low, high] = result.interval->range(result.evaluation.stats.total_efficiency);
    return figure(low) + ',' + figure(high);
}

/// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csvField(const std::string &text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (const char ch : text) {
        if (ch == '"')
            out += '"';
        out += ch;
    }
    return out + '"';
}

/// The first step that is not a valid design, whichever input rule it breaks, as the file's error:
/// "error: FILE: /steps/I: /pointer: message", exit 2, as the app's headless runs
/// (views/report/roadmapheadless.cpp). Nothing if every step is a valid design.
std::optional<int> reportMalformedStep(const std::vector<scenario::RoadmapStepResult> &results,
                                       const std::string &path)
{
    for (std::size_t i = 0; i < results.size(); ++i) {
        const scenario::PipelineResult &r = results[i].result;
        if (r.status != scenario::EvaluationStatus::Malformed)
            continue;
        const model::Diagnostic *cause = r.cause();
        const std::string pointer = cause ? scenario::scenarioPointer(r.scenario, *cause) : std::string();
        std::cerr << "error: " << path << ": /steps/" << i << (pointer.empty() ? "" : ": " + pointer) << ": "
                  << (cause ? cause->message : r.statusText) << '\n';
        return kExitMalformed;
    }
    return std::nullopt;
}

/// The steps' designs; with --calibration, every step with that calibration in place of the
/// one it names (or the shipped one).
std::vector<scenario::Scenario> designsOf(const io::Roadmap &roadmap, const RoadmapArgs &a)
{
    std::vector<scenario::Scenario> designs;
    for (const io::RoadmapStep &step : roadmap.steps)
        designs.push_back(step.scenario);
    if (!a.calibrationFile.empty()) {
        const scenario::CalibrationSet calibration = readCalibrationFile(a.calibrationFile);
        for (scenario::Scenario &design : designs)
            design.calibration = { {}, calibration };
    }
    return designs;
}

} // namespace

int runRoadmap(const std::vector<std::string> &args)
{
    const RoadmapArgs a = parse(args);
    const io::Roadmap roadmap = io::loadRoadmap(a.path);
    const std::vector<scenario::Scenario> designs = designsOf(roadmap, a);
    scenario::PipelineOptions options;
    options.referenceQuirks = a.referenceQuirks;
    options.explain = true;
    const std::vector<scenario::RoadmapStepResult> results
        = scenario::evaluateRoadmap(designs, presetLibrary(a.presetsDir), options);
    if (const std::optional<int> status = reportMalformedStep(results, a.path))
        return *status;

    int exit = kExitOk;
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    if (!a.json)
        std::cout
            << "step,name,status,samples_per_second,mfu,usd_per_million_tokens,joules_per_token,megawatts,"
               "speedup,cost_ratio,energy_ratio,goodput,effective_usd_per_million_tokens,effective_cost_"
               "ratio,mfu_low,mfu_high\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const scenario::RoadmapStepResult &r = results[i];
        const bool ok = r.result.ok();
        if (!ok) {
            std::cerr << "error: " << a.path << ": /steps/" << i << ": step " << i + 1 << " ("
                      << roadmap.steps[i].name << "): " << r.result.statusText << '\n';
            exit = kExitInfeasible;
        }
        const model::Stats &stats = r.result.evaluation.stats;
        if (a.json) {
            nlohmann::ordered_json s;
            s["step"] = i + 1;
            s["name"] = roadmap.steps[i].name;
            s["source"] = roadmap.steps[i].source;
            s["status"] = scenario::statusName(r.result.status);
            if (ok) {
                s["sample_rate"] = stats.sample_rate;
                s["mfu"] = stats.total_efficiency;
                s["speedup"] = r.speedup;
                s["cost_ratio"] = r.costRatio;
                s["energy_ratio"] = r.energyRatio;
                if (r.result.cost)
                    s["cost"] = costToJson(*r.result.cost);
                if (r.result.goodput) {
                    s["goodput"] = r.result.goodput->goodput;
                    s["effective_usd_per_million_tokens"] = r.result.goodput->effectiveUsdPerMillionTokens;
                    s["effective_cost_ratio"] = r.effectiveCostRatio;
                }
                if (r.result.interval) // after the others: a step only grows
                    s["prediction_interval"] = intervalToJson(*r.result.interval, stats, false);
            }
            steps.push_back(std::move(s));
            continue;
        }
        std::cout << i + 1 << ',' << csvField(roadmap.steps[i].name) << ','
                  << scenario::statusName(r.result.status) << ',';
        if (ok && r.result.cost && r.result.goodput)
            std::cout << figure(stats.sample_rate) << ',' << figure(stats.total_efficiency) << ','
                      << figure(r.result.cost->usdPerMillionTokens) << ','
                      << figure(r.result.cost->joulesPerToken) << ',' << figure(r.result.cost->megawatts)
                      << ',' << figure(r.speedup) << ',' << figure(r.costRatio) << ','
                      << figure(r.energyRatio) << ',' << figure(r.result.goodput->goodput) << ','
                      << figure(r.result.goodput->effectiveUsdPerMillionTokens) << ','
                      << figure(r.effectiveCostRatio) << ',' << mfuRange(r.result) << '\n';
        else
            std::cout << ",,,,,,,,,,,,\n";
    }
    if (a.json) {
        nlohmann::ordered_json out;
        out["roadmap"] = roadmap.id;
        out["name"] = roadmap.name;
        out["steps"] = std::move(steps);
        std::cout << out.dump(2) << '\n';
    }
    return exit;
}

} // namespace gapstudio::cli
