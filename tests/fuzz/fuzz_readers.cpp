// A deterministic mutation fuzzer over every reader of GapStudio, in one process:
// seeded from the repository's own files, it mutates inputs in memory (bytes, and JSON values
// and structure), feeds them to the readers and evaluates whatever they accept, exactly as the
// CLI and the studio do. A finding is any exception that is not the reader's own InputError (the
// CLI would exit 2 with an unclear message), an evaluation that is "ok" with a non-finite or
// negative statistic (exit 0 with garbage), a failed evaluation without a diagnostic, or a case
// that runs longer than the hang limit. Crashes and sanitizer reports end the process (CI runs it
// in the asan-ubsan build). Same seed, same cases, same result.
//
//   fuzz_readers [--cases N] [--seed S] [--target NAME] [--findings DIR] [--replay FILE...]
//
// Adding a reader is one line in targets() of fuzz_targets.cpp (e.g. a measurement file: a glob of
// seed files and `readerOnly(parseMeasurement)`, or a function that also evaluates what it read).
#include "fuzz_mutate.h"
#include "fuzz_targets.h"

#include <QApplication>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

using namespace gapstudio;
using fuzz::Finding;
using fuzz::Parts;
using fuzz::Target;
namespace fs = std::filesystem;

namespace {

// ---- The driver ---------------------------------------------------------------------------------

/// Aborts the process if one case runs longer than the limit (a hang is a finding).
class Watchdog {
public:
    explicit Watchdog(double limit_s)
        : mLimit(limit_s)
        , mThread([this] { watch(); })
    {
    }
    ~Watchdog()
    {
        mStop = true;
        mThread.join();
    }
    void start(const std::string &label)
    {
        std::lock_guard lock(mMutex);
        mLabel = label;
        mStart = std::chrono::steady_clock::now();
        mRunning = true;
    }
    void stop() { mRunning = false; }

private:
    void watch()
    {
        while (!mStop) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            std::lock_guard lock(mMutex);
            const double elapsed
                = std::chrono::duration<double>(std::chrono::steady_clock::now() - mStart).count();
            if (mRunning && elapsed > mLimit) {
                std::fprintf(stderr, "FINDING (hang): %s ran %.1f s\n", mLabel.c_str(), elapsed);
                std::fflush(stderr);
                std::_Exit(3);
            }
        }
    }
    double mLimit;
    std::atomic<bool> mStop { false };
    std::atomic<bool> mRunning { false };
    std::mutex mMutex;
    std::string mLabel;
    std::chrono::steady_clock::time_point mStart;
    std::thread mThread;
};

void saveFinding(const std::string &folder, const std::string &name, const Parts &parts)
{
    fs::create_directories(folder);
    for (std::size_t i = 0; i < parts.size(); ++i)
        std::ofstream(fs::path(folder) / (name + "." + std::to_string(i)), std::ios::binary) << parts[i];
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv); // the provenance seeds are real chart exports
    std::uint64_t cases = 6000, seed = 14;
    std::string only, findingsDir = "fuzz-findings";
    double hangLimit = 20;
    std::vector<std::string> replay;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--cases")
            cases = std::stoull(value());
        else if (a == "--seed")
            seed = std::stoull(value());
        else if (a == "--target")
            only = value();
        else if (a == "--findings")
            findingsDir = value();
        else if (a == "--hang-seconds")
            hangLimit = std::stod(value());
        else if (a == "--replay")
            replay.push_back(value());
        else {
            std::fprintf(stderr,
                         "usage: fuzz_readers [--cases N] [--seed S] [--target NAME] [--findings DIR] "
                         "[--hang-seconds S] [--replay FILE --target NAME]\n");
            return 2;
        }
    }
    std::vector<Target> all = fuzz::targets();
    if (!only.empty())
        std::erase_if(all, [&](const Target &t) { return t.name != only; });
    if (all.empty()) {
        std::fprintf(stderr, "no target %s\n", only.c_str());
        return 2;
    }
    if (!replay.empty()) { // a saved finding: its parts in order
        Parts parts;
        for (const std::string &file : replay)
            parts.push_back(fuzz::readFile(file));
        try {
            all.front().run(parts);
        } catch (const Finding &f) {
            std::fprintf(stderr, "FINDING: %s\n", f.what.c_str());
            return 1;
        }
        std::printf("no finding\n");
        return 0;
    }

    int totalWeight = 0;
    for (const Target &t : all)
        totalWeight += t.weight;
    Watchdog watchdog(hangLimit);
    fuzz::Random random(seed);
    std::uint64_t findings = 0;
    std::map<std::string, std::uint64_t> perTarget;
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t n = 0; n < cases; ++n) {
        // Targets in proportion to their weights, in a fixed rotation.
        int slot = static_cast<int>(n % static_cast<std::uint64_t>(totalWeight));
        const Target *target = &all.front();
        for (const Target &t : all) {
            if (slot < t.weight) {
                target = &t;
                break;
            }
            slot -= t.weight;
        }
        Parts parts = target->seeds[random.below(target->seeds.size())];
        fuzz::mutate(parts[random.below(parts.size())], random);
        const std::string label = target->name + " case " + std::to_string(n);
        watchdog.start(label);
        try {
            target->run(parts);
        } catch (const Finding &f) {
            ++findings;
            std::fprintf(stderr, "FINDING: %s: %s\n", label.c_str(), f.what.c_str());
            saveFinding(findingsDir, target->name + "-" + std::to_string(n), parts);
        } catch (const std::exception &e) {
            ++findings;
            std::fprintf(stderr, "FINDING: %s: exception outside the contract: %s\n", label.c_str(),
                         e.what());
            saveFinding(findingsDir, target->name + "-" + std::to_string(n), parts);
        }
        watchdog.stop();
        ++perTarget[target->name];
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string split;
    for (const auto &[name, count] : perTarget)
        split += (split.empty() ? "" : ", ") + name + " " + std::to_string(count);
    std::printf("fuzz_readers: %llu cases (%s), seed %llu, %.1f s; rejected by a reader %llu, evaluated "
                "%llu (ok %llu, infeasible or malformed %llu); findings: %llu\n",
                static_cast<unsigned long long>(cases), split.c_str(), static_cast<unsigned long long>(seed),
                seconds, static_cast<unsigned long long>(fuzz::tally().rejected),
                static_cast<unsigned long long>(fuzz::tally().ok + fuzz::tally().failed),
                static_cast<unsigned long long>(fuzz::tally().ok),
                static_cast<unsigned long long>(fuzz::tally().failed),
                static_cast<unsigned long long>(findings));
    return findings == 0 ? 0 : 1;
}
