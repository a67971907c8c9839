#include "report/headless.h"

#include "studio/recalculator.h"

#include "charts/chartexport.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "common/safewrite.h"
#include "report/headlessstatus.h"
#include "report/provenance.h"
#include "report/report.h"
#include "report/roadmapheadless.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/preset_locations.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

namespace gapstudio::views {

namespace {

const QString kExportReport = QStringLiteral("export-report");
const QString kExportCharts = QStringLiteral("export-charts");
const QString kScenario = QStringLiteral("scenario");
const QString kBaseline = QStringLiteral("baseline");
const QString kTokenBudget = QStringLiteral("token-budget");
const QString kPresets = QStringLiteral("presets");
const QString kRoadmap = QStringLiteral("roadmap");
const QString kExportRoadmap = QStringLiteral("export-roadmap");

void printError(const QString &message)
{
    printHeadlessError(message);
}

/// A scenario (file or export) compiled against `library`, or an exit code after a message.
struct Loaded {
    ResultsPtr results;
    QString file;
    int exitCode = kHeadlessOk;
};

/// Evaluates `scenario` read from `file`; a scenario that does not compile, or holds numbers the
/// model cannot compute with, is a wrong file (exit 2 and a message naming the JSON pointer).
Loaded evaluate(const scenario::Scenario &scenario, const QString &file,
                const scenario::PresetLibrary &library)
{
    Loaded loaded;
    loaded.file = file;
    loaded.results = computeResults(scenario, library); // the studio's own pipeline: report and studio agree
    loaded.exitCode = headlessInputStatus(*loaded.results, file);
    return loaded;
}

Loaded load(const QString &path, const scenario::PresetLibrary &library)
{
    QString error;
    const std::optional<scenario::Scenario> scenario = restoreScenario(path, &error);
    if (!scenario) {
        printError(error);
        Loaded loaded;
        loaded.file = path;
        loaded.exitCode = kHeadlessBadInput;
        return loaded;
    }
    return evaluate(*scenario, path, library);
}

/// One file of a chart set: the chart and its file name in the set's folder.
struct ChartFile {
    const ChartView *chart;
    QString name;
};

/// Writes `files` into `dir` whole or not at all: every file goes into a staging folder beside
/// the charts first (a failure there leaves the old set as it was), then each is renamed into
/// place (a rename within one file system needs no space and replaces atomically).
int writeChartSet(const std::vector<ChartFile> &files, const QString &dir, const QString &provenance)
{
    QTemporaryDir staging(QDir(dir).filePath(QStringLiteral(".gapstudio-export-XXXXXX")));
    if (!staging.isValid()) {
        printError(QObject::tr("%1: cannot write: %2").arg(dir, staging.errorString()));
        return kHeadlessWriteFailed;
    }
    for (const ChartFile &file : files) {
        QString error;
        if (!exportChart(*file.chart, staging.filePath(file.name), provenance, 1.0, &error)) {
            printError(QStringLiteral("%1: %2").arg(QDir(dir).filePath(file.name), error));
            return kHeadlessWriteFailed;
        }
    }
    for (const ChartFile &file : files) {
        const QString target = QDir(dir).filePath(file.name);
        if (std::rename(QFile::encodeName(staging.filePath(file.name)).constData(),
                        QFile::encodeName(target).constData())
            != 0) {
            printError(QObject::tr("%1: cannot replace the file: %2")
                           .arg(target, QString::fromLocal8Bit(std::strerror(errno))));
            return kHeadlessWriteFailed;
        }
    }
    return kHeadlessOk;
}

int exportCharts(const QString &dir, const ScenarioResults &current, const ScenarioResults *baseline,
                 const QStringList &inputs)
{
    if (!QDir().mkpath(dir)) {
        printError(QObject::tr("%1: cannot create the folder").arg(dir));
        return kHeadlessWriteFailed;
    }
    ChartsPanel panel;
    panel.setResults(std::make_shared<const ScenarioResults>(current));
    if (baseline)
        panel.setBaseline(std::make_shared<const ScenarioResults>(*baseline));
    std::vector<ChartFile> files;
    for (const ChartView *chart : panel.charts())
        for (const char *suffix : { "png", "pdf", "svg", "csv" })
            files.push_back({ chart, chart->id() + QLatin1Char('.') + QLatin1String(suffix) });
    for (const ChartFile &file : files) { // before anything is written
        QString error;
        if (!isNotAnInput(QDir(dir).filePath(file.name), inputs, &error)) {
            printError(error);
            return kHeadlessBadInput;
        }
    }
    if (const int status = writeChartSet(files, dir, scenarioProvenance(current.scenario)))
        return status;
    std::printf("gapstudio: wrote %d chart files to %s\n", int(files.size()), qPrintable(dir));
    return kHeadlessOk;
}

} // namespace

bool isHeadlessRequest(const QStringList &arguments)
{
    return std::any_of(arguments.begin(), arguments.end(), [](const QString &a) {
        for (const QString &option : { kExportReport, kExportCharts, kExportRoadmap }) {
            for (const QString &dashes : { QStringLiteral("-"), QStringLiteral("--") }) {
                const QString flag = dashes + option;
                if (a == flag || a.startsWith(flag + QLatin1Char('=')))
                    return true;
            }
        }
        return false;
    });
}

void preferOffscreenForHeadless(int argc, char **argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    // --help and --version show no window either, and must work without a display.
    static const QStringList textOnly { QStringLiteral("-h"), QStringLiteral("--help"),
                                        QStringLiteral("--help-all"), QStringLiteral("-v"),
                                        QStringLiteral("--version") };
    const bool noWindow = isHeadlessRequest(arguments)
                          || std::any_of(arguments.begin(), arguments.end(),
                                         [](const QString &a) { return textOnly.contains(a); });
    if (noWindow && !qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

QList<QCommandLineOption> headlessOptions()
{
    return {
        { kExportReport, QObject::tr("Write the PDF report of the scenario to OUT.pdf and exit (no window)."),
          QStringLiteral("OUT.pdf") },
        { kExportCharts,
          QObject::tr("Write every chart as DIR/<chart>.{png,pdf,svg,csv} and exit (no window)."),
          QStringLiteral("DIR") },
        { kBaseline, QObject::tr("With an export: compare with the scenario in FILE."),
          QStringLiteral("FILE") },
        { kTokenBudget,
          QObject::tr("With --export-report: the token budget for time to train (default 1e12)."),
          QStringLiteral("TOKENS") },
        { kPresets, QObject::tr("With an export: read the presets from DIR."), QStringLiteral("DIR") },
        { kRoadmap, QObject::tr("With --export-roadmap or --export-report: the roadmap FILE (*.gapstudio-roadmap.json)."),
          QStringLiteral("FILE") },
        { kExportRoadmap,
          QObject::tr("Write the roadmap chart of --roadmap FILE to OUT (.png, .svg, .pdf or .csv) and exit (no window)."),
          QStringLiteral("OUT") },
    };
}

namespace {

/// The usage errors found before any work (exit 2): stray arguments, nothing to export, a roadmap
/// export without its roadmap, an output format the exports do not write, a token budget that is
/// not a positive number (read into `options`).
bool usageIsValid(const QCommandLineParser &parser, ReportOptions &options)
{
    if (!parser.positionalArguments().isEmpty()) {
        printError(QObject::tr("unexpected argument \"%1\"").arg(parser.positionalArguments().constFirst()));
        return false;
    }
    if (!parser.isSet(kExportReport) && !parser.isSet(kExportCharts) && !parser.isSet(kExportRoadmap)) {
        printError(QObject::tr("nothing to do: give --export-report OUT.pdf, --export-charts DIR or --export-roadmap OUT"));
        return false;
    }
    if (parser.isSet(kExportRoadmap) && !parser.isSet(kRoadmap)) {
        printError(QObject::tr("--export-roadmap needs --roadmap FILE"));
        return false;
    }
    if (parser.isSet(kExportRoadmap)) {
        const QString suffix = QFileInfo(parser.value(kExportRoadmap)).suffix().toLower();
        const QStringList formats { QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"),
                                    QStringLiteral("csv") };
        if (!formats.contains(suffix)) {
            printError(QObject::tr("--export-roadmap %1: unknown format \"%2\" (expected %3)")
                           .arg(parser.value(kExportRoadmap), suffix, QStringLiteral(".png, .svg, .pdf or .csv")));
            return false;
        }
    }
    if (parser.isSet(kTokenBudget)) {
        bool ok = false;
        options.tokenBudget = parser.value(kTokenBudget).toDouble(&ok);
        if (!ok || !std::isfinite(options.tokenBudget) || !(options.tokenBudget > 0)) {
            printError(QObject::tr("--token-budget: \"%1\" is not a positive finite number")
                           .arg(parser.value(kTokenBudget)));
            return false;
        }
    }
    return true;
}

/// The presets the exports evaluate with: --presets DIR alone (and its default scenario), else the
/// search order of preset_locations.h and, without --scenario, the shipped default scenario.
struct Library {
    scenario::PresetLibrary presets;
    std::optional<scenario::Scenario> shippedDefault;
};

std::optional<Library> loadLibrary(const QCommandLineParser &parser)
{
    const QString dir = parser.value(kPresets);
    Library library;
    try {
        if (!dir.isEmpty()) {
            library.presets = io::loadPresetLibrary(dir.toStdString());
        } else {
            io::PresetLibraryLoad load = io::loadPresets();
            for (const std::string &warning : load.warnings)
                printError(QString::fromStdString(warning));
            library.presets = std::move(load.library);
            if (!parser.isSet(kScenario))
                library.shippedDefault = io::loadShippedScenario(io::kDefaultScenarioFile);
        }
    } catch (const std::exception &error) {
        printError(QString::fromUtf8(error.what()));
        return std::nullopt;
    }
    return library;
}

/// Writes the PDF report to `out`, which may not be one of `inputs`.
int exportReport(const QString &out, const QStringList &inputs, const ScenarioResults &current,
                 const ScenarioResults *baseline, const ReportOptions &options)
{
    QString error;
    if (!isNotAnInput(out, inputs, &error)) {
        printError(error);
        return kHeadlessBadInput;
    }
    if (!writeReport(current, baseline, out, &error, options)) {
        printError(error);
        return kHeadlessWriteFailed;
    }
    std::printf("gapstudio: wrote %s\n", qPrintable(out));
    return kHeadlessOk;
}

} // namespace

int runHeadless(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({ kScenario, QObject::tr("The scenario FILE."), QStringLiteral("FILE") });
    parser.addOptions(headlessOptions());
    if (!parser.parse(arguments)) {
        printError(parser.errorText());
        return kHeadlessBadInput;
    }
    ReportOptions options;
    if (!usageIsValid(parser, options))
        return kHeadlessBadInput;
    const std::optional<Library> library = loadLibrary(parser);
    if (!library)
        return kHeadlessBadInput;
    if (parser.isSet(kRoadmap)) {
        options.roadmap = loadRoadmapHeadless(parser.value(kRoadmap), library->presets);
        if (!options.roadmap)
            return kHeadlessBadInput;
    }
    if (parser.isSet(kExportRoadmap)) {
        const int code = exportRoadmapHeadless(*options.roadmap, parser.value(kExportRoadmap),
                                               { parser.value(kRoadmap), parser.value(kScenario) });
        if (code == kHeadlessBadInput || code == kHeadlessWriteFailed
            || (!parser.isSet(kExportReport) && !parser.isSet(kExportCharts)))
            return code;
    }
    const QString scenarioFile
        = parser.isSet(kScenario) ? parser.value(kScenario)
          : library->shippedDefault
              ? QFileInfo(QString::fromLatin1(io::kDefaultScenarioFile)).fileName()
              : QDir(parser.value(kPresets)).filePath(QString::fromLatin1(io::kDefaultScenarioFile));
    const Loaded current = library->shippedDefault
                               ? evaluate(*library->shippedDefault, scenarioFile, library->presets)
                               : load(scenarioFile, library->presets);
    if (current.exitCode != kHeadlessOk)
        return current.exitCode;
    std::optional<Loaded> baseline;
    if (parser.isSet(kBaseline)) {
        baseline = load(parser.value(kBaseline), library->presets);
        if (baseline->exitCode != kHeadlessOk)
            return baseline->exitCode;
    }
    const ScenarioResults *baselineResults = baseline ? baseline->results.get() : nullptr;
    // No output may replace an input (the report once overwrote the scenario it was made from).
    const QStringList inputs { scenarioFile, baseline ? baseline->file : QString(), parser.value(kRoadmap) };

    if (parser.isSet(kExportReport)) {
        options.scenarioFile = QFileInfo(scenarioFile).fileName();
        options.baselineFile = baseline ? QFileInfo(baseline->file).fileName() : QString();
        const int code
            = exportReport(parser.value(kExportReport), inputs, *current.results, baselineResults, options);
        if (code != kHeadlessOk)
            return code;
    }
    if (parser.isSet(kExportCharts)) {
        const int code = exportCharts(parser.value(kExportCharts), *current.results, baselineResults, inputs);
        if (code != kHeadlessOk)
            return code;
    }
    return headlessFinish(*current.results, scenarioFile);
}

} // namespace gapstudio::views
