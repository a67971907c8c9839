// The scenario pipeline (pipeline.h): compile -> evaluate -> status -> analyze, in one place.
#include "gapstudio/scenario/pipeline.h"

#include "gapstudio/scenario/cost.h"
#include "gapstudio/model/units.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>

namespace gapstudio::scenario {

namespace {

using model::Diagnostic;
using model::DiagnosticCode;

using units::kBytesPerGiB;

bool isCapacity(const Diagnostic &d) noexcept
{
    return d.code == DiagnosticCode::Tier1CapacityExceeded || d.code == DiagnosticCode::Tier2CapacityExceeded;
}

/// The status a failed evaluation's diagnostics give: input rules broken, else only capacities
/// exceeded (the model ran: stats exist), else a rejected layout.
EvaluationStatus statusOf(const model::Diagnostics &diagnostics) noexcept
{
    if (std::any_of(diagnostics.begin(), diagnostics.end(),
                    [](const Diagnostic &d) { return d.isMalformedInput(); }))
        return EvaluationStatus::Malformed;
    if (!diagnostics.empty() && std::all_of(diagnostics.begin(), diagnostics.end(), isCapacity))
        return EvaluationStatus::OverCapacity;
    return EvaluationStatus::Infeasible;
}

/// `value` with `digits` significant digits, trailing zeros dropped ("165.98", "80").
std::string number(double value, int digits = 5)
{
    std::array<char, 64> text {};
    std::snprintf(text.data(), text.size(), "%.*g", digits, value);
    return text.data();
}

std::string shortfallText(const MemoryShortfall &s)
{
    const char *memory = s.tier == 1 ? "of HBM" : "of tier-2 (offload) memory";
    return "each GPU needs " + number(s.need_B / kBytesPerGiB) + " GiB " + memory + " but has "
           + number(s.capacity_B / kBytesPerGiB) + " GiB";
}

std::string statusTextOf(const PipelineResult &r)
{
    const Diagnostic *cause = r.cause();
    const std::string why = cause && !cause->message.empty() ? cause->message : std::string();
    switch (r.status) {
    case EvaluationStatus::Ok: {
        const model::Stats &s = r.evaluation.stats;
        std::array<char, 32> mfu {};
        std::snprintf(mfu.data(), mfu.size(), "%.1f %%", s.total_efficiency * 100);
        return "Feasible: step time " + number(s.total_time, 4) + " s, MFU " + mfu.data();
    }
    case EvaluationStatus::OverCapacity: {
        std::string text = "Does not fit in memory: ";
        for (std::size_t i = 0; i < r.shortfalls.size(); ++i)
            text += (i ? "; " : "") + shortfallText(r.shortfalls[i]);
        return text;
    }
    case EvaluationStatus::Infeasible:
        return why.empty() ? "Infeasible layout" : "Infeasible layout: " + why;
    case EvaluationStatus::Malformed:
        break;
    }
    if (why.empty())
        return "Cannot be evaluated";
    return "Cannot be evaluated: " + (cause->field.empty() ? why : cause->field + ": " + why);
}

/// Evaluates the compiled inputs into `r` and sets status, shortfalls, analysis and text.
void evaluateInto(PipelineResult &r, const model::Application &app, const model::Execution &exe,
                  const model::System &sys)
{
    r.evaluation = model::evaluate(app, exe, sys, r.evaluateOptions);
    r.diagnostics.insert(r.diagnostics.end(), r.evaluation.diagnostics.begin(),
                         r.evaluation.diagnostics.end());
    r.status = r.evaluation.ok ? EvaluationStatus::Ok : statusOf(r.evaluation.diagnostics);
    if (r.status == EvaluationStatus::OverCapacity) {
        const model::Stats &s = r.evaluation.stats;
        if (s.proc_mem_tier1_cap_req > sys.mem1.capacity_B)
            r.shortfalls.push_back({ 1, s.proc_mem_tier1_cap_req, sys.mem1.capacity_B });
        if (s.proc_mem_tier2_cap_req > sys.mem2.capacity_B)
            r.shortfalls.push_back({ 2, s.proc_mem_tier2_cap_req, sys.mem2.capacity_B });
    }
    if (r.status == EvaluationStatus::Ok || r.status == EvaluationStatus::OverCapacity)
        r.analysis = model::analyze(app, exe, sys, r.evaluation);
}

/// Evaluates r.compiled: the compiled scenario knows its model (quirks, the corrected model's
/// features and the calibration of its GPU and software).
void evaluateCompiled(PipelineResult &r, const PipelineOptions &options)
{
    const CompiledScenario &c = *r.compiled;
    r.evaluateOptions = c.evaluateOptions(options.withLayers, options.explain);
    evaluateInto(r, c.application, c.execution, c.system);
    if (r.ok()) {
        r.cost = scenarioCost(c, r.evaluation.stats, *r.analysis);
        r.goodput = scenarioGoodput(c, r.evaluation.stats, *r.analysis, *r.cost);
        r.analysis->gap.failures = r.goodput->failuresLoss;
        r.interval = predictionInterval(c, r.evaluation);
    }
}

/// A failure inside the model (a bug, or out of memory) is a diagnostic, never an exception.
void internalError(PipelineResult &r, const char *what)
{
    r.status = EvaluationStatus::Malformed;
    r.analysis.reset();
    r.cost.reset();
    r.goodput.reset();
    r.interval.reset();
    r.shortfalls.clear();
    r.diagnostics.push_back({ DiagnosticCode::InvalidScenario, "", std::string("internal error: ") + what });
}

} // namespace

const char *statusName(EvaluationStatus status) noexcept
{
    constexpr std::array<const char *, 4> kNames = { "malformed", "infeasible", "over_capacity", "ok" };
    return kNames[static_cast<std::size_t>(status)];
}

const model::Diagnostic *PipelineResult::cause() const noexcept
{
    if (status == EvaluationStatus::Ok)
        return nullptr;
    for (const Diagnostic &d : diagnostics) {
        const bool decides = status == EvaluationStatus::Malformed    ? d.isMalformedInput()
                             : status == EvaluationStatus::Infeasible ? !isCapacity(d)
                                                                      : isCapacity(d);
        if (decides)
            return &d;
    }
    return diagnostics.empty() ? nullptr : &diagnostics.front();
}

const model::GoodputResult *PipelineResult::shownGoodput() const noexcept
{
    return ok() && goodput && goodput->valid && goodput->goodput > 0 ? &*goodput : nullptr;
}

std::optional<model::Design> PipelineResult::design() const
{
    if (!compiled)
        return std::nullopt;
    return model::Design { compiled->application, compiled->execution, compiled->system };
}

PipelineResult runScenario(const Scenario &scenario, const PresetLibrary &library,
                           const PipelineOptions &options)
{
    PipelineResult r;
    r.scenario = scenario;
    r.evaluateOptions.withLayers = options.withLayers;
    r.evaluateOptions.explain = options.explain;
    try {
        CompileResult compiled = compile(scenario, library, CompileOptions { options.referenceQuirks });
        r.diagnostics = std::move(compiled.diagnostics);
        r.compiled = std::move(compiled.compiled);
        if (r.compiled)
            evaluateCompiled(r, options);
    } catch (const std::exception &error) {
        internalError(r, error.what());
    }
    r.statusText = statusTextOf(r);
    return r;
}

PipelineResult runCompiled(const CompiledScenario &compiled, const PipelineOptions &options)
{
    PipelineResult r;
    try {
        r.compiled = compiled;
        evaluateCompiled(r, options);
    } catch (const std::exception &error) {
        internalError(r, error.what());
    }
    r.statusText = statusTextOf(r);
    return r;
}

PipelineResult runDesign(const model::Design &design, const model::EvaluateOptions &options)
{
    PipelineResult r;
    r.evaluateOptions = options;
    try {
        evaluateInto(r, design.application, design.execution, design.system);
    } catch (const std::exception &error) {
        internalError(r, error.what());
    }
    r.statusText = statusTextOf(r);
    return r;
}

} // namespace gapstudio::scenario
