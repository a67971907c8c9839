// Predicted against measured iteration times (validation.h).
#include "gapstudio/scenario/validation.h"

#include "gapstudio/scenario/pipeline.h"
#include "gapstudio/scenario/run_filter.h"

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

double predictionError(double measured_s, double predicted_s) noexcept
{
    return measured_s / predicted_s - 1;
}

namespace {

std::string joined(const model::Diagnostics &diagnostics)
{
    std::string text;
    for (const model::Diagnostic &d : diagnostics)
        text += (text.empty() ? "" : "; ") + (d.field.empty() ? "" : d.field + ": ") + d.message;
    return text;
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
    const PipelineResult result = runScenario(scenario, library);
    if (result.compiled) {
        row.calibrationNote = result.compiled->calibrationNote;
        row.generation = gpuGeneration(result.compiled->resolved.gpu);
    }
    switch (result.status) {
    case EvaluationStatus::Malformed:
        row.status = RunStatus::Invalid;
        row.cause = joined(result.diagnostics);
        row.diagnostics = result.diagnostics;
        return row;
    case EvaluationStatus::Infeasible:
        row.status = RunStatus::Infeasible;
        row.cause = joined(result.diagnostics);
        return row;
    case EvaluationStatus::OverCapacity:
        // The run did happen: the time is still predicted, the memory model's shortfall noted.
        row.status = RunStatus::OverCapacity;
        row.cause = result.statusText;
        break;
    case EvaluationStatus::Ok:
        break;
    }
    row.predicted_s = result.evaluation.stats.total_time;
    row.error = predictionError(m.measuredIterationTime_s, result.evaluation.stats.total_time);
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
        add(summary.generations[row.generation], *row.error);
    }
    return summary;
}

} // namespace gapstudio::scenario
