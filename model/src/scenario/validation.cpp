// Predicted against measured iteration times (validation.h).
#include "gapstudio/scenario/validation.h"

#include "gapstudio/model/evaluate.h"

#include <algorithm>
#include <cmath>

namespace gapstudio::scenario {

const char *runStatusName(RunStatus status) noexcept
{
    switch (status) {
    case RunStatus::Ok:
        return "ok";
    case RunStatus::OverCapacity:
        return "over_capacity";
    case RunStatus::Infeasible:
        return "infeasible";
    case RunStatus::Invalid:
        break;
    }
    return "invalid";
}

namespace {

std::string joined(const model::Diagnostics &diagnostics)
{
    std::string text;
    for (const model::Diagnostic &d : diagnostics)
        text += (text.empty() ? "" : "; ") + (d.field.empty() ? "" : d.field + ": ") + d.message;
    return text;
}

bool capacityOnly(const model::Diagnostics &diagnostics)
{
    return !diagnostics.empty() && std::all_of(diagnostics.begin(), diagnostics.end(), [](const model::Diagnostic &d) {
        return d.code == model::DiagnosticCode::Tier1CapacityExceeded
               || d.code == model::DiagnosticCode::Tier2CapacityExceeded;
    });
}

ValidationRow validateOne(const io::Measurement &m, const PresetLibrary &library, const CalibrationSet *calibration)
{
    ValidationRow row;
    row.id = m.id;
    row.family = m.family;
    row.name = m.name;
    row.source = m.source;
    row.notes = m.notes;
    row.measured_s = m.measuredIterationTime_s;
    Scenario scenario = m.scenario;
    if (calibration) {
        scenario.calibration.presetId.clear();
        scenario.calibration.inlineBlock = *calibration;
    }
    const CompileResult compiled = compile(scenario, library);
    if (!compiled.compiled) {
        row.status = RunStatus::Invalid;
        row.cause = joined(compiled.diagnostics);
        return row;
    }
    const CompiledScenario &c = *compiled.compiled;
    row.calibrationNote = c.calibrationNote;
    const model::Evaluation e = model::evaluate(c.application, c.execution, c.system, c.evaluateOptions());
    if (!e.ok && !capacityOnly(e.diagnostics)) {
        row.status = RunStatus::Infeasible;
        row.cause = joined(e.diagnostics);
        return row;
    }
    if (!e.ok) {
        row.status = RunStatus::OverCapacity;
        row.cause = joined(e.diagnostics);
    }
    row.predicted_s = e.stats.total_time;
    row.error = m.measuredIterationTime_s / e.stats.total_time - 1;
    return row;
}

void add(ErrorStats &stats, double error)
{
    const double absolute = std::fabs(error);
    stats.meanAbsError = (stats.meanAbsError * static_cast<double>(stats.rows) + absolute) / static_cast<double>(stats.rows + 1);
    stats.maxAbsError = std::max(stats.maxAbsError, absolute);
    ++stats.rows;
}

} // namespace

std::vector<ValidationRow> validateMeasurements(const std::vector<io::Measurement> &measurements,
                                                const PresetLibrary &library, const CalibrationSet *calibration)
{
    std::vector<ValidationRow> rows;
    rows.reserve(measurements.size());
    for (const io::Measurement &m : measurements)
        rows.push_back(validateOne(m, library, calibration));
    return rows;
}

ValidationSummary summarize(const std::vector<ValidationRow> &rows)
{
    ValidationSummary summary;
    summary.total = rows.size();
    for (const ValidationRow &row : rows) {
        if (!row.error)
            continue;
        add(summary.all, *row.error);
        add(summary.families[row.family], *row.error);
    }
    return summary;
}

} // namespace gapstudio::scenario
