#include "commands.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/evaluate.h"
#include "gapstudio/scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdint>
#include <functional>
#include <string>

namespace gapstudio::cli {

namespace {

/// Evaluations between two reads of the clock: a read costs some 16 ns on the 2-core machine of
/// README ("Command-line tool", `bench`): 1.6 % of a one-microsecond evaluation if read after each.
constexpr int kEvaluationsPerClockRead = 16;

/// Calls `evaluate` until `seconds` are up (at least kEvaluationsPerClockRead times) on this
/// thread and prints the rate; the sum of the step times keeps the calls observable.
/// `reference` < 0: none to print.
void timeEvaluations(const std::string &name, double seconds, double reference,
                     const std::function<double()> &evaluate)
{
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto budget = std::chrono::duration<double>(seconds);
    std::int64_t count = 0;
    double sink = 0;
    Clock::duration elapsed{};
    do {
        for (int i = 0; i < kEvaluationsPerClockRead; ++i)
            sink += evaluate();
        count += kEvaluationsPerClockRead;
        elapsed = Clock::now() - start;
    } while (elapsed < budget);
    const double elapsed_s = std::chrono::duration<double>(elapsed).count();
    const double rate = static_cast<double>(count) / elapsed_s;

    std::printf("case: %s\n", name.c_str());
    if (reference >= 0)
        std::printf("total_time_s: %.17g (reference %.17g)\n", sink / static_cast<double>(count), reference);
    else
        std::printf("total_time_s: %.17g\n", sink / static_cast<double>(count));
    std::printf("threads: 1\n");
    std::printf("evaluations: %lld\n", static_cast<long long>(count));
    std::printf("seconds: %.3f\n", elapsed_s);
    std::printf("microseconds_per_evaluation: %.3f\n", 1e6 * elapsed_s / static_cast<double>(count));
    std::printf("evaluations_per_second: %.1f\n", rate);
    std::fflush(stdout);
}

} // namespace

int runBench(double seconds, bool moe)
{
    // 1. Parse once: the benchmark measures evaluate(), not JSON reading.
    const BenchCase &bench = moe ? moeBenchCase() : benchCase();
    const std::string origin = std::string("<built-in ") + bench.name + ">/";
    const model::Application app =
        io::parseApplication(nlohmann::json::parse(bench.modelJson), origin + "model.json");
    io::ExecutionFormat format = io::ExecutionFormat::Calculon;
    const model::Execution exe =
        io::parseExecution(nlohmann::json::parse(bench.executionJson), origin + "execution.json", &format);
    const model::System sys = io::parseSystem(nlohmann::json::parse(bench.systemJson), origin + "system.json");
    model::EvaluateOptions options;
    options.quirks = format == io::ExecutionFormat::CalculonMoe ? model::Quirks::calculonMoe()
                                                                : model::Quirks::calculon();

    // 2. One checked evaluation: timing a rejected configuration would be meaningless.
    const model::Evaluation first = model::evaluate(app, exe, sys, options);
    if (!first.ok)
        return reportDiagnostics(first.diagnostics, origin + "model.json", origin + "execution.json",
                                 origin + "system.json");

    // 3. Evaluate, as a layout search does, until the time is up.
    const model::EvaluateOptions timed = model::repeatedEvaluationOptions(options);
    timeEvaluations(bench.name, seconds, bench.referenceTotalTime_s,
                    [&] { return model::evaluate(app, exe, sys, timed).stats.total_time; });
    return kExitOk;
}

int runBenchScenario(const std::string &scenarioPath, const std::string &presetsDir, double seconds)
{
    // The design compiled once, as eval does; then the corrected model (or the references', if
    // the scenario asks for them) evaluated on it alone.
    const scenario::PresetLibrary library = presetLibrary(presetsDir);
    const scenario::Scenario design = io::loadScenario(scenarioPath);
    const scenario::CompiledScenario compiled = io::compileScenarioFile(design, library, scenarioPath);
    const model::EvaluateOptions options = compiled.evaluateOptions();
    const model::Evaluation first
        = model::evaluate(compiled.application, compiled.execution, compiled.system, options);
    if (!first.ok)
        return reportScenarioDiagnostics(first.diagnostics, design, scenarioPath);
    const model::EvaluateOptions timed = model::repeatedEvaluationOptions(options);
    timeEvaluations(design.info.id + " (" + scenarioPath + ")", seconds, -1, [&] {
        return model::evaluate(compiled.application, compiled.execution, compiled.system, timed)
            .stats.total_time;
    });
    return kExitOk;
}

} // namespace gapstudio::cli
