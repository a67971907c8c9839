#pragma once
/**
 * @file locate.h
 * Diagnostics of a scenario, told in the scenario file's terms. The model names its own inputs
 * ("tensor_par", "seq_size", "mem1/bandwidth", "networks/1/latency"); a scenario file has other
 * keys ("/layout/tensor_par", "/overrides/llm.seq_size", "/gpu/hbm/bandwidth_GBps",
 * "/scale_out"). The CLI and the GUI's headless runs both report through here, so that they
 * name the same place and return the same exit status for the same scenario.
 */

#include "gapstudio/scenario/scenario.h"

#include <string>

namespace gapstudio::scenario {

/// The JSON pointer in `scenario`'s file of what a diagnostic's `field` names: an override if
/// the scenario sets one for it, else the inline block's key, else the block (a preset id).
/// Compile diagnostics (InvalidScenario) already carry a scenario path and keep it.
[[nodiscard]] std::string scenarioPointer(const Scenario &scenario, const model::Diagnostic &diagnostic);

/// Whether the diagnostics of a scenario make it malformed input (exit status 2: it does not
/// compile, or holds numbers outside model/limits.h) rather than an infeasible design (exit
/// status 1: the layout does not fit the LLM, the network or the memory).
[[nodiscard]] bool isMalformedScenario(const model::Diagnostics &diagnostics);

/// "FILE: POINTER: message" for a diagnostic that points somewhere in the file, else the message
/// alone (e.g. "Mem tier1 needs 105.712 GiB but only has 80.000 GiB"). `at` is where the
/// scenario sits in the file ("/scenario" in a measurement file), put before the pointer.
[[nodiscard]] std::string scenarioDiagnosticText(const std::string &file, const Scenario &scenario,
                                                 const model::Diagnostic &diagnostic,
                                                 const std::string &at = {});

} // namespace gapstudio::scenario
