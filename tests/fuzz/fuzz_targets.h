#pragma once
// The readers fuzz_readers drives (fuzz_targets.cpp): each a name, seed inputs from the
// repository and a function that reads an input as the CLI or the studio would and throws
// Finding for anything outside the contract. Adding a reader is one line in targets().

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace gapstudio::fuzz {

/// A finding: what was wrong.
struct Finding {
    std::string what;
};

/// How the cases ended, to see that the mutations reach the model: rejected by a reader (exit 2),
/// evaluated and infeasible or malformed (exit 1 or 2), evaluated ok (exit 0).
struct Tally {
    std::uint64_t rejected = 0, failed = 0, ok = 0;
};
/// The tally of this run.
Tally &tally();

/// One input: one or more files (the reference's three), as bytes.
using Parts = std::vector<std::string>;

struct Target {
    std::string name;
    std::vector<Parts> seeds;
    std::function<void(const Parts &)> run; ///< throws Finding
    int weight = 1;                         ///< share of the cases
};

/// A whole file's bytes.
[[nodiscard]] std::string readFile(const std::filesystem::path &path);

/// Every reader, with its seeds (needs a QApplication: some seeds are chart exports).
[[nodiscard]] std::vector<Target> targets();

} // namespace gapstudio::fuzz
