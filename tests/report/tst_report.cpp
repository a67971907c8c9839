// The headless exports: the report of the default scenario has every section and
// carries the scenario; --export-charts writes 4 charts x 4 formats with the scenario embedded;
// a scenario restored from an exported PNG equals the original; bad input exits 2, an infeasible
// design 1 (with its report). Set GAPSTUDIO_REPORT_DIR to keep the files (e.g. to look at them).
#include "run_process.h"

#include "charts/chartexport.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "gapstudio/model/trainingtime.h"
#include "report/headless.h"
#include "report/provenance.h"
#include "report/report.h"
#include "report/reportcontent.h"
#include "results/calibrationtext.h"
#include "studio/recalculator.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/preset_locations.h"
#include "gapstudio/io/roadmap_json.h"
#include "gapstudio/scenario/roadmap.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QStringList>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace gapstudio;

namespace {

const QString kDefaultScenario = QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json");
const QString kBaselineScenario
    = QStringLiteral(PRESETS_DIR "/scenarios/gpt4-moe-4096-h100-hbd8.gapstudio.json");

int headless(const QStringList &arguments)
{
    return views::runHeadless(QStringList { QStringLiteral("gapstudio") } + arguments);
}

QByteArray fileStart(const QString &path, qint64 size = 16)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(size) : QByteArray();
}

/// The PDF's text (pdftotext, whitespace collapsed). poppler-utils is a test dependency
/// (packaging/install-deps.sh): without it the text checks fail rather than skip.
QString pdfText(const QString &path)
{
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (tool.isEmpty())
        return QStringLiteral("pdftotext (poppler-utils) is not installed");
    QProcess process;
    process.start(tool, { path, QStringLiteral("-") });
    if (!process.waitForFinished(30000) || process.exitCode() != 0)
        return QStringLiteral("pdftotext failed");
    // pdftotext keeps the fonts' fi/fl ligatures as single characters: spell them out.
    return QString::fromUtf8(process.readAllStandardOutput())
        .replace(QChar(0xFB01), QStringLiteral("fi"))
        .replace(QChar(0xFB02), QStringLiteral("fl"))
        .simplified();
}

using test::ProcessResult;

/// The app itself (gapstudio), as a user runs it headless.
ProcessResult runApp(const QStringList &arguments, const QString &stdoutFile = {})
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("GAPSTUDIO_PRESETS"), QStringLiteral(PRESETS_DIR));
    return test::runProcess(QStringLiteral(GAPSTUDIO_GUI), arguments, stdoutFile, 120000, env);
}

std::string scenarioText(const scenario::Scenario &s)
{
    return io::toText(io::toJson(s));
}

} // namespace

class tst_Report : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mTemp;
    QString mDir;
    scenario::Scenario mDefault;

    QString path(const QString &name) const { return QDir(mDir).filePath(name); }

