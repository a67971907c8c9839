// `gapstudio-cli sweep` and `gapstudio-cli sensitivity`: the model's sweeps (model/sweep.h) on the
// reference's three inputs, as CSV (default) or JSON.
#include "commands.h"
#include "json_output.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/model/limits.h"
#include "gapstudio/model/sweep.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace gapstudio::cli {

namespace {

struct SweepArgs {
    std::vector<std::string> files; ///< MODEL EXECUTION SYSTEM
    std::string axis;
    std::vector<double> factors = {0.25, 0.5, 1, 2, 4};
    bool json = false;
};

std::vector<double> numbers(const std::string &list, const char *what)
{
    // limits.h: finite factors in [1e-6, 1e6] ("inf" once printed "x": null).
    const model::Range range = model::limits::kSweepFactor;
    std::vector<double> out;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        char *end = nullptr;
        const double v = std::strtod(item.c_str(), &end);
        if (item.empty() || *end != '\0' || !range.contains(v))
            throw UsageError { std::string(what) + " expects a comma list of numbers in " + range.text()
                               + ", got '" + item + "'" };
        out.push_back(v);
    }
    if (out.empty())
        throw UsageError{std::string(what) + " needs at least one value"};
    return out;
}

SweepArgs parse(const std::vector<std::string> &args, bool needsAxis)
{
    SweepArgs s;
    bool calculon = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--calculon") {
            calculon = true;
            for (int k = 0; k < 3; ++k)
                s.files.push_back(optionValue(a, args, i));
        } else if (a == "--axis" && needsAxis) {
            s.axis = optionValue(a, args, i);
        } else if (a == "--factors" && needsAxis) {
            s.factors = numbers(optionValue(a, args, i), "--factors");
        } else if (a == "--json") {
            s.json = true;
        } else {
            throw UsageError{"unknown argument '" + a + "'"};
        }
    }
    if (!calculon)
        throw UsageError{"needs --calculon MODEL.json EXECUTION.json SYSTEM.json"};
    if (needsAxis && s.axis.empty())
        throw UsageError{"sweep needs --axis (a hardware parameter, or 'variants')"};
    return s;
}

std::string numberText(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

struct Loaded {
    model::Design design;
    model::EvaluateOptions options;
    StatsFormat format;
};

Loaded load(const SweepArgs &s)
{
    const io::CalculonInputs in = io::loadCalculonInputs(s.files[0], s.files[1], s.files[2]);
    Loaded l{{in.application, in.execution, in.system}, {}, StatsFormat::Calculon};
    l.options.quirks = in.referenceQuirks();
    l.format = in.format == io::ExecutionFormat::CalculonMoe ? StatsFormat::CalculonMoe : StatsFormat::Calculon;
    return l;
}

} // namespace

int runSweep(const std::vector<std::string> &args)
{
    const SweepArgs s = parse(args, true);
    const Loaded l = load(s);
    // A design eval refuses as malformed is refused here too, with eval's error: its variants and
    // scaled copies would only repeat the refusal as rows without statistics.
    if (const scenario::PipelineResult base = scenario::runDesign(l.design, l.options);
        base.status == scenario::EvaluationStatus::Malformed)
        return reportDiagnostics(base.diagnostics, s.files[0], s.files[1], s.files[2]);
    std::vector<model::SweepPoint> points;
    if (s.axis == "variants") {
        points = model::sweepVariants(l.design, l.options);
    } else {
        const auto parameter = model::parameterFromKey(s.axis);
        if (!parameter) {
            std::string keys;
            for (model::HardwareParameter p : model::kHardwareParameters)
                keys += std::string(keys.empty() ? "" : ", ") + model::parameterKey(p);
            throw UsageError{"unknown --axis '" + s.axis + "' (expected variants, " + keys + ")"};
        }
        // The same rule as every input: a factor that takes the parameter out of its range
        // (limits.h) is refused, with the range, before anything is evaluated.
        for (const double factor : s.factors) {
            const model::Design d = model::scaled(l.design, *parameter, factor);
            model::Diagnostics ranges;
            model::checkSystemRanges(d.execution, d.system, true, ranges);
            if (!ranges.empty())
                throw UsageError { "--factors " + numberText(factor) + ": " + ranges.front().message };
        }
        points = model::sweepParameter(l.design, *parameter, s.factors, l.options);
    }
    if (s.json) {
        nlohmann::ordered_json out = nlohmann::ordered_json::array();
        for (const model::SweepPoint &p : points) {
            nlohmann::ordered_json j;
            j["x"] = p.x;
            j["label"] = p.label;
            j["ok"] = p.evaluation.ok;
            if (!p.evaluation.diagnostics.empty())
                j["diagnostic"] = p.evaluation.diagnostics.front().message;
            j["stats"] = statsToJson(p.evaluation.stats, l.format);
            out.push_back(std::move(j));
        }
        std::cout << out.dump(2) << '\n';
        return kExitOk;
    }
    std::printf("x,label,ok,total_time,sample_rate,total_efficiency,proc_mem_tier1_cap_req,diagnostic\n");
    for (const model::SweepPoint &p : points) {
        const model::Stats &o = p.evaluation.stats;
        std::printf("%.17g,%s,%d,%.17g,%.17g,%.17g,%.17g,\"%s\"\n", p.x, p.label.c_str(), p.evaluation.ok ? 1 : 0,
                    o.total_time, o.sample_rate, o.total_efficiency, o.proc_mem_tier1_cap_req,
                    p.evaluation.diagnostics.empty() ? "" : p.evaluation.diagnostics.front().message.c_str());
    }
    return kExitOk;
}

int runSensitivity(const std::vector<std::string> &args)
{
    const SweepArgs s = parse(args, false);
    const Loaded l = load(s);
    const scenario::PipelineResult base = scenario::runDesign(l.design, l.options);
    if (!base.ok())
        return reportDiagnostics(base.diagnostics, s.files[0], s.files[1], s.files[2]);
    const std::vector<model::Elasticity> tornado = model::sensitivity(l.design, l.options);
    if (s.json) {
        nlohmann::ordered_json out = nlohmann::ordered_json::array();
        for (const model::Elasticity &e : tornado)
            out.push_back({ { "parameter", model::parameterKey(e.parameter) },
                            { "label", model::parameterLabel(e.parameter) },
                            { "step_time_elasticity", e.stepTime },
                            { "mfu_elasticity", e.mfu },
                            { "valid", e.valid },
                            { "moved", e.moved } });
        std::cout << out.dump(2) << '\n';
        return kExitOk;
    }
    std::printf("parameter,step_time_elasticity,mfu_elasticity,valid\n");
    for (const model::Elasticity &e : tornado)
        std::printf("%s,%.6g,%.6g,%d\n", model::parameterKey(e.parameter), e.stepTime, e.mfu, e.valid ? 1 : 0);
    return kExitOk;
}

} // namespace gapstudio::cli
