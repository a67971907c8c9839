// `gapstudio-cli validate FILE_OR_DIR... [--presets DIR] [--calibration FILE]`: predicted against
// measured iteration times of real runs (gapstudio.measurement files).
#include "commands.h"

#include "gapstudio/io/input_error.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/locate.h"
#include "gapstudio/scenario/validation.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace gapstudio::cli {

namespace {

nlohmann::ordered_json number(const std::optional<double> &value)
{
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

std::string fixed(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", value);
    return text;
}

} // namespace

void requireWellFormedRuns(const std::vector<io::Measurement> &measurements,
                           const std::vector<scenario::ValidationRow> &rows)
{
    for (std::size_t i = 0; i < rows.size() && i < measurements.size(); ++i) {
        if (rows[i].status != scenario::RunStatus::Invalid)
            continue;
        const io::Measurement &m = measurements[i];
        for (const model::Diagnostic &d : rows[i].diagnostics)
            if (scenario::isMalformedScenario({ d }))
                throw io::InputError(m.file, "/scenario" + scenario::scenarioPointer(m.scenario, d), d.message);
        throw io::InputError(m.file, "/scenario", rows[i].cause);
    }
}

ValidateArgs parseValidateArgs(const std::vector<std::string> &args, const char *command)
{
    ValidateArgs out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        const auto value = [&](const char *what) {
            if (i + 1 >= args.size() || args[i + 1].empty())
                throw UsageError{arg + " needs " + what + (i + 1 < args.size() ? ", got ''" : "")};
            return args[++i];
        };
        if (arg == "--presets")
            out.presetsDir = value("a directory");
        else if (arg == "--calibration")
            out.calibrationFile = value("a calibration file");
        else if (arg == "--out")
            out.outFile = value("a file");
        else if (arg == "--gpu")
            out.gpu = value("a GPU preset id");
        else if (arg == "--software")
            out.software = value("a software preset id");
        else if (arg == "--from-priors")
            out.fromPriors = true;
        else if (arg == "--bounded")
            out.bounded = true;
        else if (arg == "--host-ops")
            out.hostOps = true;
        else if (arg == "--only" || arg == "--exclude") {
            const std::string text = value("KEY=VALUE");
            try {
                out.filters.push_back(scenario::parseRunFilter(text, arg == "--exclude"));
            } catch (const std::invalid_argument &error) {
                throw UsageError { arg + ": " + error.what() };
            }
        } else if (arg.rfind("-", 0) == 0)
            throw UsageError{"unknown option '" + arg + "' for " + command};
        else
            out.paths.push_back(arg);
    }
    if (out.paths.empty())
        throw UsageError{std::string(command) + " needs measurement files or folders"};
    return out;
}

std::vector<io::Measurement> selectRuns(const ValidateArgs &args, const scenario::PresetLibrary &library,
                                        const std::vector<io::Measurement> &runs)
{
    try {
        return scenario::filterMeasurements(runs, library, args.filters);
    } catch (const std::invalid_argument &error) {
        throw UsageError { error.what() };
    }
}

int runValidate(const std::vector<std::string> &argv)
{
    const ValidateArgs args = parseValidateArgs(argv, "validate");
    if (!args.outFile.empty() || !args.gpu.empty() || !args.software.empty() || args.fromPriors
        || args.bounded || args.hostOps)
        throw UsageError {
            "validate takes no --out, --gpu, --software, --from-priors, --bounded or --host-ops "
            "(those are calibrate's)"
        };
    const scenario::PresetLibrary library
        = presetLibrary(args.presetsDir);
    const std::vector<io::Measurement> measurements
        = selectRuns(args, library, io::loadMeasurements(args.paths));
    std::optional<scenario::CalibrationSet> calibration;
    if (!args.calibrationFile.empty())
        calibration = readCalibrationFile(args.calibrationFile);
    const std::vector<scenario::ValidationRow> rows
        = scenario::validateMeasurements(measurements, library, calibration ? &*calibration : nullptr);
    requireWellFormedRuns(measurements, rows);

    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    bool missing = false;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const scenario::ValidationRow &row = rows[i];
        nlohmann::ordered_json item;
        item["id"] = row.id;
        item["family"] = row.family;
        item["gpu_arch"] = row.generation;
        item["measured_s"] = row.measured_s;
        item["predicted_s"] = number(row.predicted_s);
        item["error"] = number(row.error);
        item["status"] = scenario::runStatusName(row.status);
        if (!row.cause.empty())
            item["cause"] = row.cause;
        item["calibration"] = row.calibrationNote;
        out.push_back(item);
        if (!row.predicted_s) {
            missing = true;
            // The contract's exit-1 line, "error: FILE: cause": the run's file, id and status.
            std::cerr << "error: " << measurements[i].file << ": run " << row.id << " is "
                      << runStatusName(row.status) << ": " << row.cause << '\n';
        }
    }
    std::cout << out.dump(2) << '\n' << std::flush;
    const scenario::ValidationSummary summary = scenario::summarize(rows);
    for (const auto &[family, stats] : summary.families)
        std::cerr << "family: " << family << ", rows: " << stats.rows << ", mean_abs_error: " << fixed(stats.meanAbsError)
                  << ", max_abs_error: " << fixed(stats.maxAbsError) << '\n';
    for (const auto &[generation, stats] : summary.generations)
        std::cerr << "gpu_arch: " << generation << ", rows: " << stats.rows
                  << ", mean_abs_error: " << fixed(stats.meanAbsError)
                  << ", max_abs_error: " << fixed(stats.maxAbsError) << '\n';
    std::cerr << "rows: " << summary.all.rows << ", mean_abs_error: " << fixed(summary.all.meanAbsError)
              << ", max_abs_error: " << fixed(summary.all.maxAbsError) << '\n';
    return missing ? kExitInfeasible : kExitOk;
}

} // namespace gapstudio::cli
