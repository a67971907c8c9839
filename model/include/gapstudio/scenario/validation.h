#pragma once
/**
 * @file validation.h
 * Predicted against measured iteration times of real training runs (io::Measurement): the
 * accuracy check of the corrected model and the residuals the calibration fits.
 */

#include "gapstudio/io/measurement_json.h"
#include "gapstudio/scenario/scenario.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gapstudio::scenario {

enum class RunStatus {
    Ok,           ///< evaluated
    OverCapacity, ///< evaluated, but the model says it does not fit in memory (it did run)
    Infeasible,   ///< the model rejects the layout: no prediction
    Invalid,      ///< the scenario does not compile (missing preset, bad key): no prediction
};

[[nodiscard]] const char *runStatusName(RunStatus status) noexcept; ///< "ok", "over_capacity", ...

/// The error of a prediction, the one definition of every validation (rows, summaries, tests):
/// measured / predicted - 1 (positive: the model is too fast).
[[nodiscard]] double predictionError(double measured_s, double predicted_s) noexcept;

struct ValidationRow {
    std::string id, family, name, source, notes;
    std::string generation; ///< the GPU's architecture, else its id (runGeneration)
    double measured_s = 0;
    std::optional<double> predicted_s;
    std::optional<double> error; ///< measured / predicted - 1 (positive: the model is too fast)
    RunStatus status = RunStatus::Ok;
    std::string cause;           ///< why there is no prediction, or the memory shortfall
    std::string calibrationNote; ///< which calibration entries produced the prediction
    model::Diagnostics diagnostics; ///< why there is no prediction, to locate in the run's file
};

struct ErrorStats {
    std::size_t rows = 0; ///< rows with a prediction
    double meanAbsError = 0, maxAbsError = 0;
};

struct ValidationSummary {
    std::size_t total = 0; ///< every row, with or without a prediction
    ErrorStats all;
    std::map<std::string, ErrorStats> families;
    std::map<std::string, ErrorStats> generations; ///< by ValidationRow::generation
};

/// Evaluates every measurement with the corrected model. `calibration`, if given, replaces each
/// scenario's own calibration (the shipped one by default).
[[nodiscard]] std::vector<ValidationRow> validateMeasurements(const std::vector<io::Measurement> &measurements,
                                                              const PresetLibrary &library,
                                                              const CalibrationSet *calibration = nullptr);

[[nodiscard]] ValidationSummary summarize(const std::vector<ValidationRow> &rows);

} // namespace gapstudio::scenario
