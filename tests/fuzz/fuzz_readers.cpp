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
#include <optional>
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

/// The command line (see usage()).
struct Options {
    std::uint64_t cases = 6000, seed = 14;
    std::string only, findingsDir = "fuzz-findings";
    double hangLimit = 20;
    std::vector<std::string> replay;
};

/// The options of the command line; nullopt (after the usage line) for an unknown argument.
std::optional<Options> parseOptions(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--cases")
            o.cases = std::stoull(value());
        else if (a == "--seed")
            o.seed = std::stoull(value());
        else if (a == "--target")
            o.only = value();
        else if (a == "--findings")
            o.findingsDir = value();
        else if (a == "--hang-seconds")
            o.hangLimit = std::stod(value());
        else if (a == "--replay")
            o.replay.push_back(value());
        else {
            std::fprintf(stderr,
                         "usage: fuzz_readers [--cases N] [--seed S] [--target NAME] [--findings DIR] "
                         "[--hang-seconds S] [--replay FILE --target NAME]\n");
            return std::nullopt;
        }
    }
    return o;
}

/// Runs `target` on a saved finding (its parts in order): 1 if it is still a finding, else 0.
int replayFinding(const Target &target, const std::vector<std::string> &files)
{
    Parts parts;
    for (const std::string &file : files)
        parts.push_back(fuzz::readFile(file));
    try {
        target.run(parts);
    } catch (const Finding &f) {
        std::fprintf(stderr, "FINDING: %s\n", f.what.c_str());
        return 1;
    }
    std::printf("no finding\n");
    return 0;
}

/// The target of case `n`: targets in proportion to their weights, in a fixed rotation.
const Target &targetOfCase(const std::vector<Target> &all, std::uint64_t n)
{
    int totalWeight = 0;
    for (const Target &t : all)
        totalWeight += t.weight;
    int slot = static_cast<int>(n % static_cast<std::uint64_t>(totalWeight));
    for (const Target &t : all) {
        if (slot < t.weight)
            return t;
        slot -= t.weight;
    }
    return all.front();
}

/// Runs one mutated case of `target`; true if it is a finding (reported and saved).
bool runCase(const Target &target, std::uint64_t n, fuzz::Random &random, Watchdog &watchdog,
             const std::string &findingsDir)
{
    Parts parts = target.seeds[random.below(target.seeds.size())];
    fuzz::mutate(parts[random.below(parts.size())], random);
    const std::string label = target.name + " case " + std::to_string(n);
    bool finding = true;
    watchdog.start(label);
    try {
        target.run(parts);
        finding = false;
    } catch (const Finding &f) {
        std::fprintf(stderr, "FINDING: %s: %s\n", label.c_str(), f.what.c_str());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "FINDING: %s: exception outside the contract: %s\n", label.c_str(), e.what());
    }
    watchdog.stop();
    if (finding)
        saveFinding(findingsDir, target.name + "-" + std::to_string(n), parts);
    return finding;
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv); // the provenance seeds are real chart exports
    const std::optional<Options> options = parseOptions(argc, argv);
    if (!options)
        return 2;
    const Options &o = *options;
    std::vector<Target> all = fuzz::targets();
    if (!o.only.empty())
        std::erase_if(all, [&](const Target &t) { return t.name != o.only; });
    if (all.empty()) {
        std::fprintf(stderr, "no target %s\n", o.only.c_str());
        return 2;
    }
    if (!o.replay.empty())
        return replayFinding(all.front(), o.replay);

    Watchdog watchdog(o.hangLimit);
    fuzz::Random random(o.seed);
    std::uint64_t findings = 0;
    std::map<std::string, std::uint64_t> perTarget;
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t n = 0; n < o.cases; ++n) {
        const Target &target = targetOfCase(all, n);
        if (runCase(target, n, random, watchdog, o.findingsDir))
            ++findings;
        ++perTarget[target.name];
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string split;
    for (const auto &[name, count] : perTarget)
        split += (split.empty() ? "" : ", ") + name + " " + std::to_string(count);
    std::printf(
        "fuzz_readers: %llu cases (%s), seed %llu, %.1f s; rejected by a reader %llu, evaluated "
        "%llu (ok %llu, infeasible or malformed %llu); findings: %llu\n",
        static_cast<unsigned long long>(o.cases), split.c_str(), static_cast<unsigned long long>(o.seed),
        seconds, static_cast<unsigned long long>(fuzz::tally().rejected),
        static_cast<unsigned long long>(fuzz::tally().ok + fuzz::tally().failed),
        static_cast<unsigned long long>(fuzz::tally().ok),
        static_cast<unsigned long long>(fuzz::tally().failed), static_cast<unsigned long long>(findings));
    return findings == 0 ? 0 : 1;
}
