#include "commands.h"
#include "json_output.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/scenario/pipeline.h"
#include "gapstudio/scenario/locate.h"

#include <iostream>

namespace gapstudio::cli {

int reportDiagnostics(const model::Diagnostics &diagnostics, const std::string &modelFile,
                      const std::string &executionFile, const std::string &systemFile)
{
    for (const model::Diagnostic &diagnostic : diagnostics) {
        if (diagnostic.isMalformedInput()) {
            std::cerr << "error: "
                      << io::inputErrorFor(diagnostic, modelFile, executionFile, systemFile).what() << '\n';
            return kExitMalformed;
        }
    }
    if (diagnostics.empty())
        std::cerr << "error: the model rejected the configuration without a diagnostic\n";
    for (const model::Diagnostic &diagnostic : diagnostics)
        std::cerr << "error: " << diagnostic.message << '\n';
    return kExitInfeasible;
}

int reportScenarioDiagnostics(const model::Diagnostics &diagnostics, const scenario::Scenario &scenario,
                              const std::string &file, const std::string &at)
{
    if (diagnostics.empty()) {
        std::cerr << "error: the model rejected the configuration without a diagnostic\n";
        return kExitInfeasible;
    }
    const bool malformed = scenario::isMalformedScenario(diagnostics);
    for (const model::Diagnostic &diagnostic : diagnostics) {
        // Malformed: the first offending input alone, as for any malformed file.
        if (malformed && !scenario::isMalformedScenario({ diagnostic }))
            continue;
        std::cerr << "error: " << scenario::scenarioDiagnosticText(file, scenario, diagnostic, at) << '\n';
        if (malformed)
            break;
    }
    return malformed ? kExitMalformed : kExitInfeasible;
}

int runEval(const std::string &modelPath, const std::string &executionPath, const std::string &systemPath,
            bool withLayers)
{
    const io::CalculonInputs in = io::loadCalculonInputs(modelPath, executionPath, systemPath);
    // The execution file's format picks the reference it is evaluated as (and its statistics).
    model::EvaluateOptions options;
    options.withLayers = withLayers;
    options.quirks = in.referenceQuirks();
    const scenario::PipelineResult result
        = scenario::runDesign({ in.application, in.execution, in.system }, options);
    if (!result.ok())
        return reportDiagnostics(result.diagnostics, modelPath, executionPath, systemPath);
    const StatsFormat format = in.format == io::ExecutionFormat::CalculonMoe ? StatsFormat::CalculonMoe
                                                                             : StatsFormat::Calculon;
    std::cout << evaluationToJson(result.evaluation, format, withLayers).dump(2) << '\n' << std::flush;
    return kExitOk;
}

} // namespace gapstudio::cli
