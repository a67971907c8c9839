// A deterministic mutation fuzzer over every reader of GapStudio (issue 14), in one process:
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
// Adding a reader is one line in targets() below (e.g. a measurement file: a glob of seed files
// and `readerOnly(parseMeasurement)` or a function that also evaluates what it read).
#include "fuzz_mutate.h"

#include "charts/chartexport.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "report/provenance.h"
#include "studio/recalculator.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/analysis.h"
#include "gapstudio/scenario/hf_import.h"
#include "gapstudio/scenario/locate.h"

#include <nlohmann/json.hpp>

#include <QApplication>
#include <QDir>
#include <QTemporaryDir>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <thread>

using namespace gapstudio;
namespace fs = std::filesystem;

namespace {

/// A finding: what was wrong.
struct Finding {
    std::string what;
};

/// How the cases ended, to see that the mutations reach the model: rejected by a reader (exit 2),
/// evaluated and infeasible or malformed (exit 1 or 2), evaluated ok (exit 0).
struct Tally {
    std::uint64_t rejected = 0, failed = 0, ok = 0;
};
Tally gTally;

/// One input: one or more files (the reference's three), as bytes.
using Parts = std::vector<std::string>;

struct Target {
    std::string name;
    std::vector<Parts> seeds;
    std::function<void(const Parts &)> run; ///< throws Finding
    int weight = 1;                         ///< share of the cases
};

std::string readFile(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<Parts> seedsFrom(const std::string &folder, const std::string &suffix)
{
    std::vector<fs::path> files;
    for (const auto &entry : fs::recursive_directory_iterator(folder))
        if (entry.is_regular_file() && entry.path().string().ends_with(suffix))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end()); // deterministic whatever the file system's order
    std::vector<Parts> seeds;
    for (const fs::path &file : files)
        seeds.push_back({ readFile(file) });
    return seeds;
}

/// The three files of each reference case under `folder` (model, execution, system).
std::vector<Parts> calculonSeeds(const std::string &folder)
{
    std::vector<fs::path> cases;
    for (const auto &entry : fs::directory_iterator(folder))
        if (entry.is_directory())
            cases.push_back(entry.path());
    std::sort(cases.begin(), cases.end());
    std::vector<Parts> seeds;
    for (const fs::path &c : cases)
        seeds.push_back(
            { readFile(c / "model.json"), readFile(c / "execution.json"), readFile(c / "system.json") });
    return seeds;
}

// ---- What every accepted input must satisfy -----------------------------------------------------

void checkEvaluation(const model::Evaluation &e, const model::Application &app, const model::Execution &exe,
                     const model::System &sys, const char *where)
{
    ++(e.ok ? gTally.ok : gTally.failed);
    if (!e.ok) {
        if (e.diagnostics.empty())
            throw Finding { std::string(where) + ": a failed evaluation without a diagnostic" };
        return;
    }
    e.stats.forEachMoe([&](std::string_view name, double value) {
        if (std::isnan(value) && !exe.training && name == "act_checkpoint_size_with_offload")
            return; // the reference's None
        if (!(value >= 0) || !std::isfinite(value))
            throw Finding { std::string(where) + ": ok with " + std::string(name) + " = "
                            + std::to_string(value) };
    });
    // What the charts read must be finite too.
    const model::Analysis a = model::analyze(app, exe, sys, e);
    const auto finite = [&](double v, const std::string &what) {
        if (!std::isfinite(v))
            throw Finding { std::string(where) + ": analysis " + what + " is not finite" };
    };
    finite(a.gap.mfu, "mfu");
    finite(a.tokensPerSecond, "tokens per second");
    for (const auto &l : a.gap.losses)
        finite(l.seconds, "loss " + l.key);
    for (const auto &t : a.tiers)
        finite(t.bytesPerStep + t.busySeconds + t.achieved_Bps + t.busyFraction, "tier " + t.label);
}

// ---- Readers ------------------------------------------------------------------------------------

const scenario::PresetLibrary &library()
{
    static const scenario::PresetLibrary lib = io::loadPresetLibrary(PRESETS_DIR);
    return lib;
}

const scenario::Scenario &defaultScenario()
{
    static const scenario::Scenario s = io::loadScenario(PRESETS_DIR "/scenarios/default.gapstudio.json");
    return s;
}

/// A scenario as the CLI and the studio treat it: compile, evaluate, classify.
void compileAndEvaluate(const scenario::Scenario &s, const char *where)
{
    const scenario::CompileResult compiled = scenario::compile(s, library());
    if (!compiled.compiled) {
        ++gTally.rejected;
        if (compiled.diagnostics.empty())
            throw Finding { std::string(where) + ": compile failed without a diagnostic" };
        return;
    }
    const scenario::CompiledScenario &c = *compiled.compiled;
    model::EvaluateOptions options;
    options.quirks = scenario::scenarioQuirks(false, c.resolved.llm.isMoe());
    const model::Evaluation e = model::evaluate(c.application, c.execution, c.system, options);
    checkEvaluation(e, c.application, c.execution, c.system, where);
    for (const model::Diagnostic &d : e.diagnostics) // the CLI's message must be buildable
        (void)scenario::scenarioDiagnosticText("fuzz.gapstudio.json", s, d);
    // The studio's own path (charts when only memory is short) must hold as well.
    const views::ResultsPtr results = views::computeResults(s, library());
    if (results->analysis && !std::isfinite(results->analysis->gap.mfu))
        throw Finding { std::string(where) + ": studio analysis not finite" };
}

void runCalculon(const Parts &p)
{
    io::CalculonInputs in;
    try {
        in = io::parseCalculonInputs(
            io::parseJsonText(p[0], "model.json"), io::parseJsonText(p[1], "execution.json"),
            io::parseJsonText(p[2], "system.json"), "model.json", "execution.json", "system.json");
    } catch (const io::InputError &) {
        ++gTally.rejected;
        return; // exit 2, a clear message: the contract
    }
    model::EvaluateOptions options;
    options.quirks = in.referenceQuirks();
    const model::Evaluation e = model::evaluate(in.application, in.execution, in.system, options);
    checkEvaluation(e, in.application, in.execution, in.system, "calculon");
}

void runScenario(const Parts &p)
{
    scenario::Scenario s;
    try {
        s = io::parseScenario(io::migratePreset(io::parseJsonText(p[0], "s"), io::PresetKind::Scenario, "s"),
                              "s");
    } catch (const io::InputError &) {
        ++gTally.rejected;
        return;
    }
    compileAndEvaluate(s, "scenario");
}

void runPreset(const Parts &p)
{
    io::PresetFile preset;
    try {
        preset = io::parsePresetFile(io::parseJsonText(p[0], "preset.json"), "preset.json");
    } catch (const io::InputError &) {
        ++gTally.rejected;
        return;
    }
    // Used in the default design, inline, as the studio would after a drop.
    scenario::Scenario s = defaultScenario();
    std::visit(
        [&s](const auto &block) {
            using B = std::decay_t<decltype(block)>;
            if constexpr (std::is_same_v<B, scenario::Gpu>)
                s.gpu = { {}, block };
            else if constexpr (std::is_same_v<B, scenario::Interconnect>)
                s.scaleOut = { {}, block };
            else if constexpr (std::is_same_v<B, scenario::Topology>)
                s.topology = { {}, block };
            else if constexpr (std::is_same_v<B, scenario::Llm>)
                s.llm = { {}, block };
            else if constexpr (std::is_same_v<B, scenario::Layout>)
                s.layout = { {}, block };
            else
                s = block;
        },
        preset);
    compileAndEvaluate(s, "preset");
}

void runHf(const Parts &p)
{
    scenario::HfImport imported;
    try {
        imported = scenario::importHuggingFaceConfig(io::parseJsonText(p[0], "config.json"), "config.json",
                                                     "fuzz", "fuzz");
    } catch (const io::InputError &) {
        ++gTally.rejected;
        return;
    }
    (void)io::toText(io::toJson(imported.llm)); // what import-hf prints
    scenario::Scenario s = defaultScenario();
    s.llm = { {}, imported.llm };
    compileAndEvaluate(s, "hf");
}

void runProvenance(const Parts &p)
{
    QString problem;
    const QString json = views::provenanceFromBytes(QByteArray::fromStdString(p[0]), &problem);
    if (json.isEmpty()) {
        ++gTally.rejected;
        return; // "carries no GapStudio scenario" or the problem: exit 2
    }
    const std::optional<scenario::Scenario> s = views::scenarioFromProvenance(json, QStringLiteral("export"));
    if (s)
        compileAndEvaluate(*s, "provenance");
}

/// For a reader whose result needs no evaluation: only InputError may come out of it.
template <typename Parse> std::function<void(const Parts &)> readerOnly(Parse parse)
{
    return [parse](const Parts &p) {
        try {
            (void)parse(io::parseJsonText(p[0], "input.json"), "input.json");
        } catch (const io::InputError &) {
        }
    };
}

/// The exports a scenario can be restored from (PNG, SVG, PDF, CSV of one chart).
std::vector<Parts> provenanceSeeds()
{
    QTemporaryDir dir;
    views::ChartsPanel panel;
    panel.setResults(views::computeResults(defaultScenario(), library()));
    const QString provenance = views::scenarioProvenance(defaultScenario());
    std::vector<Parts> seeds;
    for (const char *suffix : { "png", "svg", "pdf", "csv" }) {
        const QString file = dir.filePath(QStringLiteral("chart.") + QLatin1String(suffix));
        if (!views::exportChart(*panel.charts().front(), file, provenance))
            throw std::runtime_error("cannot make the provenance seeds");
        seeds.push_back({ readFile(file.toStdString()) });
    }
    return seeds;
}

std::vector<Target> targets()
{
    const std::string data = TEST_DATA_DIR;
    std::vector<Parts> calculon = calculonSeeds(data + "/calculon/cases");
    for (Parts &p : calculonSeeds(data + "/calculon-moe/cases"))
        calculon.push_back(std::move(p));
    std::vector<Parts> presets;
    for (const char *kind : { "gpus", "interconnects", "topologies", "llms", "layouts" })
        for (Parts &p : seedsFrom(std::string(PRESETS_DIR "/") + kind, ".json"))
            presets.push_back(std::move(p));
    // One line per reader: name, seed inputs, what runs them, share of the cases.
    return {
        { "calculon", calculon, runCalculon, 6 },
        { "scenario", seedsFrom(PRESETS_DIR "/scenarios", ".gapstudio.json"), runScenario, 5 },
        { "preset", presets, runPreset, 4 },
        { "hf", seedsFrom(data + "/hf", "config.json"), runHf, 2 },
        { "provenance", provenanceSeeds(), runProvenance, 3 },
        { "preset-library-entry", presets, readerOnly(io::parsePresetFile), 1 },
    };
}

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
    std::vector<Target> all = targets();
    if (!only.empty())
        std::erase_if(all, [&](const Target &t) { return t.name != only; });
    if (all.empty()) {
        std::fprintf(stderr, "no target %s\n", only.c_str());
        return 2;
    }
    if (!replay.empty()) { // a saved finding: its parts in order
        Parts parts;
        for (const std::string &file : replay)
            parts.push_back(readFile(file));
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
                seconds, static_cast<unsigned long long>(gTally.rejected),
                static_cast<unsigned long long>(gTally.ok + gTally.failed),
                static_cast<unsigned long long>(gTally.ok), static_cast<unsigned long long>(gTally.failed),
                static_cast<unsigned long long>(findings));
    return findings == 0 ? 0 : 1;
}
