#include "commands.h"
#include "json_output.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/model/evaluate.h"

#include <iostream>

namespace gapstudio::cli {

int reportDiagnostics(const model::Diagnostics &diagnostics, const std::string &executionFile)
{
    for (const model::Diagnostic &diagnostic : diagnostics) {
        if (diagnostic.isMalformedInput()) {
            const io::InputError error(executionFile, "/" + diagnostic.field, diagnostic.message);
            std::cerr << "error: " << error.what() << '\n';
            return kExitMalformed;
        }
    }
    if (diagnostics.empty())
        std::cerr << "error: the model rejected the configuration without a diagnostic\n";
    for (const model::Diagnostic &diagnostic : diagnostics)
        std::cerr << "error: " << diagnostic.message << '\n';
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
    const model::Evaluation evaluation = model::evaluate(in.application, in.execution, in.system, options);
    if (!evaluation.ok)
        return reportDiagnostics(evaluation.diagnostics, executionPath);
    const StatsFormat format = in.format == io::ExecutionFormat::CalculonMoe ? StatsFormat::CalculonMoe
                                                                             : StatsFormat::Calculon;
    std::cout << evaluationToJson(evaluation, format, withLayers).dump(2) << '\n' << std::flush;
    return kExitOk;
}

} // namespace gapstudio::cli
