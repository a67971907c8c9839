#include "commands.h"
#include "json_output.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/scenario/pipeline.h"

#include <iostream>

namespace gapstudio::cli {

namespace {

/// "error: FILE: /field: message" for a malformed-input diagnostic, "error: message" otherwise.
void printDiagnostic(const model::Diagnostic &diagnostic, const std::string &file)
{
    if (diagnostic.isMalformedInput())
        std::cerr << "error: " << io::InputError(file, "/" + diagnostic.field, diagnostic.message).what()
                  << '\n';
    else
        std::cerr << "error: " << diagnostic.message << '\n';
}

} // namespace

int reportDiagnostics(const model::Diagnostics &diagnostics, const std::string &executionFile)
{
    for (const model::Diagnostic &diagnostic : diagnostics) {
        if (diagnostic.isMalformedInput()) {
            printDiagnostic(diagnostic, executionFile);
            return kExitMalformed;
        }
    }
    if (diagnostics.empty())
        std::cerr << "error: the model rejected the configuration without a diagnostic\n";
    for (const model::Diagnostic &diagnostic : diagnostics)
        printDiagnostic(diagnostic, executionFile);
    return kExitInfeasible;
}

int reportStatus(const scenario::PipelineResult &result, const std::string &inputFile)
{
    switch (result.status) {
    case scenario::EvaluationStatus::Ok:
        return kExitOk;
    case scenario::EvaluationStatus::Malformed:
        if (const model::Diagnostic *cause = result.cause())
            printDiagnostic(*cause, inputFile);
        else
            std::cerr << "error: " << inputFile << ": " << result.statusText << '\n';
        return kExitMalformed;
    case scenario::EvaluationStatus::Infeasible:
    case scenario::EvaluationStatus::OverCapacity:
        break;
    }
    if (result.diagnostics.empty())
        std::cerr << "error: the model rejected the configuration without a diagnostic\n";
    for (const model::Diagnostic &diagnostic : result.diagnostics)
        printDiagnostic(diagnostic, inputFile);
    return kExitInfeasible;
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
        return reportStatus(result, executionPath);
    const StatsFormat format
        = in.format == io::ExecutionFormat::CalculonMoe ? StatsFormat::CalculonMoe : StatsFormat::Calculon;
    std::cout << evaluationToJson(result.evaluation, format, withLayers).dump(2) << '\n' << std::flush;
    return kExitOk;
}

} // namespace gapstudio::cli
