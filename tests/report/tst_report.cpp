// The report and the chart exports: the report of the default scenario has every section and
// carries the scenario; --export-charts writes 4 charts x 4 formats with the scenario embedded;
// a scenario restored from an exported PNG equals the original; an infeasible design still gets
// its report. Bad input and failed writes: tst_headless_errors.cpp. Set GAPSTUDIO_REPORT_DIR to
// keep the files (e.g. to look at them).
#include "headlessrun.h"

#include "charts/chartexport.h"
#include "charts/chartformat.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "gapstudio/model/trainingtime.h"
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
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QStringList>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace gapstudio;
using test::fileStart;
using test::headless;
using test::kBaselineScenario;
using test::kDefaultScenario;

namespace {

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

std::string scenarioText(const scenario::Scenario &s)
{
    return io::toText(io::toJson(s));
}

} // namespace

class tst_Report : public QObject, private test::ExportFixture {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(prepare()); }

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
        QCOMPARE(views::chartformat::significant(1234567.8), QStringLiteral("1,234,568"));
        QCOMPARE(views::chartformat::significant(12.34567), QStringLiteral("12.35"));
        QCOMPARE(views::chartformat::significant(0.0123456), QStringLiteral("0.01235"));
        QCOMPARE(views::chartformat::significant(0.0), QStringLiteral("0"));
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
            QStringLiteral("Step time, likely range"), // the prediction interval
            QStringLiteral("MFU, likely range"),
            QStringLiteral("HBM per GPU (needed)"),
            QStringLiteral("HBM per GPU (capacity)"),
            QStringLiteral("Time to train 1,000B tokens"),
            QStringLiteral("GPU-hours to train"),
            QStringLiteral("2 Cost and power"),
            QStringLiteral("Cluster cost per hour"),
            QStringLiteral("Cost per million tokens"),
            QStringLiteral("Energy per token"),
            QStringLiteral("Bill of materials"),
            QStringLiteral("Unit price"),
            QStringLiteral("3 Diagnostics"),
            QStringLiteral("None: the model"),
            QStringLiteral("4 Design"),
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
            QStringLiteral("5 Charts"),
            QStringLiteral("Figure 1. Step time"),
            QStringLiteral("Figure 4."),
        };
        for (const QString &needle : expected)
            QVERIFY2(text.contains(needle), qPrintable(QStringLiteral("missing \"%1\"").arg(needle)));
        QVERIFY(!text.contains(QStringLiteral("Comparison with the baseline")));
        QVERIFY2(!text.contains(QStringLiteral("\u2014")), "a key result is missing for a feasible design");
        QVERIFY2(!text.contains(QStringLiteral("Incomplete")), "every part of the default design has a price");
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
        QStringList expected { QStringLiteral("5 Roadmap GPT-4-class MoE on 4096 GPUs"), QStringLiteral("Speedup"),
                               QStringLiteral("6 Charts") };
        for (std::size_t i = 1; i < steps.size(); ++i)
            expected << QStringLiteral("\u00d7") + QLocale::c().toString(steps[i].speedup, 'f', 2);
        // The steps' goodput under failures, in a table of their own.
        expected << QStringLiteral("The steps with failures, checkpoints and restarts");
        for (const scenario::RoadmapStepResult &step : steps)
            expected << QLocale::c().toString(100 * step.result.goodput->goodput, 'f', 1) + QStringLiteral(" %");
        // And each step's MFU range: mfu e^-sigma .. mfu e^+sigma.
        for (const scenario::RoadmapStepResult &step : steps) {
            const double mfu = step.result.evaluation.stats.total_efficiency,
                         sigma = step.result.interval->sigma;
            expected << QStringLiteral("%1 % \u2013 %2 %")
                            .arg(QLocale::c().toString(100 * mfu * std::exp(-sigma), 'f', 1),
                                 QLocale::c().toString(100 * mfu * std::exp(sigma), 'f', 1));
        }
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
             { QStringLiteral("4 Comparison with the baseline"), QStringLiteral("Change %"),
               QStringLiteral("Baseline: GPT-4-class MoE on 4096 H100"),
               QStringLiteral("Time to train 2,000B tokens"), QStringLiteral("5 Design"),
               QStringLiteral("6 Charts") })
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
        QVERIFY(text.contains(QStringLiteral("No cost: the design does not run")));
    }

    // A design whose name fills a line: each page's footer (version, design name, date) stops
    // short of its page number, which stays whole (word boxes from pdftotext -bbox).
    void footerStopsShortOfThePageNumber()
    {
        scenario::Scenario named = mDefault;
        named.info.name
            = "A design with a very long name that goes on about its GPUs, its scale-up domains, its "
              "optical fabric and its layout for as long as a footer line is wide";
        const QString file = path(QStringLiteral("long-name.gapstudio.json"));
        io::saveScenario(named, file.toStdString());
        const QString pdf = path(QStringLiteral("long-name-report.pdf"));
        QCOMPARE(headless({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"), pdf }),
                 views::kHeadlessOk);
        const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        QVERIFY2(!tool.isEmpty(), "pdftotext (poppler-utils) is not installed");
        QProcess process;
        process.start(tool, { QStringLiteral("-bbox"), pdf, QStringLiteral("-") });
        QVERIFY(process.waitForFinished(30000) && process.exitCode() == 0);
        const QString html = QString::fromUtf8(process.readAllStandardOutput());
        struct Word {
            double xMin, yMin, xMax;
            QString text;
        };
        const QRegularExpression pageTag(QStringLiteral("<page [^>]*>(.*?)</page>"),
                                         QRegularExpression::DotMatchesEverythingOption);
        const QRegularExpression wordTag(
            QStringLiteral("<word xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" xMax=\"([0-9.]+)\" "
                           "yMax=\"[0-9.]+\">([^<]*)</word>"));
        int pages = 0;
        for (const QRegularExpressionMatch &page : pageTag.globalMatch(html)) {
            std::vector<Word> words;
            for (const QRegularExpressionMatch &w : wordTag.globalMatch(page.captured(1)))
                words.push_back({ w.captured(1).toDouble(), w.captured(2).toDouble(),
                                  w.captured(3).toDouble(), w.captured(4) });
            // The page number: the last word "Page" followed by the number.
            const auto label = std::find_if(words.rbegin(), words.rend(),
                                            [](const Word &w) { return w.text == QLatin1String("Page"); });
            QVERIFY2(label != words.rend(),
                     qPrintable(QStringLiteral("page %1 has no number").arg(pages + 1)));
            ++pages;
            for (const Word &w : words)
                if (std::abs(w.yMin - label->yMin) < 1 && w.xMin < label->xMin)
                    QVERIFY2(w.xMax < label->xMin - 4,
                             qPrintable(QStringLiteral("page %1: \"%2\" ends at %3, \"Page\" starts at %4")
                                            .arg(pages)
                                            .arg(w.text)
                                            .arg(w.xMax)
                                            .arg(label->xMin)));
        }
        QVERIFY(pages >= 5);
    }

    // A design with a part without a price (its GPU's price set to 0): the Cost and power section
    // names what its $ figures leave out, and lists the GPUs at $0 in the bill of materials.
    void reportSaysWhichPartsHaveNoPrice()
    {
        scenario::Scenario unpriced = mDefault;
        unpriced.overrides["gpu.price_USD"] = 0;
        const QString file = path(QStringLiteral("unpriced.gapstudio.json"));
        io::saveScenario(unpriced, file.toStdString());
        const QString pdf = path(QStringLiteral("unpriced-report.pdf"));
        QCOMPARE(headless({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"), pdf }),
                 views::kHeadlessOk);
        const QString text = pdfText(pdf);
        QVERIFY2(text.contains(QStringLiteral("Incomplete: $ figures leave out parts without a price: the GPUs.")),
                 qPrintable(text.left(3000)));
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
    // N-way comparison: two pinned designs and the current one, each column its own design's
    // pipeline result (run here separately); the report names both pins, and its charts overlay
    // them.
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
                     views::chartformat::significant(own.evaluation.stats.total_time));
            distinct.insert(stepRow->at(static_cast<qsizetype>(i + 1)));
        }
        QCOMPARE(distinct.size(), 3); // three designs, three step times: no column repeats another

        const QString pdf = path(QStringLiteral("pinned-report.pdf"));
        QString error;
        QVERIFY2(views::writeReport(*results[2], pinned, pdf, &error), qPrintable(error));
        const QString text = pdfText(pdf);
        for (const QString &needle :
             { QStringLiteral("4 Comparison with the pinned designs"), QStringLiteral("Pinned 2"),
               QStringLiteral("1. GPT-4-class MoE on 4096 H100"), QStringLiteral("2. GPT-3 175B"),
               QStringLiteral("5 Design"), QStringLiteral("6 Charts"),
               // the charts overlay both pins, their legends naming each
               QStringLiteral("current against the 2 pinned designs"), QStringLiteral("pin 2: GPT-3 175B") })
            QVERIFY2(text.contains(needle),
                     qPrintable(QStringLiteral("missing \"%1\" in %2").arg(needle, text.left(3000))));
    }
};

QTEST_MAIN(tst_Report)
#include "tst_report.moc"
