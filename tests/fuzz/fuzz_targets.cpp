// The readers of fuzz_readers (fuzz_targets.h): the reference's three files, scenarios, presets
// (calibrations and software stacks included), Hugging Face configs, the scenario embedded in
// exported charts, grid files and CSVs of measured runs, each read and, where it
// is accepted, compiled and evaluated as the CLI and the studio do; then the contract checked.
#include "fuzz_targets.h"

#include "charts/chartexport.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "designspace/gridfile.h"
#include "report/provenance.h"
#include "studio/recalculator.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/runs_csv.h"
#include "gapstudio/model/analysis.h"
#include "gapstudio/scenario/hf_import.h"
#include "gapstudio/scenario/locate.h"
#include "gapstudio/scenario/validation.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <variant>

namespace gapstudio::fuzz {

namespace fs = std::filesystem;

Tally &tally()
{
    static Tally t;
    return t;
}

std::string readFile(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

namespace {

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
    ++(e.ok ? tally().ok : tally().failed);
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
        ++tally().rejected;
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
        ++tally().rejected;
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
        ++tally().rejected;
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
        ++tally().rejected;
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
            else if constexpr (std::is_same_v<B, scenario::Software>)
                s.software = { {}, block };
            else if constexpr (std::is_same_v<B, scenario::CalibrationSet>)
                s.calibration = { {}, block };
            else if constexpr (std::is_same_v<B, scenario::Storage>)
                s.storage = { {}, block };
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
        ++tally().rejected;
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
        ++tally().rejected;
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

/// A grid file (gapstudio-cli grid's JSON lines) as the Grid view opens it: a file it cannot use
/// is an error message, never an exception, a crash or a hang.
void runGridFile(const Parts &p)
{
    QString error;
    const std::optional<views::GridFile> file
        = views::parseGridFile(QByteArray::fromStdString(p[0]), QStringLiteral("grid.jsonl"), &error);
    if (!file) {
        ++tally().rejected;
        if (error.isEmpty())
            throw Finding { "grid: refused without a message" };
        return;
    }
    ++tally().ok;
    for (const views::GridPoint &point : file->points)
        if (point.knobs.size() != file->knobs.size())
            throw Finding { "grid: a point without a value for every knob" };
}

/// A CSV of measured runs as "Calibrate to my runs" reads it (`current`: the default design),
/// then predicted as validate does: a prediction is finite and positive, or has its cause.
void runRunsCsv(const Parts &p)
{
    std::vector<io::Measurement> runs;
    try {
        runs = io::parseRunsCsv(p[0], "runs.csv", &defaultScenario());
    } catch (const io::InputError &) {
        ++tally().rejected;
        return;
    }
    for (const scenario::ValidationRow &row : scenario::validateMeasurements(runs, library())) {
        ++(row.predicted_s ? tally().ok : tally().failed);
        if (row.predicted_s && !(std::isfinite(*row.predicted_s) && *row.predicted_s > 0))
            throw Finding { "runs-csv: predicted " + std::to_string(*row.predicted_s) + " s for " + row.id };
        if (!row.predicted_s && row.cause.empty())
            throw Finding { "runs-csv: no prediction and no cause for " + row.id };
    }
}

/// Grid lines and CSV rows in the shapes the CLI writes and the README documents.
std::vector<Parts> gridSeeds()
{
    return {
        { R"({"point": 0, "overrides": {"gpu_count": 8, "gpu.hbm_bandwidth_GBps": 2000}, "status": "ok", )"
          R"("layout": {"tensor_par": 8, "pipeline_par": 1, "data_par": 1}, )"
          R"("results": {"step_time_s": 1.25, "sample_rate": 12.5, "mfu": 0.41}})"
          "\n"
          R"({"point": 1, "overrides": {"gpu_count": 16, "gpu.hbm_bandwidth_GBps": 2000}, "status": "infeasible", )"
          R"("message": "does not fit"})"
          "\n" },
    };
}

std::vector<Parts> runsCsvSeeds()
{
    return {
        { "# measured runs\nid,scenario,measured_iteration_time_s,tensor_par,data_par\n"
          "a,current,9.5,,\nb,current,12.0,8,\n" },
        { "scenario,measured_iteration_time_s,gpu.hbm_bandwidth_GBps,notes\ncurrent,3.25,4000,\"quoted, "
          "note\"\n" },
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

} // namespace

std::vector<Target> targets()
{
    const std::string data = TEST_DATA_DIR;
    std::vector<Parts> calculon = calculonSeeds(data + "/calculon/cases");
    for (Parts &p : calculonSeeds(data + "/calculon-moe/cases"))
        calculon.push_back(std::move(p));
    std::vector<Parts> presets;
    for (const char *kind :
         { "gpus", "interconnects", "topologies", "llms", "layouts", "software", "calibrations", "storage" })
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
        { "grid-file", gridSeeds(), runGridFile, 1 },
        { "runs-csv", runsCsvSeeds(), runRunsCsv, 1 },
    };
}

} // namespace gapstudio::fuzz
