// The Roadmap view reads the model's roadmap results (scenario::evaluateRoadmap): one bar per
// step and metric equal to the model's numbers, the gains and the goodput in its exports, a click that opens
// a step as the current design, and files that cannot be read shown in words (file and JSON pointer) without
// a crash and without losing the roadmap shown before.
#include "shippedresults.h"

#include "charts/chartexport.h"
#include "charts/chartformat.h"
#include "report/headless.h"
#include "roadmap/roadmapchart.h"
#include "roadmap/roadmappanel.h"
#include "roadmap/roadmaptable.h"
#include "studio/scenariodocument.h"

#include "gapstudio/io/roadmap_json.h"
#include "gapstudio/scenario/roadmap.h"

#include <qcustomplot.h>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace gapstudio;
using views::RoadmapMetric;

namespace {

const QString kShipped
    = QStringLiteral(PRESETS_DIR "/roadmaps/paper-walk-gpt4-moe-4096.gapstudio-roadmap.json");

/// The model's results for the shipped walk, computed here without the view.
std::vector<scenario::RoadmapStepResult> modelResults(const io::Roadmap &roadmap)
{
    std::vector<scenario::Scenario> designs;
    for (const io::RoadmapStep &step : roadmap.steps)
        designs.push_back(step.scenario);
    return scenario::evaluateRoadmap(designs, test::shippedLibrary(), {});
}

double modelValue(const scenario::RoadmapStepResult &r, RoadmapMetric metric)
{
    switch (metric) {
    case RoadmapMetric::Throughput:
        return r.result.evaluation.stats.sample_rate;
    case RoadmapMetric::Mfu:
        return r.result.evaluation.stats.total_efficiency * 100; // shown in percent
    case RoadmapMetric::UsdPerMillionTokens:
        return r.result.cost->usdPerMillionTokens;
    case RoadmapMetric::JoulesPerToken:
        return r.result.cost->joulesPerToken;
    }
    return 0;
}

void writeFile(const QString &path, const QByteArray &text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

/// The shipped walk with `edit` applied to its JSON text.
QByteArray shippedWith(const std::function<void(nlohmann::json &)> &edit)
{
    QFile file(kShipped);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    nlohmann::json json = nlohmann::json::parse(file.readAll().toStdString());
    edit(json);
    return QByteArray::fromStdString(json.dump(2));
}

} // namespace

class TestRoadmapView : public QObject {
    Q_OBJECT

private slots:
    void chartIsTheModels();
    void clickOpensStep();
    void stepsWithUnpricedPartsSaySo();
    void badFilesAreExplained();
    void stepThatIsNoDesign();
    void headlessExport();
};

void TestRoadmapView::chartIsTheModels()
{
    views::ScenarioDocument document(test::shippedLibrary());
    views::RoadmapPanel panel(&document);
    QString error;
    QVERIFY2(panel.openFile(kShipped, &error), qPrintable(error));
    QVERIFY(panel.problem().isEmpty());

    const io::Roadmap roadmap = io::loadRoadmap(kShipped.toStdString());
    const std::vector<scenario::RoadmapStepResult> model = modelResults(roadmap);
    QCOMPARE(model.size(), std::size_t(4)); // H100 HBD 8, HBD 64, HBD 128, FullFlat
    for (const RoadmapMetric metric : views::kRoadmapMetrics) {
        QCPBars *bars = panel.chart()->bars(metric);
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), int(model.size())); // one point per step
        for (std::size_t i = 0; i < model.size(); ++i) {
            QVERIFY(model[i].result.ok() && model[i].result.cost);
            QCOMPARE(bars->data()->at(int(i))->key, double(i + 1));
            QCOMPARE(bars->data()->at(int(i))->value, modelValue(model[i], metric));
        }
    }
    // The gains exported are the model's (CSV columns speedup, cost_ratio, energy_ratio).
    const QList<QStringList> rows = panel.chart()->csvRows();
    QCOMPARE(rows.size(), int(model.size()) + 1);
    for (std::size_t i = 1; i < model.size(); ++i) {
        const QStringList &row = rows[int(i) + 1];
        QCOMPARE(row.at(7).toDouble(), model[i].speedup);
        QCOMPARE(row.at(8).toDouble(), model[i].costRatio);
        QCOMPARE(row.at(9).toDouble(), model[i].energyRatio);
    }
    QVERIFY(rows[1].at(7).isEmpty()); // the first step has nothing to gain over
    // Then the goodput's columns, as `gapstudio-cli roadmap` prints them: each step's goodput, its
    // $/million tokens with failures (the failure-free cost over the goodput) and that figure's
    // ratio to the step before (the ratio of the two steps' effective costs).
    QCOMPARE(rows[0].mid(10),
             (QStringList { QStringLiteral("goodput"), QStringLiteral("effective_usd_per_million_tokens"),
                            QStringLiteral("effective_cost_ratio"), QStringLiteral("mfu_low"),
                            QStringLiteral("mfu_high") }));
    for (std::size_t i = 0; i < model.size(); ++i) {
        const QStringList &row = rows[int(i) + 1];
        const double goodput = row.at(10).toDouble(), usd = row.at(11).toDouble();
        QVERIFY2(goodput > 0.5 && goodput < 1, qPrintable(row.at(10)));
        QCOMPARE(goodput, model[i].result.goodput->goodput);
        QVERIFY(std::abs(usd - model[i].result.cost->usdPerMillionTokens / goodput) <= 1e-12 * usd);
        // Last, the MFU's likely range: mfu e^-sigma .. mfu e^+sigma of the step's own interval,
        // and each panel's error bar the same range of its metric (display units).
        QVERIFY(model[i].result.interval);
        const double sigma = model[i].result.interval->sigma,
                     mfu = model[i].result.evaluation.stats.total_efficiency;
        QVERIFY(std::abs(row.at(13).toDouble() - mfu * std::exp(-sigma)) <= 1e-12 * mfu);
        QVERIFY(std::abs(row.at(14).toDouble() - mfu * std::exp(sigma)) <= 1e-12 * mfu);
        for (const RoadmapMetric metric : views::kRoadmapMetrics) {
            QCPErrorBars *range = nullptr;
            QCustomPlot *plot = panel.chart()->plot();
            for (int k = 0; k < plot->plottableCount(); ++k)
                if (auto *found = qobject_cast<QCPErrorBars *>(plot->plottable(k));
                    found && found->keyAxis() == panel.chart()->bars(metric)->keyAxis())
                    range = found;
            QVERIFY(range && range->dataCount() == int(model.size()));
            const double v = modelValue(model[i], metric);
            QVERIFY(std::abs(range->data()->at(int(i)).errorMinus - v * (1 - std::exp(-sigma))) <= 1e-12 * v);
            QVERIFY(std::abs(range->data()->at(int(i)).errorPlus - v * (std::exp(sigma) - 1)) <= 1e-12 * v);
        }
        if (i == 0) {
            QVERIFY(row.at(12).isEmpty());
            continue;
        }
        const double previous = rows[int(i)].at(11).toDouble();
        QVERIFY(std::abs(row.at(12).toDouble() - usd / previous) <= 1e-12 * usd / previous);
    }
    // The table: MW more, the MFU's range in one column ("a – b").
    QCOMPARE(panel.table()->columnCount(), int(rows[0].size()) + 1 - 1);
    const int last = panel.table()->columnCount() - 1;
    QCOMPARE(panel.table()->horizontalHeaderItem(last)->text(), QStringLiteral("MFU range"));
    QCOMPARE(panel.table()->item(0, last)->text(),
             QStringLiteral("%1 – %2").arg(views::chartformat::percent(rows[1].at(13).toDouble()),
                                           views::chartformat::percent(rows[1].at(14).toDouble())));
    QCOMPARE(panel.table()->rowCount(), int(model.size()));
}

