// The training run of the hot path's profile-guided optimisation (model/pgo/CMakeLists.txt): the
// hot-path sources, compiled with -fprofile-generate into this program, evaluate reference cases
// under the references' semantics and shipped designs under the corrected model, each as a layout
// search does; GCC then compiles the library's hot path with the branch and call counts this run
// records (-fprofile-use). A fixed number of evaluations on one thread: the same sources give the
// same profile, so a build is reproducible. The profile changes how the code is laid out, inlined
// and unrolled, never a result (no -ffast-math: IEEE semantics either way).
#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/evaluate.h"
#include "gapstudio/scenario/scenario.h"

#include <cstdio>
#include <exception>
#include <string>

namespace {

using namespace gapstudio;

/// Evaluations of each case: enough for every branch of the walk to count, a fraction of a
/// second instrumented.
constexpr int kEvaluations = 4000;

/// Evaluates one design kEvaluations times as `bench` times it (repeatedEvaluationOptions);
/// false (and a message) if it is not a feasible layout, which would train the diagnostics' path
/// instead of the model's.
bool train(const model::Application &app, const model::Execution &exe, const model::System &sys,
           const model::EvaluateOptions &options, const std::string &name)
{
    const model::Evaluation first = model::evaluate(app, exe, sys, options);
    if (!first.ok) {
        std::fprintf(stderr, "gapstudio-pgo-train: %s is not a feasible layout: %s\n", name.c_str(),
                     first.diagnostics.empty() ? "?" : first.diagnostics.front().message.c_str());
        return false;
    }
    const model::EvaluateOptions repeated = model::repeatedEvaluationOptions(options);
    double sink = 0;
    for (int i = 0; i < kEvaluations; ++i)
        sink += model::evaluate(app, exe, sys, repeated).stats.total_time;
    return sink > 0;
}

/// A reference case's directory (model.json, execution.json, system.json), under its reference.
bool trainReference(const std::string &dir)
{
    const io::CalculonInputs inputs
        = io::loadCalculonInputs(dir + "/model.json", dir + "/execution.json", dir + "/system.json");
    model::EvaluateOptions options;
    options.quirks = inputs.referenceQuirks();
    return train(inputs.application, inputs.execution, inputs.system, options, dir);
}

/// A shipped design (a .gapstudio.json scenario on `presets`), under the model it asks for.
bool trainScenario(const std::string &path, const scenario::PresetLibrary &presets)
{
    const scenario::Scenario design = io::loadScenario(path);
    const scenario::CompiledScenario compiled = io::compileScenarioFile(design, presets, path);
    return train(compiled.application, compiled.execution, compiled.system, compiled.evaluateOptions(), path);
}

} // namespace

/// gapstudio-pgo-train PRESETS_DIR CASE...: a CASE is a reference case's directory or a
/// scenario file (*.gapstudio.json) on the presets of PRESETS_DIR.
int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: gapstudio-pgo-train PRESETS_DIR CASE...\n");
        return 2;
    }
    try {
        const scenario::PresetLibrary presets = io::loadPresetLibrary(argv[1]);
        for (int i = 2; i < argc; ++i) {
            const std::string item = argv[i];
            const bool scenarioFile = item.ends_with(".gapstudio.json");
            if (!(scenarioFile ? trainScenario(item, presets) : trainReference(item)))
                return 1;
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "gapstudio-pgo-train: %s\n", e.what());
        return 1;
    }
    return 0;
}
