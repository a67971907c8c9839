#pragma once
/**
 * @file layoutrules.h
 * The layout helpers of the studio: keep the GPU count filled when TP, PP, EP, ES or the GPU
 * count change (DP and expert DP follow), say which GPU counts a layout admits, and turn the
 * model's diagnostics into sentences that name the field the user can change.
 *
 * The rules are the model's own checks (model/src/engine/checks.cpp: TP x CP x PP x DP = GPUs;
 * calculon-MoE's EP x ES x PP x expert DP = GPUs; the global batch splits over DP into whole
 * microbatches), solved for DP and expert DP; the model still decides what is valid.
 */

#include "results/scenarioresults.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace gapstudio::views {

/// Sets DP = GPUs / (TP x CP x PP) and, for an MoE LLM, expert DP = GPUs / (EP x ES x PP), each
/// only when the division is whole. Returns true when both products then equal `gpuCount`.
bool balanceLayout(model::Execution &execution, std::int64_t gpuCount, bool moe);

/// The rule balanceLayout() applies, in words (shown under the layout's parallelism).
[[nodiscard]] QString balanceRule(bool moe);

/// Whether the layout, balanced for `gpuCount`, fills it and splits its global batch into whole
/// microbatches (the GPU-count slider offers only such counts).
[[nodiscard]] bool gpuCountFits(const model::Execution &execution, std::int64_t gpuCount, bool moe);

/// One problem of a design in words, with the layout field it belongs under ("data_par"), or an
/// empty field when no layout field can fix it.
struct LayoutProblem {
    std::string field;
    QString text;
};

/// The diagnostics of `results` in words, each under the field the user can change.
[[nodiscard]] std::vector<LayoutProblem> layoutProblems(const ScenarioResults &results);

/// One diagnostic in words; `execution` (the compiled layout, may be null) gives the numbers of
/// the GPU-count rules. `field` receives the layout field to show it under (may be null).
[[nodiscard]] QString diagnosticInWords(const model::Diagnostic &diagnostic,
                                        const model::Execution *execution, std::string *field = nullptr);

} // namespace gapstudio::views