void TestRoadmapView::clickOpensStep()
{
    views::ScenarioDocument document(test::shippedLibrary());
    document.reset(test::shippedScenario(test::kDenseScenario));
    views::RoadmapPanel panel(&document);
    panel.resize(1400, 700);
    panel.show();
    QVERIFY(panel.openFile(kShipped));
    QCustomPlot *plot = panel.chart()->plot();
    plot->replot();

    // A refusing guard (unsaved work the user keeps) leaves the design alone.
    const scenario::Scenario before = document.scenario();
    panel.setOpenGuard([] { return false; });
    QCPBars *bars = panel.chart()->bars(RoadmapMetric::UsdPerMillionTokens);
    const auto barCentre = [&](int step) {
        const double key = bars->data()->at(step)->key;
        return QPoint(int(bars->keyAxis()->coordToPixel(key)),
                      int(bars->valueAxis()->coordToPixel(bars->data()->at(step)->value / 2)));
    };
    QTest::mouseClick(plot, Qt::LeftButton, {}, barCentre(2));
    QCOMPARE(document.scenario(), before);

    panel.setOpenGuard([] { return true; });
    QCOMPARE(panel.chart()->stepAt(barCentre(2)), 2);
    QTest::mouseClick(plot, Qt::LeftButton, {}, barCentre(2));
    const io::Roadmap roadmap = io::loadRoadmap(kShipped.toStdString());
    QCOMPARE(document.scenario(), roadmap.steps[2].scenario);

    // A table row does the same.
    emit panel.table()->cellActivated(3, 0);
    QCOMPARE(document.scenario(), roadmap.steps[3].scenario);
}

