#pragma once
// Results of real reference cases for the chart tests: a dense GPT-3 case and a MoE case,
// evaluated and analysed as the studio does, and results that carry no stats.

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/model/analysis.h"
#include "gapstudio/model/evaluate.h"
#include "results/scenarioresults.h"

#include <QMetaType>
#include <QString>

#include <cmath>
#include <memory>
#include <string>

namespace gapstudio::test {

inline constexpr const char *kDenseCase = TEST_DATA_DIR "/calculon/cases/18_gpt3-175B_4096_h100_fp8";
inline constexpr const char *kMoeCase = TEST_DATA_DIR "/calculon-moe/cases/moe18_4096_fullflat_base";

inline io::CalculonInputs loadCase(const QString &dir)
{
    const std::string d = dir.toStdString();
    return io::loadCalculonInputs(d + "/model.json", d + "/execution.json", d + "/system.json");
}

/// Evaluates `in` with its reference semantics; analysis only when the evaluation has stats.
inline views::ResultsPtr evaluateInputs(const io::CalculonInputs &in)
{
    auto results = std::make_shared<views::ScenarioResults>();
    model::EvaluateOptions options;
    options.quirks = in.referenceQuirks();
    results->evaluation = model::evaluate(in.application, in.execution, in.system, options);
    results->diagnostics = results->evaluation.diagnostics;
    if (results->evaluation.ok)
        results->analysis = model::analyze(in.application, in.execution, in.system, results->evaluation);
    return results;
}

inline views::ResultsPtr caseResults(const QString &dir)
{
    return evaluateInputs(loadCase(dir));
}

/// The dense case made malformed (TP 3 does not divide the processors): no stats.
inline views::ResultsPtr resultsWithoutStats()
{
    io::CalculonInputs in = loadCase(QString::fromLatin1(kDenseCase));
    in.execution.tensorPar = 3;
    return evaluateInputs(in);
}

/// Relative comparison for plotted doubles.
inline bool fuzzy(double actual, double expected, double tolerance = 1e-12)
{
    return std::abs(actual - expected) <= tolerance * std::max({1.0, std::abs(actual), std::abs(expected)});
}

} // namespace gapstudio::test

Q_DECLARE_METATYPE(gapstudio::views::ResultsPtr)
