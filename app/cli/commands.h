#pragma once
// The subcommands of gapstudio-cli and what they share. Exit status contract (see --help):
// 0 success, 1 infeasible configuration, 2 malformed input or usage error.

#include "gapstudio/model/diagnostics.h"

#include <string>

namespace gapstudio::cli {

enum ExitCode : int { kExitOk = 0, kExitInfeasible = 1, kExitMalformed = 2 };

/// `eval --calculon MODEL EXECUTION SYSTEM [--layers]`: the 96 statistics as one JSON object.
[[nodiscard]] int runEval(const std::string &modelPath, const std::string &executionPath,
                          const std::string &systemPath, bool withLayers);

/// `bench [--seconds S]`: evaluations per second of benchCase() on one thread.
[[nodiscard]] int runBench(double seconds);

/// Prints the diagnostics of a failed evaluation on stderr and returns the exit status: the
/// first malformed-input diagnostic alone ("error: FILE: /field: message", exit 2), or else one
/// "error: message" line per diagnostic, the cause first (exit 1).
[[nodiscard]] int reportDiagnostics(const model::Diagnostics &diagnostics, const std::string &executionFile);

/// The built-in benchmark configuration (generated from a reference case at build time).
struct BenchCase {
    const char *name;
    const char *modelJson;
    const char *executionJson;
    const char *systemJson;
    double referenceTotalTime_s; ///< the reference model's total_time for this case
};
[[nodiscard]] const BenchCase &benchCase();

} // namespace gapstudio::cli
