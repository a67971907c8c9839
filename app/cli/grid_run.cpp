// `gapstudio-cli grid` in one process: the points of one shard on all cores, printed in order.
#include "grid.h"

#include "commands.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

namespace gapstudio::cli {

std::vector<std::string> evaluatePoints(const GridEvaluator &evaluator,
                                        const std::vector<std::uint64_t> &indices, unsigned threads)
{
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    const auto workers = static_cast<unsigned>(std::clamp<std::size_t>(indices.size(), 1, threads));
    const unsigned searchThreads = std::max(1u, threads / workers); // few points: parallel searches
    std::vector<std::string> lines(indices.size());
    std::atomic<std::size_t> next { 0 };
    const auto work = [&] {
        for (std::size_t i = next++; i < indices.size(); i = next++)
            lines[i] = evaluator.line(indices[i], searchThreads);
    };
    std::vector<std::thread> pool;
    for (unsigned w = 1; w < workers; ++w)
        pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
        t.join();
    return lines;
}

int runGrid(const std::vector<std::string> &args)
{
    const GridCommand command = parseGridCommand(args);
    const GridEvaluator evaluator(command);
    const auto [first, last] = shardRange(gridPoints(command), command.shard, command.shards);
    const auto start = std::chrono::steady_clock::now();
    // Batches keep memory bounded and the output flowing; lines within a batch stay in order.
    constexpr std::uint64_t kBatch = 1024;
    for (std::uint64_t begin = first; begin < last; begin += kBatch) {
        std::vector<std::uint64_t> indices;
        for (std::uint64_t i = begin; i < std::min(last, begin + kBatch); ++i)
            indices.push_back(i);
        for (const std::string &line : evaluatePoints(evaluator, indices, command.threads))
            std::cout << line << '\n';
        std::cout << std::flush;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "points: %llu, first: %llu, last: %llu, seconds: %.3f\n",
                 static_cast<unsigned long long>(last - first), static_cast<unsigned long long>(first),
                 static_cast<unsigned long long>(last), seconds);
    return kExitOk;
}

} // namespace gapstudio::cli
