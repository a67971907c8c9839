// gapstudio-grid-mpi: `gapstudio-cli grid` split over the ranks of an MPI job (Open MPI).
//   mpirun -np N gapstudio-grid-mpi SCENARIO --vary KEY=v1,v2,... [grid options]
// Rank r evaluates points r, r + N, r + 2N, ... of each round of N * kPerRank points; rank 0
// gathers every round and prints its lines in point order, so the output is byte for byte the
// output of `gapstudio-cli grid` with the same arguments. Each rank uses the cores of its node
// shared by the ranks there (unless --threads says otherwise).
#include "commands.h"
#include "grid.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace gapstudio::cli;

constexpr std::uint64_t kPerRank = 16; ///< points per rank and round

/// Ranks on this rank's node.
int ranksOnNode()
{
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int size = 1;
    MPI_Comm_size(node, &size);
    MPI_Comm_free(&node);
    return size;
}

/// Rank 0 receives every rank's lines of one round (each line ends in '\n') and prints them in
/// point order: the i-th line of rank r is point base + i * size + r.
void gatherAndPrint(const std::string &mine, int rank, int size)
{
    const int length = static_cast<int>(mine.size());
    std::vector<int> lengths(rank == 0 ? static_cast<std::size_t>(size) : 0);
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(lengths.size());
    std::vector<char> all;
    if (rank == 0) {
        int total = 0;
        for (std::size_t r = 0; r < lengths.size(); ++r) {
            offsets[r] = total;
            total += lengths[r];
        }
        all.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
    if (rank != 0)
        return;
    std::vector<std::size_t> cursor(offsets.begin(), offsets.end());
    for (bool printed = true; printed;) {
        printed = false;
        for (std::size_t r = 0; r < lengths.size(); ++r) {
            const std::size_t end = static_cast<std::size_t>(offsets[r] + lengths[r]);
            if (cursor[r] >= end)
                continue;
            const std::size_t eol = std::find(all.begin() + static_cast<std::ptrdiff_t>(cursor[r]),
                                              all.begin() + static_cast<std::ptrdiff_t>(end), '\n')
                                    - all.begin();
            std::cout.write(all.data() + cursor[r], static_cast<std::streamsize>(eol + 1 - cursor[r]));
            cursor[r] = eol + 1;
            printed = true;
        }
    }
    std::cout << std::flush;
}

int run(int argc, char **argv, int rank, int size)
{
    // 1. Every rank parses and loads; any failure stops all of them (rank 0 says why).
    std::unique_ptr<GridCommand> command;
    std::unique_ptr<GridEvaluator> evaluator;
    std::string error;
    int code = kExitOk;
    try {
        command = std::make_unique<GridCommand>(
            parseGridCommand(std::vector<std::string>(argv + 1, argv + argc)));
        evaluator = std::make_unique<GridEvaluator>(*command);
    } catch (const UsageError &e) {
        error = e.message
                + "\nusage: mpirun -np N gapstudio-grid-mpi SCENARIO --vary KEY=v1,v2,... "
                  "[--vary ...] [--best-layout] [--shard K/N] [--threads N] "
                  "[--reference-quirks] [--presets DIR]";
        code = kExitMalformed;
    } catch (const std::exception &e) {
        error = e.what();
        code = kExitMalformed;
    }
    int worst = code;
    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int rootCode = code;
    MPI_Bcast(&rootCode, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (worst != kExitOk) {
        if (code != kExitOk && (rank == 0 || rootCode == kExitOk)) // the same error once
            std::cerr << "error: " << (rank == 0 ? "" : "rank " + std::to_string(rank) + ": ") << error
                      << '\n';
        return worst;
    }

    // 2. Rounds of size * kPerRank points, interleaved over the ranks.
    const unsigned threads
        = command->threads
              ? command->threads
              : std::max(1u, std::thread::hardware_concurrency() / static_cast<unsigned>(ranksOnNode()));
    const auto [first, last] = shardRange(gridPoints(*command), command->shard, command->shards);
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t ranks = static_cast<std::uint64_t>(size);
    for (std::uint64_t base = first; base < last; base += ranks * kPerRank) {
        std::vector<std::uint64_t> indices;
        for (std::uint64_t i = base + static_cast<std::uint64_t>(rank);
             i < std::min(last, base + ranks * kPerRank); i += ranks)
            indices.push_back(i);
        std::string mine;
        for (const std::string &line : evaluatePoints(*evaluator, indices, threads))
            mine += line + '\n';
        gatherAndPrint(mine, rank, size);
    }
    if (rank == 0) {
        const double seconds
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(
            stderr, "points: %llu, first: %llu, last: %llu, seconds: %.3f, ranks: %d, threads_per_rank: %u\n",
            static_cast<unsigned long long>(last - first), static_cast<unsigned long long>(first),
            static_cast<unsigned long long>(last), seconds, size, threads);
    }
    return kExitOk;
}

} // namespace

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided); // MPI calls on the main thread only
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int code = kExitMalformed;
    try {
        code = run(argc, argv, rank, size);
    } catch (const std::exception &e) { // an evaluation never throws; a failed allocation might
        std::cerr << "error: rank " << rank << ": " << e.what() << '\n';
        MPI_Abort(MPI_COMM_WORLD, kExitMalformed);
    }
    MPI_Finalize();
    return code;
}
