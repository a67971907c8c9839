# Mutations of the command-line contract (exit 0 ok, 1 infeasible, 2 malformed input or usage,
# 3 output not written; every failure one "error: ..." line naming the file, the place, the value
# and what was expected), sourced by tests/mutation-check.sh; see its header for the format.
# shellcheck shell=bash
# grid --vary and the CSV of runs read overrides as text (scenario::overrideTextProblem)
mutation "contract: a whole override of 2^53 + 1 is rounded" model/src/scenario/overrides.cpp \
    '    const bool inexact = k->integer && last == text.c_str() + text.size()' \
    '    const bool inexact = false && last == text.c_str() + text.size()' \
    "tst_cli_grid:badArguments"
mutation "contract: a CSV cell outside its override's range is accepted" model/src/io/runs_csv.cpp \
    'if (const auto problem = scenario::overrideTextProblem(key.key, text, value))' \
    'if (const auto problem = scenario::overrideTextProblem(key.key, text, value); problem && false)' \
    "tst_runs_csv:errorsNameLineAndColumn"
mutation "contract: the CSV of runs has no size limit" model/src/io/runs_csv.cpp \
    'return parseRunsCsv(readInputFile(path), path, current);' \
    'return parseRunsCsv(readInputFile(path, ~std::uintmax_t { 0 }), path, current);' \
    "tst_runs_csv:endlessAndHugeFilesAreRefused"
# validate and calibrate
mutation "contract: validate reports a run naming a missing preset as infeasible" app/cli/validate.cpp \
    'requireWellFormedRuns(measurements, rows);' \
    '(void)&requireWellFormedRuns;' \
    "tst_cli_validate:badMeasurementFiles"
mutation "contract: calibrate takes any --gpu and --software" app/cli/calibrate.cpp \
    'requireKnownIds(args, library, measurements);' \
    '(void)&requireKnownIds;' \
    "tst_cli_validate:badOptionsAndCalibrations"
mutation "contract: calibration efficiencies down to 0" model/src/io/calibration_json.cpp \
    'const model::Range &r = model::limits::kEfficiency;' \
    'const model::Range r { 0, true, 1, true };' \
    "tst_cli_validate:badOptionsAndCalibrations"
# sweep, roadmap, import-hf, preset folders
mutation "contract: sweep of a design eval refuses" app/cli/sweep.cpp \
    'base.status == scenario::EvaluationStatus::Malformed)' \
    'base.status == scenario::EvaluationStatus::Malformed && false)' \
    "tst_cli_robust:sweepOfADesignEvalRefuses"
mutation "contract: a malformed roadmap step is exit 1" app/cli/roadmap.cpp \
    '        return kExitMalformed;' \
    '        return kExitInfeasible;' \
    "tst_roadmap:cliStepErrors"
mutation "contract: a roadmap step that does not run lacks error:" app/cli/roadmap.cpp \
    'std::cerr << "error: " << a.path << ": /steps/" << i << ": step " << i + 1 << " ("' \
    'std::cerr << a.path << ": /steps/" << i << ": step " << i + 1 << " ("' \
    "tst_roadmap:cliStepErrors"
mutation "contract: import-hf writes an id that is not UTF-8" app/cli/import_hf.cpp \
    '(void)nlohmann::json(*text).dump();' \
    '(void)text;' \
    "tst_cli_robust:unclearErrorsAreClear"
mutation "contract: a preset folder's entry that cannot be examined throws" model/src/io/preset_files.cpp \
    'if (it->is_regular_file(ec) && it->path().extension() == ".json")' \
    'if (it->is_regular_file() && it->path().extension() == ".json")' \
    "tst_cli_robust:unclearErrorsAreClear"
mutation "bench --scenario times the reference model, not the design's" app/cli/bench.cpp \
    'const model::EvaluateOptions options = compiled.evaluateOptions();' \
    'const model::EvaluateOptions options{};' \
    "tst_cli:benchScenario"
mutation "grid's effective token rate without the goodput" app/cli/grid.cpp \
    'out["effective_tokens_per_second"] = r.goodput->effectiveTokensPerSecond;' \
    'out["effective_tokens_per_second"] = r.analysis->tokensPerSecond;' \
    "tst_cli_grid:goodputAtEveryPoint"
# the prediction interval in grid and roadmap outputs
mutation "contract: grid without the interval" app/cli/grid.cpp \
    'if (r.interval) // after the others: the line only grows' \
    'if (false)' \
    "tst_prediction_interval:gridPrintsTheInterval"
mutation "contract: roadmap's MFU range upside down" app/cli/roadmap.cpp \
    "return figure(low) + ',' + figure(high);" \
    "return figure(high) + ',' + figure(low);" \
    "tst_roadmap:cliRowPerStep"
mutation "contract: roadmap --calibration read but not applied" app/cli/roadmap.cpp \
    'design.calibration = { {}, calibration };' \
    '(void)design;' \
    "tst_roadmap:cliCalibrationForEveryStep"
mutation "contract: roadmap --calibration beside --reference-quirks accepted" app/cli/roadmap.cpp \
    'rejectCalibrationUnderReferenceQuirks(r.referenceQuirks, r.calibrationFile);' \
    '(void)r;' \
    "tst_roadmap:cliCalibrationForEveryStep"
mutation "contract: eval --calibration read but not applied" app/cli/eval_scenario.cpp \
    'scenario.calibration = { {}, readCalibrationFile(calibrationFile) };' \
    '(void)scenario;' \
    "tst_cli_scenario:calibrationFileReplacesTheScenarios"
mutation "contract: eval --calibration beside --reference-quirks accepted" app/cli/main.cpp \
    'rejectCalibrationUnderReferenceQuirks(referenceQuirks, calibrationFile);' \
    '(void)calibrationFile;' \
    "tst_cli_scenario:calibrationFileReplacesTheScenarios"
# eval on a measurement file
mutation "contract: eval of a measured run points outside its scenario" app/cli/eval_scenario.cpp \
    'measured ? "/scenario" : "");' \
    '"");' \
    "tst_cli_scenario:measurementFileEvaluatesItsRun"
mutation "contract: eval of a measured run inverts the error" app/cli/eval_scenario.cpp \
    'scenario::predictionError(time_s, result.evaluation.stats.total_time)' \
    'scenario::predictionError(result.evaluation.stats.total_time, time_s)' \
    "tst_cli_scenario:measurementFileEvaluatesItsRun"
