#pragma once
// Designs of the explore tests, read from the reference cases in tests/data/calculon/cases/.

#include "calculon_cases.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/model/sweep.h"

namespace gapstudio::test {

inline model::Application applicationOf(const char *caseName)
{
    const std::string path = caseFile(QLatin1String(caseName), "model.json");
    return io::parseApplication(readJson(path), path);
}

inline model::System systemOf(const char *caseName)
{
    const std::string path = caseFile(QLatin1String(caseName), "system.json");
    return io::parseSystem(readJson(path), path);
}

/// turing-530B on the H100 FP8 system of case 18, 5128 GPUs, batch 2520, float8: a small
/// search space (about 9k layouts with -m). The execution only carries the search inputs.
inline model::Design smallSearchDesign()
{
    model::Design d;
    d.application = applicationOf("05_val_turing-530B_full");
    d.system = systemOf("18_gpt3-175B_4096_h100_fp8");
    d.execution.numProcs = 5128;
    d.execution.batchSize = 2520;
    d.execution.datatype = model::Datatype::Float8;
    return d;
}

/// gpt3-175B with its own execution on 4096 H100s (case 18): without -m its search has millions
/// of layouts, long enough to cancel.
inline model::Design largeSearchDesign()
{
    const QString name = QStringLiteral("18_gpt3-175B_4096_h100_fp8");
    const io::CalculonInputs in = io::loadCalculonInputs(
        caseFile(name, "model.json"), caseFile(name, "execution.json"), caseFile(name, "system.json"));
    return { in.application, in.execution, in.system };
}

} // namespace gapstudio::test
