#pragma once
/**
 * @file runs_csv.h
 * Measured runs as a CSV table ("Calibrate to my runs" in the studio): one run per line, a
 * scenario plus the layout it ran with and its measured iteration time. Each row becomes an
 * io::Measurement, exactly as if it had been written as a gapstudio.measurement file.
 *
 * Format (UTF-8; README "Calibrate to my runs" documents it for users):
 *  - Blank lines and lines whose first non-blank character is `#` are skipped.
 *  - The first other line is the header: column names, in any order, each at most once.
 *    Required: `scenario`, `measured_iteration_time_s`. Optional: `id`, `name`, `family`,
 *    `notes`, and overrides of the scenario: `gpu_count`, `tensor_par`, `pipeline_par`,
 *    `data_par`, `microbatch_size`, `batch_size` (short for `layout.<name>`) or any key a
 *    scenario's "overrides" accepts (scenario::overrideKeys(), e.g. `gpu.hbm_bandwidth_GBps`).
 *  - Fields are separated by commas; a field may be quoted ("a, b"; "" is a quote inside quotes).
 *  - `scenario`: `current` (the design open in the studio) or a scenario file
 *    (`*.gapstudio.json`), relative to the CSV file's folder.
 *  - An empty override cell keeps the scenario's value; a value must be a number the override
 *    accepts (whole numbers for degrees and sizes). GapStudio derives no degree from another:
 *    give every one that differs from the scenario's.
 *  - `measured_iteration_time_s`: seconds per training iteration (> 0).
 *  - Defaults: id `<file stem>-line<N>`, name = id, family = the file stem, notes empty.
 * Errors are io::CsvError: "<file>: line L, column C (<name>): <what was expected>".
 */

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/measurement_json.h"

#include <string>
#include <string_view>
#include <vector>

namespace gapstudio::io {

/// A malformed CSV of runs, at one line and column (both 1-based; column 0: the whole line).
class CsvError : public InputError {
public:
    CsvError(const std::string &file, int line, int column, const std::string &columnName,
             const std::string &message);
    [[nodiscard]] int line() const noexcept { return mLine; }
    [[nodiscard]] int column() const noexcept { return mColumn; }

private:
    int mLine;
    int mColumn;
};

/// The keyword of the `scenario` column for the design open in the studio.
inline constexpr const char *kCurrentDesign = "current";

/// Parses the CSV `text` read from `file` (which names it in errors and anchors relative
/// scenario paths). `current` is the design `current` stands for (nullptr: the keyword is an
/// error). Throws CsvError.
[[nodiscard]] std::vector<Measurement> parseRunsCsv(std::string_view text, const std::string &file,
                                                    const scenario::Scenario *current = nullptr);

/// Reads `path` and parseRunsCsv()s it; an unreadable file is an InputError.
[[nodiscard]] std::vector<Measurement> loadRunsCsv(const std::string &path,
                                                   const scenario::Scenario *current = nullptr);

} // namespace gapstudio::io
