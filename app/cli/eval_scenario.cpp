// `gapstudio-cli eval SCENARIO.gapstudio.json`: a native design, compiled from presets.
#include "commands.h"
#include "json_output.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/evaluate.h"

#include <filesystem>
#include <iostream>

namespace gapstudio::cli {

std::string defaultPresetsDirectory()
{
    // Installed: <prefix>/bin/gapstudio-cli next to <prefix>/share/gapstudio/presets.
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path installed = exe.parent_path() / ".." / "share" / "gapstudio" / "presets";
        if (std::filesystem::is_directory(installed, ec))
            return installed.lexically_normal().string();
    }
    return GAPSTUDIO_SOURCE_PRESETS_DIR; // a developer build: the source tree's presets/
}

int runEvalScenario(const std::string &scenarioPath, bool referenceQuirks, const std::string &presetsDir,
                    bool withLayers)
{
    const scenario::PresetLibrary library
        = io::loadPresetLibrary(presetsDir.empty() ? defaultPresetsDirectory() : presetsDir);
    const scenario::Scenario scenario = io::loadScenario(scenarioPath);
    const scenario::CompiledScenario compiled = io::compileScenarioFile(scenario, library, scenarioPath);
    const bool moe = compiled.resolved.llm.isMoe();
    model::EvaluateOptions options;
    options.withLayers = withLayers;
    options.quirks = scenario::scenarioQuirks(referenceQuirks, moe);
    const model::Evaluation evaluation
        = model::evaluate(compiled.application, compiled.execution, compiled.system, options);
    if (!evaluation.ok)
        return reportScenarioDiagnostics(evaluation.diagnostics, scenario, scenarioPath);
    const StatsFormat format = moe ? StatsFormat::CalculonMoe : StatsFormat::Calculon;
    std::cout << evaluationToJson(evaluation, format, withLayers).dump(2) << '\n' << std::flush;
    return kExitOk;
}

} // namespace gapstudio::cli