void TestRoadmapView::badFilesAreExplained()
{
    QTemporaryDir dir;
    views::ScenarioDocument document(test::shippedLibrary());
    views::RoadmapPanel panel(&document);
    QVERIFY(panel.openFile(kShipped));

    struct Case {
        const char *name;
        QByteArray text;
        QString expected; ///< in the message after the file's name
    };
    const Case cases[] = {
        { "not-json.gapstudio-roadmap.json", "{ \"fileType\": ", QString() },
        { "bad-type.gapstudio-roadmap.json",
          shippedWith([](nlohmann::json &j) { j["steps"][2]["change"]["gpu_count"] = "many"; }),
          QStringLiteral("/steps/2/change/gpu_count") },
        { "unknown-key.gapstudio-roadmap.json",
          shippedWith([](nlohmann::json &j) { j["steps"][1]["change"]["colour"] = "blue"; }),
          QStringLiteral("/steps/1/change") },
        { "no-steps.gapstudio-roadmap.json", shippedWith([](nlohmann::json &j) { j.erase("steps"); }),
          QString() },
    };
    for (const Case &c : cases) {
        const QString path = dir.filePath(QLatin1String(c.name));
        writeFile(path, c.text);
        QString error;
        QVERIFY2(!panel.openFile(path, &error), c.name);
        QVERIFY2(error.contains(path), qPrintable(error));
        if (!c.expected.isEmpty())
            QVERIFY2(error.contains(c.expected), qPrintable(error));
        QVERIFY(panel.problem().contains(error));
        // What was shown stays: the shipped walk.
        QCOMPARE(panel.roadmap()->file, kShipped);
        QCOMPARE(panel.chart()->bars(RoadmapMetric::Throughput)->data()->size(), 4);
    }
    QString error;
    QVERIFY(!panel.openFile(dir.filePath(QStringLiteral("missing.gapstudio-roadmap.json")), &error));
    QVERIFY(error.contains(QStringLiteral("missing.gapstudio-roadmap.json")));
}

void TestRoadmapView::stepThatIsNoDesign()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("unknown-gpu.gapstudio-roadmap.json"));
    writeFile(path, shippedWith([](nlohmann::json &j) { j["steps"][1]["change"]["gpu"] = "no-such-gpu"; }));
    views::ScenarioDocument document(test::shippedLibrary());
    views::RoadmapPanel panel(&document);
    QVERIFY(panel.openFile(path)); // it reads: the step's problem is shown, not a crash
    QVERIFY2(panel.problem().contains(path + QStringLiteral(": /steps/1")), qPrintable(panel.problem()));
    QVERIFY(panel.problem().contains(QStringLiteral("no-such-gpu")));
    // Steps 2 and 3 inherit the unknown GPU: only step 1 (index 0) has bars; no gain is invented.
    QCPBars *bars = panel.chart()->bars(RoadmapMetric::Throughput);
    QCOMPARE(bars->data()->size(), 1);
    QCOMPARE(bars->data()->at(0)->key, 1.0);
}

// A step whose GPU has no price (set to 0 from step 2 on) counts its GPUs as free: the panel's
// notes name each such step and what its $ figures leave out; the shipped walk has none.
void TestRoadmapView::stepsWithUnpricedPartsSaySo()
{
    views::ScenarioDocument document(test::shippedLibrary());
    views::RoadmapPanel panel(&document);
    QVERIFY(panel.openFile(kShipped));
    QVERIFY2(!panel.problem().contains(QStringLiteral("Incomplete")), qPrintable(panel.problem()));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("free-gpus.gapstudio-roadmap.json"));
    writeFile(path, shippedWith([](nlohmann::json &j) { j["steps"][1]["change"]["overrides"]["gpu.price_USD"] = 0; }));
    QVERIFY(panel.openFile(path));
    const QString notes = panel.problem();
    QVERIFY2(!notes.contains(QStringLiteral("Step 1:")), qPrintable(notes));
    QVERIFY2(notes.contains(QStringLiteral("Step 2:")) && notes.contains(QStringLiteral("without a price: the GPUs")),
             qPrintable(notes));
}

void TestRoadmapView::headlessExport()
{
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("roadmap.csv"));
    const int code = views::runHeadless({ QStringLiteral("gapstudio"), QStringLiteral("--roadmap"), kShipped,
                                          QStringLiteral("--export-roadmap"), csv });
    QCOMPARE(code, views::kHeadlessOk);
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QVERIFY(lines.first().startsWith("# gapstudio")); // the first step as provenance
    int stepRows = 0;
    for (const QByteArray &line : lines)
        stepRows += line.startsWith("1,") || line.startsWith("2,") || line.startsWith("3,")
                    || line.startsWith("4,");
    QCOMPARE(stepRows, 4);

    // A bad file: exit 2, nothing written.
    const QString bad = dir.filePath(QStringLiteral("bad.gapstudio-roadmap.json"));
    writeFile(bad, "[]");
    const QString png = dir.filePath(QStringLiteral("roadmap.png"));
    QCOMPARE(views::runHeadless({ QStringLiteral("gapstudio"), QStringLiteral("--roadmap"), bad,
                                  QStringLiteral("--export-roadmap"), png }),
             views::kHeadlessBadInput);
    QVERIFY(!QFile::exists(png));
    // --export-roadmap without --roadmap is a usage error.
    QCOMPARE(views::runHeadless({ QStringLiteral("gapstudio"), QStringLiteral("--export-roadmap"), png }),
             views::kHeadlessBadInput);
}

QTEST_MAIN(TestRoadmapView)
#include "tst_roadmapview.moc"
