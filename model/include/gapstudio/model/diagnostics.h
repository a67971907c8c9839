#pragma once
/**
 * @file diagnostics.h
 * What the model says about a configuration it cannot evaluate: data, never an exception.
 */

#include <string>
#include <vector>

namespace gapstudio::model {

/// Why a configuration is rejected. `Malformed*` codes are violations of the input rules (the
/// reference asserts); the others are infeasible layouts (the reference raises `Llm.Error`).
enum class DiagnosticCode {
    MalformedExecution,    ///< e.g. tp*pp*dp != num_procs, TP not dividing the heads
    MissingDatatype,       ///< the system has no matrix/vector entry for the datatype
    NetworkTooSmall,       ///< "Network tierN isn't big enough"
    NetworkNotFilled,      ///< "Network tierN isn't fully used"
    BadInterleaving,       ///< interleaving larger than / not dividing the blocks per processor
    OffloadTooFewBlocks,   ///< offloading with fewer than 3 blocks per processor
    Tier1CapacityExceeded, ///< "Mem tier1 needs X GiB but only has Y GiB"
    Tier2CapacityExceeded,
    InvalidScenario, ///< a scenario that cannot be compiled (missing preset, bad override, ...)
    OutOfRange,      ///< a number outside model/limits.h, or sizes beyond limits::kMaxCount
    NonFiniteResult, ///< the evaluation produced a NaN, infinite or negative result
};

struct Diagnostic {
    DiagnosticCode code;
    std::string field;   ///< the execution key at fault (JSON key name), or empty
    std::string message; ///< human text with numbers, e.g. "Mem tier1 needs 443.306 GiB but only has 80.000 GiB"

    [[nodiscard]] bool isMalformedInput() const noexcept
    {
        return code == DiagnosticCode::MalformedExecution || code == DiagnosticCode::MissingDatatype
               || code == DiagnosticCode::InvalidScenario || code == DiagnosticCode::OutOfRange
               || code == DiagnosticCode::NonFiniteResult;
    }
};

using Diagnostics = std::vector<Diagnostic>;

} // namespace gapstudio::model
