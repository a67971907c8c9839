#pragma once
/**
 * @file calculon_json.h
 * Strict readers for the reference model's three JSON inputs (Calculon's application, execution
 * and system files). Units are converted to SI here, once. Every violation is an InputError naming
 * the file, the JSON pointer and what was expected.
 */

#include "gapstudio/io/input_error.h"
#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/diagnostics.h"
#include "gapstudio/model/quirks.h"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <string>

namespace gapstudio::io {

/// Deepest nesting of arrays and objects a JSON input may have (GapStudio's own files need 6).
inline constexpr std::size_t kMaxJsonDepth = 64;

/// Reads and parses a JSON file: a regular file (no FIFO, device or directory) of at most
/// kMaxInputBytes (safe_file.h), nested at most kMaxJsonDepth deep, without duplicate keys.
/// Throws InputError if unreadable or not such JSON.
[[nodiscard]] nlohmann::json readJsonFile(const std::string &path);
/// Parses JSON text with the rules of readJsonFile; `origin` names it in errors.
[[nodiscard]] nlohmann::json parseJsonText(const std::string &text, const std::string &origin);

/// Which reference an execution file is written for, told apart by its keys: upstream Calculon
/// (caa4b11, 23 keys) or the authors' calculon-MoE (e3eb609, 32 keys plus an optional
/// `activation_function`). Each is evaluated with its own semantics and statistics.
enum class ExecutionFormat { Calculon, CalculonMoe };

[[nodiscard]] model::Application parseApplication(const nlohmann::json &json, const std::string &file);
[[nodiscard]] model::Execution parseExecution(const nlohmann::json &json, const std::string &file,
                                              ExecutionFormat *format = nullptr);
[[nodiscard]] model::System parseSystem(const nlohmann::json &json, const std::string &file);

/// The three files of a reference evaluation, read and parsed; throws InputError.
struct CalculonInputs {
    model::Application application;
    model::Execution execution;
    model::System system;
    ExecutionFormat format = ExecutionFormat::Calculon;

    /// The reference semantics of `format`: Quirks::calculon() or Quirks::calculonMoe().
    [[nodiscard]] model::Quirks referenceQuirks() const noexcept
    {
        return format == ExecutionFormat::CalculonMoe ? model::Quirks::calculonMoe() : model::Quirks::calculon();
    }
};
/// The error for a malformed-input diagnostic of a model evaluation of these three files, at the
/// file and JSON pointer that hold the value (e.g. seq_size in the model file, not the execution).
[[nodiscard]] InputError inputErrorFor(const model::Diagnostic &diagnostic, const std::string &modelPath,
                                       const std::string &executionPath, const std::string &systemPath);

/// loadCalculonInputs on JSON already read (the paths name the parts in errors).
[[nodiscard]] CalculonInputs parseCalculonInputs(const nlohmann::json &model, const nlohmann::json &execution,
                                                 const nlohmann::json &system, const std::string &modelPath,
                                                 const std::string &executionPath,
                                                 const std::string &systemPath);
[[nodiscard]] CalculonInputs loadCalculonInputs(const std::string &modelPath,
                                                const std::string &executionPath,
                                                const std::string &systemPath);

} // namespace gapstudio::io
