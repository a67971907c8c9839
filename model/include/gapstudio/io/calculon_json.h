#pragma once
/**
 * @file calculon_json.h
 * Strict readers for the reference model's three JSON inputs (Calculon's application, execution
 * and system files). Units are converted to SI here, once. Every violation is an InputError naming
 * the file, the JSON pointer and what was expected.
 */

#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/quirks.h"

#include <nlohmann/json_fwd.hpp>

#include <stdexcept>
#include <string>

namespace gapstudio::io {

/// Malformed input: unreadable file, bad JSON, or a schema violation.
class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::string jsonPointer, const std::string &message);
    [[nodiscard]] const std::string &file() const noexcept { return mFile; }
    [[nodiscard]] const std::string &jsonPointer() const noexcept { return mPointer; }

private:
    std::string mFile;
    std::string mPointer;
};

/// Reads and parses a JSON file. Throws InputError if unreadable or not JSON.
[[nodiscard]] nlohmann::json readJsonFile(const std::string &path);

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
[[nodiscard]] CalculonInputs loadCalculonInputs(const std::string &modelPath,
                                                const std::string &executionPath,
                                                const std::string &systemPath);

} // namespace gapstudio::io
