// `gapstudio-cli calibrate FILE_OR_DIR... --out CALIBRATION.json [--gpu ID] [--software ID]
// [--presets DIR] [--calibration START.json | --from-priors] [--bounded] [--host-ops] [--only|--exclude
// KEY=VALUE]...`: fits a calibration preset to measured runs.
#include "commands.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/safe_file.h"
#include "gapstudio/scenario/calibrate.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace gapstudio::cli {

namespace {

std::string fixed(double value, int digits = 4)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

std::string general(double value)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.4g", value);
    return text;
}

void printStats(const char *label, const scenario::ErrorStats &stats)
{
    std::cout << label << ": rows " << stats.rows << ", mean_abs_error " << fixed(stats.meanAbsError)
              << ", max_abs_error " << fixed(stats.maxAbsError) << '\n';
}

/// The fit's output may name none of its inputs, in any spelling (./, ../, a symbolic link, a
/// measurement file found inside an input folder, the --calibration start file): that would
/// replace a measured run or the start with the fit. Usage error (exit 2), nothing written.
void requireOutputIsNoInput(const ValidateArgs &args, const std::vector<io::Measurement> &measurements)
{
    std::vector<std::string> inputs = args.paths;
    inputs.push_back(args.calibrationFile);
    for (const io::Measurement &m : measurements)
        inputs.push_back(m.file);
    try {
        io::requireNotAnInput(args.outFile, inputs);
    } catch (const io::OutputError &error) {
        throw UsageError{std::string("--out ") + error.what()};
    }
}

/// A preset id as a file name could carry it: a letter or digit, then letters, digits, '.', '_', '-'.
bool isPresetId(const std::string &id)
{
    const auto plain = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; };
    return !id.empty() && plain(id[0])
           && std::all_of(id.begin(), id.end(), [&](char ch) { return plain(ch) || ch == '.' || ch == '_' || ch == '-'; });
}

/// --gpu names a GPU of the presets or of a run; --software a preset id (the entry it is written
/// under). Usage errors otherwise.
void requireKnownIds(const ValidateArgs &args, const scenario::PresetLibrary &library,
                     const std::vector<io::Measurement> &measurements)
{
    if (!args.software.empty() && !isPresetId(args.software))
        throw UsageError{"--software expects a preset id (a letter or digit, then letters, digits, '.', '_' "
                         "or '-'), got '" + args.software + "'"};
    if (args.gpu.empty() || library.gpus.count(args.gpu) > 0)
        return;
    for (const io::Measurement &m : measurements)
        if (m.scenario.gpu.presetId == args.gpu
            || (m.scenario.gpu.inlineBlock && m.scenario.gpu.inlineBlock->info.id == args.gpu))
            return;
    throw UsageError{"--gpu: no GPU preset or measured run's GPU with id '" + args.gpu + "'"};
}

} // namespace

int runCalibrate(const std::vector<std::string> &argv)
{
    const ValidateArgs args = parseValidateArgs(argv, "calibrate");
    if (args.outFile.empty())
        throw UsageError{"calibrate needs --out CALIBRATION.json"};
    scenario::PresetLibrary library = presetLibrary(args.presetsDir);
    if (args.fromPriors) // as if none were installed: the runs' "before" is the uncalibrated model
        library.calibrations.erase(scenario::kDefaultCalibrationId);
    const std::vector<io::Measurement> loaded = io::loadMeasurements(args.paths);
    requireOutputIsNoInput(args, loaded);
    const std::vector<io::Measurement> measurements = selectRuns(args, library, loaded);
    requireKnownIds(args, library, measurements);

    if (args.fromPriors && !args.calibrationFile.empty())
        throw UsageError { "--from-priors and --calibration both name the fit's start: give one" };
    // The start: --calibration, else the library's shipped calibration (its values start the fit
    // and stand for parameters the runs do not inform), unless --from-priors.
    std::optional<scenario::CalibrationSet> start;
    if (!args.calibrationFile.empty())
        start = readCalibrationFile(args.calibrationFile);
    else if (const auto it = library.calibrations.find(scenario::kDefaultCalibrationId); it != library.calibrations.end())
        start = it->second;

    if (args.software.empty()) // else every run's stack is replaced by the one named
        requireWellFormedRuns(measurements, scenario::validateMeasurements(measurements, library, start ? &*start : nullptr));

    scenario::CalibrationFitOptions options;
    options.id = std::filesystem::path(args.outFile).stem().string();
    if (options.id.size() > 5 && options.id.substr(options.id.size() - 5) == ".json")
        options.id.resize(options.id.size() - 5);
    options.name = "Calibration fitted to " + std::to_string(measurements.size()) + " measured runs";
    options.gpu = args.gpu;
    options.software = args.software;
    options.start = start ? &*start : nullptr;
    options.bounded = args.bounded;
    options.progress = [](int done, int total) {
        std::cerr << "fit " << done << " of " << total << " done\n" << std::flush;
    };
    scenario::CalibrationFit fit = scenario::fitCalibration(measurements, library, options);
    fit.calibration.info.source = "gapstudio-cli calibrate on " + std::to_string(measurements.size())
                                  + " measured runs; starting point: "
                                  + (start ? start->info.id : std::string("the built-in priors"));

    std::cout << "parameters (value +/- standard error):\n";
    for (const scenario::FittedParameter &p : fit.calibration.fit->parameters)
        std::cout << "  " << p.name << " = " << general(p.value) << " +/- " << general(p.standardError) << '\n';
    // A parameter at or beyond an end of its documented range: the runs want more than the
    // mechanism behind it gives, so the model lacks a mechanism there.
    std::string atBound;
    for (const scenario::FittedParameter &p : fit.calibration.fit->parameters)
        if (p.atBound)
            atBound += "\n  " + p.name + " = " + general(p.value) + " (range " + general(p.low) + " to "
                       + general(p.high) + ")";
    std::cout << "parameters at or beyond a bound of their documented range:"
              << (atBound.empty() ? " none" : atBound) << '\n';
    printStats("before", fit.beforeStats);
    printStats("after", fit.afterStats);
    for (const scenario::ValidationRow &row : fit.leftOut)
        if (row.error)
            std::cout << "leave-one-family-out run " << row.id << ": error " << fixed(*row.error) << '\n';
    for (const auto &[family, stats] : fit.leftOutByFamily)
        std::cout << "leave-one-family-out " << family << ": rows " << stats.rows << ", mean_abs_error "
                  << fixed(stats.meanAbsError) << ", max_abs_error " << fixed(stats.maxAbsError) << '\n';
    printStats("leave-one-family-out", fit.leftOutStats);
    for (const scenario::ValidationRow &row : fit.generationLeftOut)
        if (row.error)
            std::cout << "leave-one-generation-out run " << row.id << ": error " << fixed(*row.error) << '\n';
    for (const auto &[generation, stats] : fit.leftOutByGeneration)
        std::cout << "leave-one-generation-out " << generation << ": rows " << stats.rows
                  << ", mean_abs_error " << fixed(stats.meanAbsError) << ", max_abs_error "
                  << fixed(stats.maxAbsError) << '\n';
    io::savePresetFile(fit.calibration, args.outFile);
    std::cout << std::flush;
    std::cerr << "wrote " << args.outFile << '\n';
    return kExitOk;
}

} // namespace gapstudio::cli
