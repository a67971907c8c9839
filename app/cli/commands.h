#pragma once
// The subcommands of gapstudio-cli and what they share. Exit status contract (see --help and the
// README; the GUI's headless runs keep the same): 0 success, 1 infeasible configuration (including
// over memory capacity), 2 malformed input or usage error, 3 an output could not be written.

#include "gapstudio/model/diagnostics.h"
#include "gapstudio/scenario/pipeline.h"
#include "gapstudio/scenario/run_filter.h"
#include "gapstudio/scenario/scenario.h"
#include "gapstudio/scenario/validation.h"

#include <string>
#include <vector>

namespace gapstudio::cli {

enum ExitCode : int { kExitOk = 0, kExitInfeasible = 1, kExitMalformed = 2, kExitOutputFailed = 3 };

/// Wrong command-line words: printed with a pointer to --help, exit 2.
struct UsageError {
    std::string message;
};

/// The word after `option` (at args[i]), stepping i over it; "OPTION needs a value" when there
/// is none.
[[nodiscard]] inline const std::string &optionValue(const std::string &option,
                                                    const std::vector<std::string> &args, std::size_t &i)
{
    if (i + 1 >= args.size())
        throw UsageError { option + " needs a value" };
    return args[++i];
}

/// `eval --calculon MODEL EXECUTION SYSTEM [--layers]`: the 96 statistics as one JSON object.
[[nodiscard]] int runEval(const std::string &modelPath, const std::string &executionPath,
                          const std::string &systemPath, bool withLayers);

/// `eval SCENARIO.gapstudio.json [--reference-quirks] [--presets DIR] [--layers] [--cost]`: a
/// native design through the scenario pipeline; the same statistics as the --calculon form (122
/// for MoE LLMs). A measurement file (io/measurement_json.h) evaluates its run's scenario and
/// appends a "measured" object: the run's id, its measured iteration time and the prediction's
/// error (scenario::predictionError, as validate reports it). Corrected model unless `referenceQuirks`; empty
/// `presetsDir` = the preset search order (io/preset_locations.h), else that folder alone. `withCost` appends
/// a "cost" object, `withGoodput` then a "goodput" object. A `calibrationFile` replaces the calibration the
/// scenario names (or the shipped one).
[[nodiscard]] int runEvalScenario(const std::string &scenarioPath, bool referenceQuirks,
                                  const std::string &presetsDir, bool withLayers, bool withCost = false,
                                  bool withGoodput = false, const std::string &calibrationFile = {});

/// `import-hf config.json [--id ID] [--name NAME]`: an llm preset on stdout, approximations on stderr.
[[nodiscard]] int runImportHf(const std::vector<std::string> &args);

/// `bench [--moe] [--seconds S]`: evaluations per second of benchCase() (or moeBenchCase())
/// on one thread.
[[nodiscard]] int runBench(double seconds, bool moe);
/// `bench --scenario FILE [--presets DIR] [--seconds S]`: the same figures for the design's own
/// model (the corrected one), compiled once, on one thread.
[[nodiscard]] int runBenchScenario(const std::string &scenarioPath, const std::string &presetsDir, double seconds);

/// `search --calculon MODEL NUM_PROCS MAX_BATCH DATATYPE SYSTEM [options]`: the best layouts as
/// the reference's JSON ({"0": {"execution", "stats"}, ...}); a summary line on stderr.
[[nodiscard]] int runSearch(const std::vector<std::string> &args);

/// `sweep --calculon M E S --axis PARAMETER|variants [--factors a,b,...] [--json]`.
[[nodiscard]] int runSweep(const std::vector<std::string> &args);

/// `sensitivity --calculon M E S [--json]`: elasticities of step time and MFU, largest first.
[[nodiscard]] int runSensitivity(const std::vector<std::string> &args);

/// The presets of a command: the folder `presetsDir` alone, or the layered search order
/// (io::loadPresets; its warnings on stderr) when it is empty.
[[nodiscard]] scenario::PresetLibrary presetLibrary(const std::string &presetsDir);
/// A calibration preset file (`--calibration FILE` of validate, calibrate and roadmap); a bad
/// file is an io::InputError naming it.
[[nodiscard]] scenario::CalibrationSet readCalibrationFile(const std::string &path);
/// The usage error of `--calibration` beside `--reference-quirks` (the reference models have no
/// calibration), for eval and roadmap.
void rejectCalibrationUnderReferenceQuirks(bool referenceQuirks, const std::string &calibrationFile);

/// Arguments of `validate` and `calibrate`: measurement files or folders and options.
struct ValidateArgs {
    std::vector<std::string> paths;
    std::string presetsDir, calibrationFile, outFile, gpu, software;
    std::vector<scenario::RunFilter> filters; ///< --only / --exclude KEY=VALUE, in order
    bool fromPriors = false;                  ///< calibrate --from-priors
    bool bounded = false;                     ///< calibrate --bounded
    bool hostOps = false;                     ///< calibrate --host-ops (accepted, the only way now)
};
[[nodiscard]] ValidateArgs parseValidateArgs(const std::vector<std::string> &args, const char *command);

/// The runs `args.filters` keep (usage error, exit 2, when a filter matches no run or none is left).
[[nodiscard]] std::vector<io::Measurement> selectRuns(const ValidateArgs &args,
                                                      const scenario::PresetLibrary &library,
                                                      const std::vector<io::Measurement> &runs);

/// Throws the InputError (exit 2) of the first run in `rows` (validateMeasurements of
/// `measurements`) whose scenario is malformed, e.g. names a missing preset: "FILE: /scenario/gpu:
/// ...", as `eval` names the scenario file's /gpu.
void requireWellFormedRuns(const std::vector<io::Measurement> &measurements,
                           const std::vector<scenario::ValidationRow> &rows);

/// `validate FILE_OR_DIR... [--presets DIR] [--calibration FILE] [--only|--exclude KEY=VALUE]...`:
/// a JSON array of {"id", "family", "gpu_arch", "measured_s", "predicted_s", "error", ...} (error =
/// measured / predicted - 1); per-family and per-generation lines and last "rows: N,
/// mean_abs_error: X, max_abs_error: Y" on stderr.
[[nodiscard]] int runValidate(const std::vector<std::string> &args);

/// `calibrate FILE_OR_DIR... --out CALIBRATION.json [--gpu ID] [--software ID]`: fits a
/// calibration preset; prints its parameters with their uncertainty, the error before and after,
/// the leave-one-family-out and the leave-one-generation-out errors.
[[nodiscard]] int runCalibrate(const std::vector<std::string> &args);

/// `rank SCENARIO [--by KEY] [--top N] [--threads N] [--presets DIR]`: the scenario's layouts
/// ranked by sample_rate, mfu, usd_per_million_tokens (default) or joules_per_token, as JSON.
[[nodiscard]] int runRank(const std::vector<std::string> &args);

/// `cost-sweep SCENARIO --gpus N1,N2,... [--by KEY] [--threads N] [--presets DIR] [--json]`:
/// time-to-train and cost-to-train at each GPU count's best layout, Pareto front marked (CSV).
[[nodiscard]] int runCostSweep(const std::vector<std::string> &args);

/// `roadmap FILE.gapstudio-roadmap.json [--json] [--presets DIR] [--reference-quirks]`: one row per
/// step (samples/s, MFU, $/million tokens, J/token, MW and the gains over the previous step); CSV
/// by default. Exit 2 for a bad file or a step that is not a valid design, 1 when a step does not
/// fit or run (its row has no figures; why on stderr).
[[nodiscard]] int runRoadmap(const std::vector<std::string> &args);

/// `text` as an integer >= 1 for the option or argument `what`; a UsageError otherwise.
[[nodiscard]] std::int64_t positiveInteger(const std::string &text, const char *what);

/// Prints the diagnostics of a failed evaluation of three reference files on stderr and returns
/// the exit status: the first malformed-input diagnostic alone ("error: FILE: /pointer: message"
/// in the file that holds the value, exit 2), or else one "error: message" line per diagnostic,
/// the cause first (exit 1).
[[nodiscard]] int reportDiagnostics(const model::Diagnostics &diagnostics, const std::string &modelFile,
                                    const std::string &executionFile, const std::string &systemFile);

/// The same for a scenario file, in its own terms (scenario/locate.h): "error: FILE: /pointer:
/// message" (e.g. /layout/tensor_par, /overrides/llm.seq_size) or "error: message"; exit 2 if the
/// scenario is malformed (numbers outside the model's ranges), else 1 (an infeasible design).
/// `at` is where the scenario sits in the file ("/scenario" in a measurement file).
[[nodiscard]] int reportScenarioDiagnostics(const model::Diagnostics &diagnostics,
                                            const scenario::Scenario &scenario, const std::string &file,
                                            const std::string &at = {});

/// The built-in benchmark configuration (generated from a reference case at build time).
struct BenchCase {
    const char *name;
    const char *modelJson;
    const char *executionJson;
    const char *systemJson;
    double referenceTotalTime_s; ///< the reference model's total_time for this case
};
[[nodiscard]] const BenchCase &benchCase();
[[nodiscard]] const BenchCase &moeBenchCase();

} // namespace gapstudio::cli