private slots:
    void initTestCase()
    {
        QVERIFY(mTemp.isValid());
        mDir = qEnvironmentVariable("GAPSTUDIO_REPORT_DIR", mTemp.path());
        QVERIFY(QDir().mkpath(mDir));
        mDefault = io::loadScenario(kDefaultScenario.toStdString());
    }

    void trainingTimeIsBudgetOverThroughput()
    {
        // 1e12 tokens at 2048 samples x 4096 tokens per 10 s step, on 4096 GPUs.
        const model::TrainingTime t = model::trainingTime(1e12, 10.0, 2048, 4096, 4096);
        QVERIFY(std::abs(t.steps - 1e12 / (2048.0 * 4096.0)) < 1e-6);
        QVERIFY(std::abs(t.seconds - t.steps * 10.0) < 1e-6);
        QVERIFY(std::abs(t.gpuHours - t.seconds / 3600.0 * 4096) < 1e-3);
        QCOMPARE(model::trainingTime(1e12, 0.0, 2048, 4096, 4096).seconds, 0.0);
    }

    void formatValueKeepsFourDigits()
    {
        QCOMPARE(views::report::formatValue(1234567.8), QStringLiteral("1,234,568"));
        QCOMPARE(views::report::formatValue(12.34567), QStringLiteral("12.35"));
        QCOMPARE(views::report::formatValue(0.0123456), QStringLiteral("0.01235"));
        QCOMPARE(views::report::formatValue(0.0), QStringLiteral("0"));
    }

    void headlessRequestIsRecognised()
    {
        QVERIFY(views::isHeadlessRequest(
            { QStringLiteral("gapstudio"), QStringLiteral("--export-report"), QStringLiteral("a.pdf") }));
        QVERIFY(
            views::isHeadlessRequest({ QStringLiteral("gapstudio"), QStringLiteral("--export-charts=out") }));
        QVERIFY(!views::isHeadlessRequest(
            { QStringLiteral("gapstudio"), QStringLiteral("--scenario"), QStringLiteral("x.json") }));
    }

    void reportOfDefaultScenarioHasEverySection()
    {
        const QString pdf = path(QStringLiteral("default-report.pdf"));
        QCOMPARE(headless({ QStringLiteral("--export-report"), pdf }), views::kHeadlessOk);
        QVERIFY(fileStart(pdf).startsWith("%PDF-"));
        QCOMPARE(views::readProvenance(pdf), views::scenarioProvenance(mDefault));
        const auto restored = views::restoreScenario(pdf);
        QVERIFY(restored);
        QCOMPARE(scenarioText(*restored), scenarioText(mDefault));

        const QString text = pdfText(pdf);
        const QStringList expected {
            QStringLiteral("GapStudio design report"),
            QString::fromStdString(mDefault.info.name),
            QStringLiteral("Reproduce: gapstudio --scenario default.gapstudio.json"),
            QStringLiteral("1 Key results"),
            QStringLiteral("Step time"),
            QStringLiteral("Token throughput"),
            QStringLiteral("Sample throughput"),
            QStringLiteral("MFU"),
            QStringLiteral("HBM per GPU (needed)"),
            QStringLiteral("HBM per GPU (capacity)"),
            QStringLiteral("Time to train 1,000B tokens"),
            QStringLiteral("GPU-hours to train"),
            QStringLiteral("2 Diagnostics"),
            QStringLiteral("None: the model"),
            QStringLiteral("3 Design"),
            QStringLiteral("Blocks"),
            QStringLiteral("GPU: "),
            QStringLiteral("Scale-up interconnect"),
            QStringLiteral("Scale-out interconnect"),
            QStringLiteral("Topology: "),
            QStringLiteral("LLM: "),
            QStringLiteral("Layout: "),
            QStringLiteral("tensor_par"),
            QStringLiteral("pipeline_par"),
            QStringLiteral("data_par"),
            QStringLiteral("expert_par"),
            QStringLiteral("gpu_count"),
            QStringLiteral("hbm.capacity_GiB"),
            QStringLiteral("4 Charts"),
            QStringLiteral("Figure 1. Step time"),
            QStringLiteral("Figure 4."),
        };
        for (const QString &needle : expected)
            QVERIFY2(text.contains(needle), qPrintable(QStringLiteral("missing \"%1\"").arg(needle)));
        QVERIFY(!text.contains(QStringLiteral("Comparison with the baseline")));
        QVERIFY2(!text.contains(QStringLiteral("\u2014")), "a key result is missing for a feasible design");
    }

    // With --roadmap the report has a Roadmap section: the steps' table with the model's gains
    // (scenario::evaluateRoadmap) and the roadmap chart, before the charts.
    void reportHasRoadmapSection()
    {
        const QString roadmapFile
            = QStringLiteral(PRESETS_DIR "/roadmaps/paper-walk-gpt4-moe-4096.gapstudio-roadmap.json");
        const QString pdf = path(QStringLiteral("roadmap-report.pdf"));
        QCOMPARE(headless({ QStringLiteral("--roadmap"), roadmapFile, QStringLiteral("--export-report"), pdf }),
                 views::kHeadlessOk);
        const QString text = pdfText(pdf);
        const io::Roadmap roadmap = io::loadRoadmap(roadmapFile.toStdString());
        std::vector<scenario::Scenario> designs;
        for (const io::RoadmapStep &step : roadmap.steps)
            designs.push_back(step.scenario);
        const auto steps = scenario::evaluateRoadmap(designs, io::loadPresets().library, {});
        QStringList expected { QStringLiteral("4 Roadmap GPT-4-class MoE on 4096 GPUs"), QStringLiteral("Speedup"),
                               QStringLiteral("5 Charts") };
        for (std::size_t i = 1; i < steps.size(); ++i)
            expected << QStringLiteral("\u00d7") + QLocale::c().toString(steps[i].speedup, 'f', 2);
        for (const QString &needle : expected)
            QVERIFY2(text.contains(needle), qPrintable(QStringLiteral("missing \"%1\" in %2").arg(needle, text.left(3000))));
    }

    void reportComparesWithBaseline()
    {
        const QString pdf = path(QStringLiteral("comparison-report.pdf"));
        QCOMPARE(headless({ QStringLiteral("--baseline"), kBaselineScenario, QStringLiteral("--token-budget"),
                            QStringLiteral("2e12"), QStringLiteral("--export-report"), pdf }),
                 views::kHeadlessOk);
        const QString text = pdfText(pdf);
        for (const QString &needle :
             { QStringLiteral("3 Comparison with the baseline"), QStringLiteral("Change %"),
               QStringLiteral("Baseline: GPT-4-class MoE on 4096 H100"),
               QStringLiteral("Time to train 2,000B tokens"), QStringLiteral("4 Design"),
               QStringLiteral("5 Charts") })
            QVERIFY2(text.contains(needle), qPrintable(QStringLiteral("missing \"%1\"").arg(needle)));
    }

    void infeasibleDesignStillGetsItsReport()
    {
        scenario::Scenario tooSmall = mDefault;
        tooSmall.overrides["gpu.hbm_capacity_GiB"] = 8; // far less than the design needs
        const QString file = path(QStringLiteral("too-small.gapstudio.json"));
        io::saveScenario(tooSmall, file.toStdString());
        const QString pdf = path(QStringLiteral("infeasible-report.pdf"));
        QCOMPARE(headless({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"), pdf }),
                 views::kHeadlessInfeasible);
        QVERIFY(fileStart(pdf).startsWith("%PDF-"));
        const QString text = pdfText(pdf);
        // In words: no "Mem tier1" of the reference's messages.
        QVERIFY2(text.contains(QStringLiteral("GPU memory (HBM) needs")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("Mem tier1")));
        QVERIFY(text.contains(QStringLiteral("gpu.hbm_capacity_GiB")));
        // It cannot run: the report says so and shows the memory, never a time or an MFU.
        QVERIFY2(text.contains(QStringLiteral("Does not fit in memory: each GPU needs")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("but has 8 GiB")));
        QVERIFY(text.contains(QStringLiteral("HBM per GPU (needed)")));
        QVERIFY2(!text.contains(QStringLiteral("MFU")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("Token throughput")));
        QVERIFY(!text.contains(QStringLiteral("Time to train")));
    }

    void exportChartsWritesEveryFormatWithProvenance()
    {
        const QString dir = path(QStringLiteral("charts"));
        QCOMPARE(headless({ QStringLiteral("--scenario"), kDefaultScenario, QStringLiteral("--export-charts"),
                            dir }),
                 views::kHeadlessOk);
        const QString provenance = views::scenarioProvenance(mDefault);
        const nlohmann::json expectedJson = nlohmann::json::parse(provenance.toStdString());

        // The same results the headless run plotted, to compare the CSV with.
        const auto library = io::loadPresetLibrary(PRESETS_DIR);
        views::ChartsPanel panel;
        panel.setResults(views::computeResults(mDefault, library));
        QCOMPARE(panel.charts().size(), 4);
        const QMap<QString, QByteArray> signatures { { QStringLiteral("png"),
                                                       QByteArray("\x89PNG\r\n\x1a\n") },
                                                     { QStringLiteral("pdf"), QByteArray("%PDF-") },
                                                     { QStringLiteral("svg"), QByteArray("<?xml") },
                                                     { QStringLiteral("csv"), QByteArray("# gapstudio ") } };
        for (const views::ChartView *chart : panel.charts()) {
            for (auto it = signatures.begin(); it != signatures.end(); ++it) {
                const QString file = QDir(dir).filePath(chart->id() + QLatin1Char('.') + it.key());
                QVERIFY2(fileStart(file).startsWith(it.value()), qPrintable(file));
                const QString embedded = views::readProvenance(file);
                // CSV holds it on one line, and Qt's PNG text chunks come back whitespace-simplified:
                // the same JSON there; byte for byte in PDF and SVG.
                if (it.key() == QLatin1String("csv") || it.key() == QLatin1String("png"))
                    QVERIFY2(nlohmann::json::parse(embedded.toStdString()) == expectedJson, qPrintable(file));
                else
                    QCOMPARE(embedded, provenance);
            }
            // CSV: the version line, the calibration of the results, then exactly the chart's rows.
            QFile csv(QDir(dir).filePath(chart->id() + QStringLiteral(".csv")));
            QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
            const QStringList lines
                = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            const QList<QStringList> rows = chart->csvRows();
            QCOMPARE(lines.size(), rows.size() + 2);
            QCOMPARE(lines[1], QStringLiteral("# calibration: ") + views::calibrationText(*chart->results()));
            QCOMPARE(lines[2], rows.first().join(QLatin1Char(',')));
        }
    }

    void exportChartsAgainstBaseline()
    {
        const QString dir = path(QStringLiteral("charts-baseline"));
        QCOMPARE(headless({ QStringLiteral("--baseline"), kBaselineScenario,
                            QStringLiteral("--export-charts"), dir }),
                 views::kHeadlessOk);
        QCOMPARE(QDir(dir).entryList(QDir::Files).size(), 16);
        // The provenance is the current design's, not the baseline's.
        QCOMPARE(views::readProvenance(QDir(dir).filePath(QStringLiteral("memory.svg"))),
                 views::scenarioProvenance(mDefault));
    }

    void scenarioRestoredFromExportedPngEqualsTheOriginal()
    {
        const QString dir = path(QStringLiteral("restore"));
        scenario::Scenario tweaked = mDefault;
        tweaked.overrides["gpu.hbm_bandwidth_GBps"] = 12345.5; // something the presets do not say
        tweaked.info.name = "Restored <design> & \"quotes\" \u00b5";
        const QString file = path(QStringLiteral("tweaked.gapstudio.json"));
        io::saveScenario(tweaked, file.toStdString());
        QCOMPARE(headless({ QStringLiteral("--scenario"), file, QStringLiteral("--export-charts"), dir }),
                 views::kHeadlessOk);
        for (const QString &name :
             { QStringLiteral("memory.png"), QStringLiteral("step_time.svg"), QStringLiteral("bandwidth.pdf"),
               QStringLiteral("efficiency_gap.csv") }) {
            QString error;
            const auto restored = views::restoreScenario(QDir(dir).filePath(name), &error);
            QVERIFY2(restored, qPrintable(error));
            QCOMPARE(scenarioText(*restored), scenarioText(tweaked));
            QVERIFY(*restored == tweaked);
        }
    }

    void applicationIconRenders()
    {
        QSvgRenderer icon(QStringLiteral(ICON_FILE));
        QVERIFY(icon.isValid());
        QImage image(128, 128, QImage::Format_ARGB32);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        icon.render(&painter);
        painter.end();
        QVERIFY(image.pixelColor(64, 10).alpha() > 0); // the rounded square is drawn
        image.save(path(QStringLiteral("icon.png")));
    }

    void badInputExitsTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        const QString out
            = QStringLiteral("--export-report=") + QDir::temp().filePath(QStringLiteral("never.pdf"));
        QTest::newRow("unknown option") << QStringList { QStringLiteral("--frobnicate"), out };
        QTest::newRow("nothing to do") << QStringList { QStringLiteral("--scenario"), kDefaultScenario };
        QTest::newRow("missing scenario")
            << QStringList { QStringLiteral("--scenario"), QStringLiteral("/nonexistent.gapstudio.json"),
                             out };
        QTest::newRow("bad token budget")
            << QStringList { QStringLiteral("--token-budget"), QStringLiteral("-3"), out };
        QTest::newRow("positional") << QStringList { QStringLiteral("stray"), out };
    }

    void badInputExitsTwo()
    {
        QFETCH(QStringList, arguments);
        QCOMPARE(headless(arguments), views::kHeadlessBadInput);
    }

    void unknownPresetExitsTwoNamingFileAndPointer()
    {
        scenario::Scenario wrong = mDefault;
        wrong.gpu.presetId = "no-such-gpu";
        const QString file = path(QStringLiteral("wrong.gapstudio.json"));
        io::saveScenario(wrong, file.toStdString());
        QCOMPARE(headless({ QStringLiteral("--scenario"), file, QStringLiteral("--export-charts"),
                            path(QStringLiteral("never")) }),
                 views::kHeadlessBadInput);
        QVERIFY(!QDir(path(QStringLiteral("never"))).exists());
    }

    void malformedScenarioExitsTwo()
    {
        const QString file = path(QStringLiteral("malformed.gapstudio.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            R"({"fileType": "gapstudio.scenario", "version": 1, "id": "x", "name": "x", "source": "x", "gpu_cuont": 1})");
        f.close();
        QString error;
        QVERIFY(!views::restoreScenario(file, &error));
        QVERIFY2(error.contains(file), qPrintable(error));
        QCOMPARE(headless({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"),
                            path(QStringLiteral("never.pdf")) }),
                 views::kHeadlessBadInput);
    }

    // "--export-report /dev/full exits 0 'wrote'", and export errors gave no OS reason.
    // N-way comparison: two pinned designs and the current one, each column its own design's
    // pipeline result (run here separately); the report names both pins.
    void reportComparesSeveralPinnedDesigns()
    {
        const auto library = io::loadPresetLibrary(PRESETS_DIR);
        const std::vector<scenario::Scenario> designs {
            io::loadScenario(kBaselineScenario.toStdString()),
            io::loadScenario(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json"), mDefault
        };
        std::vector<views::ResultsPtr> results;
        for (const scenario::Scenario &design : designs)
            results.push_back(views::computeResults(design, library));
        const std::vector<const views::ScenarioResults *> pinned { results[0].get(), results[1].get() };
        const views::report::Table table = views::report::comparisonTable(pinned, *results[2], 2e12);
        QCOMPARE(table.headers, (QStringList { QStringLiteral("Result"), QStringLiteral("Pinned 1"),
                                               QStringLiteral("Pinned 2"), QStringLiteral("Current") }));
        const auto stepRow = std::find_if(table.rows.cbegin(), table.rows.cend(), [](const QStringList &row) {
            return row.front() == QStringLiteral("Step time (s)");
        });
        QVERIFY(stepRow != table.rows.cend());
        QSet<QString> distinct;
        for (std::size_t i = 0; i < designs.size(); ++i) {
            const scenario::PipelineResult own = scenario::runScenario(designs[i], library);
            QVERIFY2(own.ok(), own.statusText.c_str());
            QCOMPARE(stepRow->at(static_cast<qsizetype>(i + 1)),
                     views::report::formatValue(own.evaluation.stats.total_time));
            distinct.insert(stepRow->at(static_cast<qsizetype>(i + 1)));
        }
        QCOMPARE(distinct.size(), 3); // three designs, three step times: no column repeats another

        const QString pdf = path(QStringLiteral("pinned-report.pdf"));
        QString error;
        QVERIFY2(views::writeReport(*results[2], pinned, pdf, &error), qPrintable(error));
        const QString text = pdfText(pdf);
        for (const QString &needle :
             { QStringLiteral("3 Comparison with the pinned designs"), QStringLiteral("Pinned 2"),
               QStringLiteral("1. GPT-4-class MoE on 4096 H100"), QStringLiteral("2. GPT-3 175B"),
               QStringLiteral("4 Design"), QStringLiteral("5 Charts") })
            QVERIFY2(text.contains(needle),
                     qPrintable(QStringLiteral("missing \"%1\" in %2").arg(needle, text.left(3000))));
    }

    void unwritableReportIsExit3()
    {
        QCOMPARE(headless({ QStringLiteral("--export-report"), QStringLiteral("/dev/full") }),
                 views::kHeadlessWriteFailed);
        QString error;
        const auto library = io::loadPresetLibrary(PRESETS_DIR);
        QVERIFY(!views::writeReport(*views::computeResults(mDefault, library), nullptr,
                                    QStringLiteral("/dev/full"), &error));
        QVERIFY2(error.contains(QStringLiteral("No space left on device")), qPrintable(error));
        // As a user runs it: the reason on stderr, no "wrote" on stdout.
        const ProcessResult r = runApp({ QStringLiteral("--export-report"), QStringLiteral("/dev/full") });
        QCOMPARE(r.exitCode, views::kHeadlessWriteFailed);
        QVERIFY2(r.err.contains("/dev/full") && r.err.contains("No space left on device"), r.err.constData());
        QVERIFY(!r.out.contains("wrote"));
    }

    // Standard output that cannot be written fails the run, as in the CLI.
    void lostStandardOutputIsExit3()
    {
        const ProcessResult r
            = runApp({ QStringLiteral("--export-report"), path(QStringLiteral("stdout-full.pdf")) },
                     QStringLiteral("/dev/full"));
        QCOMPARE(r.exitCode, views::kHeadlessWriteFailed);
        QVERIFY2(r.err.contains("standard output"), r.err.constData());
    }

    // "--export-report X.gapstudio.json with the scenario itself as output replaces the scenario
    // with a PDF (same with --baseline)".
    void anExportNeverReplacesAnInput_data()
    {
        QTest::addColumn<QString>("role");
        QTest::newRow("scenario") << "scenario";
        QTest::newRow("baseline") << "baseline";
    }
    void anExportNeverReplacesAnInput()
    {
        QFETCH(QString, role);
        const QString file = path(QStringLiteral("input-") + role + QStringLiteral(".gapstudio.json"));
        io::saveScenario(mDefault, file.toStdString());
        const QByteArray before = fileStart(file, 1 << 20);
        QCOMPARE(headless({ QStringLiteral("--") + role, file, QStringLiteral("--export-report"), file }),
                 views::kHeadlessBadInput);
        QCOMPARE(fileStart(file, 1 << 20), before);
    }

    // "a deeply nested SVG given as --scenario/--baseline (stack overflow in QXmlStreamReader)".
    void deeplyNestedSvgIsRefused_data() { anExportNeverReplacesAnInput_data(); }
    void deeplyNestedSvgIsRefused()
    {
        QFETCH(QString, role);
        const QString file = path(QStringLiteral("deep.svg"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\">");
        // Nested inside the element that holds the scenario: reading its text recursed per level.
        f.write("<desc>");
        f.write(QByteArray("<g>").repeated(200000));
        f.write(QByteArray("</g>").repeated(200000));
        f.write("</desc>");
        f.write("</svg>");
        f.close();
        QString error;
        QVERIFY(!views::restoreScenario(file, &error));
        QVERIFY2(error.contains(QStringLiteral("deeper than")), qPrintable(error));
        QCOMPARE(headless({ QStringLiteral("--") + role, file, QStringLiteral("--export-report"),
                            path(QStringLiteral("never-deep.pdf")) }),
                 views::kHeadlessBadInput);
    }

    // "--screenshot with a bad or missing --scenario exits 0 and shows the default design".
    void screenshotOfABadScenarioFails_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<int>("status");
        QTest::newRow("missing") << "/nonexistent.gapstudio.json" << views::kHeadlessBadInput;
        QTest::newRow("not a scenario") << ICON_FILE << views::kHeadlessBadInput;
    }
    void screenshotOfABadScenarioFails()
    {
        QFETCH(QString, scenario);
        QFETCH(int, status);
        const QString png = path(QStringLiteral("never-shot.png"));
        const ProcessResult r
            = runApp({ QStringLiteral("--scenario"), scenario, QStringLiteral("--screenshot"), png });
        QCOMPARE(r.exitCode, status);
        QVERIFY(!QFile::exists(png));
        QVERIFY2(r.err.contains(scenario.toUtf8()), r.err.constData());
    }

    void screenshotThatCannotBeWrittenIsExit3()
    {
        const ProcessResult r = runApp({ QStringLiteral("--screenshot"), QStringLiteral("/dev/full") });
        QCOMPARE(r.exitCode, views::kHeadlessWriteFailed);
        QVERIFY2(r.err.contains("No space left on device"), r.err.constData());
    }

    // "GUI and CLI disagree on exit codes for the same infeasible scenario and the CLI names a JSON
    // pointer (/num_procs) that a scenario file does not have."
    void guiAndCliAgreeOnAnInfeasibleScenario()
    {
        scenario::Scenario wrongCount = mDefault;
        wrongCount.overrides["gpu_count"] = 4000; // the layout needs 4096
        const QString file = path(QStringLiteral("wrong-count.gapstudio.json"));
        io::saveScenario(wrongCount, file.toStdString());
        QCOMPARE(headless({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"),
                            path(QStringLiteral("wrong-count.pdf")) }),
                 views::kHeadlessInfeasible);
        const ProcessResult gui
            = runApp({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"),
                       path(QStringLiteral("wrong-count.pdf")) });
        QProcess cli;
        cli.start(QStringLiteral(GAPSTUDIO_CLI), { QStringLiteral("eval"), file });
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(gui.exitCode, views::kHeadlessInfeasible);
        QCOMPARE(cli.exitCode(), gui.exitCode);
        const QByteArray pointer = file.toUtf8() + ": /overrides/gpu_count: ";
        QVERIFY2(gui.err.contains(pointer), gui.err.constData());
        const QByteArray cliErr = cli.readAllStandardError();
        QVERIFY2(cliErr.contains(pointer), cliErr.constData());
        QVERIFY(!cliErr.contains("/num_procs") && !gui.err.contains("/num_procs"));
    }

    // A number the model cannot compute with is malformed input for both, before any output.
    void guiAndCliAgreeOnAMalformedScenario()
    {
        scenario::Scenario huge = mDefault;
        huge.overrides["llm.seq_size"] = 1e9;
        const QString file = path(QStringLiteral("huge.gapstudio.json"));
        io::saveScenario(huge, file.toStdString());
        const QString pdf = path(QStringLiteral("never-huge.pdf"));
        QCOMPARE(headless({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"), pdf }),
                 views::kHeadlessBadInput);
        const ProcessResult gui
            = runApp({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"), pdf });
        QProcess cli;
        cli.start(QStringLiteral(GAPSTUDIO_CLI), { QStringLiteral("eval"), file });
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(gui.exitCode, views::kHeadlessBadInput);
        QCOMPARE(cli.exitCode(), gui.exitCode);
        QVERIFY(!QFile::exists(pdf));
        QVERIFY2(gui.err.contains(file.toUtf8() + ": /overrides/llm.seq_size: "), gui.err.constData());
    }
};

QTEST_MAIN(tst_Report)
#include "tst_report.moc"
