#pragma once
// `gapstudio-cli grid`: a hardware grid, the Cartesian product of override values over one
// scenario, one JSON line per point. Shared by gapstudio-cli and the MPI runner
// (gapstudio-grid-mpi), so that both print the same lines for the same points.

#include "gapstudio/scenario/best_layout.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace gapstudio::cli {

/// One varied override key and its values, in the order given.
struct GridAxis {
    std::string key;
    bool integer = false; ///< whole numbers (printed without a fraction)
    std::vector<double> values;
};

/// `grid SCENARIO --vary KEY=v1,v2,... [--vary ...] [--best-layout]
/// [--shard K/N] [--threads N] [--reference-quirks] [--presets DIR]`.
struct GridCommand {
    std::string scenarioPath, presetsDir;
    std::vector<GridAxis> axes; ///< the first varies slowest
    bool bestLayout = false;
    bool referenceQuirks = false;
    std::uint64_t shard = 1, shards = 1; ///< this run is part `shard` of `shards` (1-based)
    unsigned threads = 0;                ///< 0 = all hardware threads
};

/// The most points one grid may have.
inline constexpr std::uint64_t kMaxGridPoints = 100'000'000;

/// Parses the arguments after `grid` (UsageError on bad ones: unknown key, value out of the key's
/// range, empty list, bad shard, a grid over kMaxGridPoints points).
[[nodiscard]] GridCommand parseGridCommand(const std::vector<std::string> &args);

/// Points in the whole grid (the product of the axes' sizes).
[[nodiscard]] std::uint64_t gridPoints(const GridCommand &command) noexcept;

/// The points [first, last) of part `shard` of `shards`: consecutive slices whose concatenation,
/// in part order, is the whole grid.
[[nodiscard]] std::pair<std::uint64_t, std::uint64_t> shardRange(std::uint64_t points, std::uint64_t shard,
                                                                 std::uint64_t shards) noexcept;

/// Evaluates grid points (thread-safe: each call is independent).
class GridEvaluator {
public:
    /// Loads the scenario and the presets (throws io::InputError / std::runtime_error).
    explicit GridEvaluator(const GridCommand &command);

    /// Point `index` as one JSON object without a line break: {"point", "overrides",
    /// "status", "message", "layout", "results"}; `searchThreads` for --best-layout.
    [[nodiscard]] std::string line(std::uint64_t index, unsigned searchThreads) const;

private:
    GridCommand mCommand;
    scenario::Scenario mScenario;
    scenario::PresetLibrary mLibrary;
};

/// Runs produce(0 .. count-1) on `workers` threads and hands each result to emit(i, text) in
/// order of i, as soon as it and every earlier one are done (not when all are), so that output
/// flows while later items are still being computed. emit runs on one thread at a time.
void forEachInOrder(std::size_t count, unsigned workers,
                    const std::function<std::string(std::size_t)> &produce,
                    const std::function<void(std::size_t, const std::string &)> &emit);

/// Evaluates `indices` on `threads` threads (points in parallel, each search with the threads
/// left over) and hands their lines to `emit` in the same order as they finish (forEachInOrder).
void streamPoints(const GridEvaluator &evaluator, const std::vector<std::uint64_t> &indices, unsigned threads,
                  const std::function<void(const std::string &)> &emit);

/// streamPoints, with the lines returned in order.
[[nodiscard]] std::vector<std::string>
evaluatePoints(const GridEvaluator &evaluator, const std::vector<std::uint64_t> &indices, unsigned threads);

/// `gapstudio-cli grid ...`: the lines of this shard on stdout, a summary line on stderr.
[[nodiscard]] int runGrid(const std::vector<std::string> &args);

} // namespace gapstudio::cli
