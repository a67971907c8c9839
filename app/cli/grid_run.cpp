// `gapstudio-cli grid` in one process: the points of one shard on all cores, printed in order.
#include "grid.h"

#include "commands.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

namespace gapstudio::cli {

void forEachInOrder(std::size_t count, unsigned workers,
                    const std::function<std::string(std::size_t)> &produce,
                    const std::function<void(std::size_t, const std::string &)> &emit)
{
    workers = static_cast<unsigned>(std::clamp<std::size_t>(count, 1, std::max(1u, workers)));
    std::vector<std::optional<std::string>> done(count);
    std::mutex mutex;
    std::size_t cursor = 0; // the first item not emitted yet (under mutex)
    std::atomic<std::size_t> next { 0 };
    const auto work = [&] {
        for (std::size_t i = next++; i < count; i = next++) {
            std::string text = produce(i);
            const std::lock_guard lock(mutex);
            done[i] = std::move(text);
            for (; cursor < count && done[cursor]; ++cursor) {
                emit(cursor, *done[cursor]);
                done[cursor].reset(); // emitted: its memory goes
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned w = 1; w < workers; ++w)
        pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
        t.join();
}

void streamPoints(const GridEvaluator &evaluator, const std::vector<std::uint64_t> &indices, unsigned threads,
                  const std::function<void(const std::string &)> &emit)
{
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    const auto workers = static_cast<unsigned>(std::clamp<std::size_t>(indices.size(), 1, threads));
    const unsigned searchThreads = std::max(1u, threads / workers); // few points: parallel searches
    forEachInOrder(
        indices.size(), workers, [&](std::size_t i) { return evaluator.line(indices[i], searchThreads); },
        [&](std::size_t, const std::string &line) { emit(line); });
}

std::vector<std::string> evaluatePoints(const GridEvaluator &evaluator,
                                        const std::vector<std::uint64_t> &indices, unsigned threads)
{
    std::vector<std::string> lines;
    lines.reserve(indices.size());
    streamPoints(evaluator, indices, threads, [&](const std::string &line) { lines.push_back(line); });
    return lines;
}

int runGrid(const std::vector<std::string> &args)
{
    const GridCommand command = parseGridCommand(args);
    const GridEvaluator evaluator(command);
    const auto [first, last] = shardRange(gridPoints(command), command.shard, command.shards);
    const auto start = std::chrono::steady_clock::now();
    // Batches keep memory bounded; within a batch each line is printed as soon as it and every
    // earlier one are done, so a grid stopped half way keeps the points it finished, in order.
    constexpr std::uint64_t kBatch = 1024;
    for (std::uint64_t begin = first; begin < last; begin += kBatch) {
        std::vector<std::uint64_t> indices;
        for (std::uint64_t i = begin; i < std::min(last, begin + kBatch); ++i)
            indices.push_back(i);
        streamPoints(evaluator, indices, command.threads, [](const std::string &line) {
            std::cout << line << '\n' << std::flush;
        });
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "points: %llu, first: %llu, last: %llu, seconds: %.3f\n",
                 static_cast<unsigned long long>(last - first), static_cast<unsigned long long>(first),
                 static_cast<unsigned long long>(last), seconds);
    return kExitOk;
}

} // namespace gapstudio::cli
