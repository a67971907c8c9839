// The Cost and power panel and the efficiency gap in dollars read the pipeline's cost result
// (model/cost.h through scenario::runScenario): the panel's figures and its $/hour bar are the
// model's numbers for the studio's default design, its goodput under failures among them; a
// changed electricity price or storage bandwidth is one undoable override that changes them; a
// design over memory capacity shows no cost at all.
#include "shippedresults.h"

#include "charts/efficiencygapchart.h"
#include "cost/costchart.h"
#include "cost/costpanel.h"
#include "studio/scenariodocument.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <utility>

using namespace gapstudio;
using views::CostPanel;

namespace {

constexpr double kSecondsPerDay = 86400; // the panel shows the time to train in days

/// The number a figure shows ("$1,234", "12.34 J", "3.210 MW"), or NaN.
double shownNumber(const QString &text)
{
    QString digits = text;
    digits.remove(QLatin1Char('$')).remove(QLatin1Char(','));
    const QRegularExpressionMatch match
        = QRegularExpression(QStringLiteral("^\\s*(-?[0-9.]+(?:[eE][-+]?[0-9]+)?)")).match(digits);
    return match.hasMatch() ? match.captured(1).toDouble() : std::nan("");
}

/// The figures are shown with four significant digits (report::formatValue): equal to that.
bool closeTo(double shown, double expected)
{
    return std::abs(shown - expected) <= 1e-3 * std::abs(expected) + 1e-12;
}

struct Figure {
    const char *key;
    double model::CostResult::*value;
    double displayDivisor;
};

const Figure kFigures[] = {
    { "cluster_usd_per_hour", &model::CostResult::clusterUsdPerHour, 1 },
    { "usd_per_million_tokens", &model::CostResult::usdPerMillionTokens, 1 },
    { "joules_per_token", &model::CostResult::joulesPerToken, 1 },
    { "megawatts", &model::CostResult::megawatts, 1 },
    { "tokens_per_second_per_megawatt", &model::CostResult::tokensPerSecondPerMegawatt, 1 },
    { "run_seconds", &model::CostResult::runSeconds, kSecondsPerDay },
    { "run_usd", &model::CostResult::runUsd, 1 },
    { "run_megawatt_hours", &model::CostResult::runMegawattHours, 1 },
    { "gpu_hours", &model::CostResult::gpuHours, 1 },
};

/// The panel shows every figure of `cost`.
void checkFigures(const CostPanel &panel, const model::CostResult &cost)
{
    for (const Figure &f : kFigures) {
        const QString text = panel.figureText(QString::fromLatin1(f.key));
        const double expected = cost.*(f.value) / f.displayDivisor;
        QVERIFY2(expected > 0, f.key);
        QVERIFY2(closeTo(shownNumber(text), expected),
                 qPrintable(
                     QStringLiteral("%1: shown %2, model %3").arg(QLatin1String(f.key), text).arg(expected)));
    }
}

/// The panel shows the goodput under failures `g`: the share in percent, the days and the
/// $/million tokens with failures.
void checkGoodputFigures(const CostPanel &panel, const model::GoodputResult &g)
{
    QVERIFY(g.valid && g.goodput > 0 && g.goodput < 1);
    const std::pair<const char *, double> shown[] = {
        { "goodput", 100 * g.goodput },
        { "effective_training_days", g.effectiveTrainingDays },
        { "effective_usd_per_million_tokens", g.effectiveUsdPerMillionTokens },
    };
    for (const auto &[key, expected] : shown) {
        const QString text = panel.figureText(QString::fromLatin1(key));
        QVERIFY2(
            closeTo(shownNumber(text), expected),
            qPrintable(QStringLiteral("%1: shown %2, model %3").arg(QLatin1String(key), text).arg(expected)));
    }
}

} // namespace

class TestCostPanel : public QObject {
    Q_OBJECT

private slots:
    void figuresAreTheModels();
    void electricityPriceIsAnUndoableEdit();
    void storageBandwidthIsAnUndoableEdit();
    void hotSparesCostAndSave();
    void storageBlockIsAnUndoableChoice();
    void overCapacityShowsNoCost();
    void gapInDollarsIsTheModels();
    void unpricedPartsAreFlagged();
};

void TestCostPanel::figuresAreTheModels()
{
    views::ScenarioDocument document(test::shippedLibrary());
    document.reset(test::shippedScenario(test::kMoeScenario));
    CostPanel panel(&document);
    const views::ResultsPtr results = test::shippedResults(document.scenario());
    QVERIFY(results->ok() && results->cost);
    panel.setResults(results);
    const model::CostResult &cost = *results->cost;
    checkFigures(panel, cost);
    QVERIFY(results->goodput);
    checkGoodputFigures(panel, *results->goodput);

    // The stacked bar: one segment per share of $/hour, each the model's, summing to the total.
    double sum = 0;
    for (const model::CostShare &share : cost.usdPerHour) {
        QCPBars *bars = panel.chart()->share(QString::fromStdString(share.key));
        if (share.value == 0) {
            QVERIFY(!bars);
            continue;
        }
        QVERIFY2(bars, share.key.c_str());
        QCOMPARE(bars->data()->size(), 1);
        QCOMPARE(bars->data()->at(0)->value, share.value);
        sum += bars->data()->at(0)->value;
    }
    QVERIFY(std::abs(sum - cost.clusterUsdPerHour) <= 1e-9 * cost.clusterUsdPerHour);
    // The fields show the assumptions the design resolves to (the cited defaults here).
    QCOMPARE(panel.field(QStringLiteral("cost.usd_per_kWh"))->value(), cost.assumptions.usdPerKWh);
    QCOMPARE(panel.field(QStringLiteral("cost.pue"))->value(), cost.assumptions.pue);
}

void TestCostPanel::electricityPriceIsAnUndoableEdit()
{
    views::ScenarioDocument document(test::shippedLibrary());
    document.reset(test::shippedScenario(test::kMoeScenario));
    CostPanel panel(&document);
    const views::ResultsPtr before = test::shippedResults(document.scenario());
    panel.setResults(before);
    const double price = before->cost->assumptions.usdPerKWh;

    // The user types twice the price: one override of the design.
    panel.field(QStringLiteral("cost.usd_per_kWh"))->setValue(2 * price);
    QCOMPARE(document.scenario().overrides.at("cost.usd_per_kWh"), 2 * price);
    QCOMPARE(document.undoStack()->count(), 1);
    const views::ResultsPtr after = test::shippedResults(document.scenario());
    panel.setResults(after);
    QVERIFY(after->ok() && after->cost);
    // Energy cost per hour is power at the meter x price: twice the price, twice the energy cost;
    // capital does not change, so $/hour grows by exactly the old energy cost.
    QVERIFY(std::abs(after->cost->energyUsdPerHour - 2 * before->cost->energyUsdPerHour)
            <= 1e-9 * after->cost->energyUsdPerHour);
    QVERIFY(std::abs(after->cost->clusterUsdPerHour
                     - (before->cost->clusterUsdPerHour + before->cost->energyUsdPerHour))
            <= 1e-9 * after->cost->clusterUsdPerHour);
    checkFigures(panel, *after->cost);
    QVERIFY(panel.figureText(QStringLiteral("usd_per_million_tokens"))
            != QString::number(before->cost->usdPerMillionTokens));

    // Showing the new results does not push another edit; undo takes the price back.
    QCOMPARE(document.undoStack()->count(), 1);
    document.undoStack()->undo();
    QVERIFY(!document.scenario().overrides.count("cost.usd_per_kWh"));
}

// The goodput's assumptions are fields of the panel too: the user types a tenth of the storage
// bandwidth (200 GB/s for the default 2 TB/s), one undoable override; a checkpoint then takes
// its bytes / 200 GB/s to write, and the goodput shown falls.
void TestCostPanel::storageBandwidthIsAnUndoableEdit()
{
    views::ScenarioDocument document(test::shippedLibrary());
    document.reset(test::shippedScenario(test::kMoeScenario));
    CostPanel panel(&document);
    const views::ResultsPtr before = test::shippedResults(document.scenario());
    panel.setResults(before);
    QVERIFY(before->goodput && before->goodput->valid);
    QDoubleSpinBox *field = panel.field(QStringLiteral("reliability.storage_GBps"));
    QVERIFY(field);
    QCOMPARE(field->value(), 2000.0); // Llama 3's 2 TB/s sustained (model/goodput.cpp)

    field->setValue(200);
    QCOMPARE(document.scenario().overrides.at("reliability.storage_GBps"), 200.0);
    QCOMPARE(document.undoStack()->count(), 1);
    const views::ResultsPtr after = test::shippedResults(document.scenario());
    panel.setResults(after);
    QVERIFY(after->goodput && after->goodput->valid);
    const model::GoodputResult &g = *after->goodput;
    QVERIFY(std::abs(g.checkpointWrite_s - g.checkpoint_B / 200e9) <= 1e-12 * g.checkpointWrite_s);
    QVERIFY(g.goodput < before->goodput->goodput);
    checkGoodputFigures(panel, g);
    QCOMPARE(document.undoStack()->count(), 1);
    document.undoStack()->undo();
    QVERIFY(!document.scenario().overrides.count("reliability.storage_GBps"));
}

void TestCostPanel::hotSparesCostAndSave()
{
    // Two days to repair a server: without spares every hardware failure waits for it; 32 spare
    // servers cost their capital (a bar of the chart) and win goodput back.
    views::ScenarioDocument document(test::shippedLibrary());
    document.reset(test::shippedScenario(test::kMoeScenario));
    CostPanel panel(&document);
    QDoubleSpinBox *repair = panel.field(QStringLiteral("reliability.repair_hours"));
    QDoubleSpinBox *spares = panel.field(QStringLiteral("reliability.spare_servers"));
    QVERIFY(repair && spares);
    QCOMPARE(repair->value(), 0.0);
    QCOMPARE(spares->value(), 0.0);
    repair->setValue(48);
    const views::ResultsPtr waiting = test::shippedResults(document.scenario());
    spares->setValue(32);
    QCOMPARE(document.scenario().overrides.at("reliability.repair_hours"), 48.0);
    QCOMPARE(document.scenario().overrides.at("reliability.spare_servers"), 32.0);
    QCOMPARE(document.undoStack()->count(), 2);
    const views::ResultsPtr spared = test::shippedResults(document.scenario());
    panel.setResults(spared);
    QVERIFY(waiting->goodput && spared->goodput && spared->cost && waiting->cost);
    QVERIFY(spared->goodput->goodput > waiting->goodput->goodput);
    QVERIFY(spared->cost->capex_USD > waiting->cost->capex_USD);
    checkGoodputFigures(panel, *spared->goodput);
    QCPBars *bars = panel.chart()->share(QStringLiteral("spares"));
    QVERIFY(bars);
    const model::BillOfMaterials &bom = spared->cost->bom;
    const double capital = bom.line("spares_gpus")->price_USD() + bom.line("spares_servers")->price_USD();
    const double hours = spared->cost->assumptions.depreciationYears * 365.25 * 24; // Julian years
    QVERIFY(std::abs(bars->data()->at(0)->value - capital / hours) <= 1e-6 * capital / hours);
    document.undoStack()->undo();
    QVERIFY(!document.scenario().overrides.count("reliability.spare_servers"));
}

void TestCostPanel::storageBlockIsAnUndoableChoice()
{
    // The user picks the shipped Tectonic storage in the panel: one undo step, the design names
    // it, checkpoints go at its 2 TB/s, and its missing price raises the banner.
    views::ScenarioDocument document(test::shippedLibrary());
    document.reset(test::shippedScenario(test::kMoeScenario));
    CostPanel panel(&document);
    panel.setResults(test::shippedResults(document.scenario()));
    QComboBox *choice = panel.storageChoice();
    QCOMPARE(choice->currentIndex(), 0);
    QVERIFY(choice->itemData(0).toString().isEmpty());
    const int tectonic = choice->findData(QStringLiteral("llama3-tectonic"));
    QVERIFY(tectonic > 0);
    choice->setCurrentIndex(tectonic);
    emit choice->activated(tectonic);
    QCOMPARE(document.scenario().storage.presetId, std::string("llama3-tectonic"));
    QCOMPARE(document.undoStack()->count(), 1);
    const views::ResultsPtr results = test::shippedResults(document.scenario());
    panel.setResults(results);
    QCOMPARE(choice->currentIndex(), tectonic);
    QVERIFY(results->cost && results->goodput);
    QVERIFY(results->cost->bom.line("storage"));
    QCOMPARE(results->goodput->checkpointWrite_s, results->goodput->checkpoint_B / 2e12);
    auto *banner = panel.findChild<QLabel *>(QStringLiteral("cost_banner"));
    QVERIFY(banner && !banner->isHidden());
    QVERIFY2(banner->text().contains(QStringLiteral("checkpoint storage")), qPrintable(banner->text()));
    document.undoStack()->undo();
    QVERIFY(document.scenario().storage.presetId.empty());
}

void TestCostPanel::overCapacityShowsNoCost()
{
    views::ScenarioDocument document(test::shippedLibrary());
    document.reset(test::overCapacityScenario());
    CostPanel panel(&document);
    const views::ResultsPtr results = test::shippedResults(document.scenario());
    QCOMPARE(results->status, scenario::EvaluationStatus::OverCapacity);
    panel.setResults(results);
    for (const Figure &f : kFigures)
        QCOMPARE(panel.figureText(QString::fromLatin1(f.key)), QStringLiteral("\u2014"));
    for (const char *key : { "goodput", "effective_training_days", "effective_usd_per_million_tokens" })
        QCOMPARE(panel.figureText(QLatin1String(key)), QStringLiteral("\u2014"));
    QVERIFY(panel.statusText().startsWith(QStringLiteral("No cost")));
    QVERIFY(!panel.chart()->message().isEmpty());
    QCOMPARE(panel.chart()->csvRows().size(), 1); // the header only
}

// A design with a part that has no price (here the GPU, its price set to 0) counts it as free:
// the panel's banner says which part, every $ figure is marked incomplete (energy figures are
// not: the GPUs' power still counts), and the gap in dollars says so in its headline. A design
// whose parts all have prices shows no banner.
void TestCostPanel::unpricedPartsAreFlagged()
{
    views::ScenarioDocument document(test::shippedLibrary());
    document.reset(test::shippedScenario(test::kMoeScenario));
    CostPanel panel(&document);
    const views::ResultsPtr priced = test::shippedResults(document.scenario());
    QVERIFY(priced->ok() && priced->cost && priced->cost->bom.complete());
    panel.setResults(priced);
    auto *banner = panel.findChild<QLabel *>(QStringLiteral("cost_banner"));
    QVERIFY(banner);
    QVERIFY(banner->isHidden());
    QVERIFY(!panel.figureText(QStringLiteral("run_usd")).contains(QStringLiteral("incomplete")));

    scenario::Scenario unpriced = document.scenario();
    unpriced.overrides["gpu.price_USD"] = 0;
    const views::ResultsPtr free = test::shippedResults(unpriced);
    QVERIFY(free->ok() && free->cost);
    QCOMPARE(free->cost->bom.unpriced, std::vector<std::string> { "gpus" });
    panel.setResults(free);
    QVERIFY(!banner->isHidden());
    QVERIFY2(banner->text().contains(QStringLiteral("without a price: the GPUs")), qPrintable(banner->text()));
    for (const char *key :
         { "cluster_usd_per_hour", "usd_per_million_tokens", "run_usd", "effective_usd_per_million_tokens" })
        QVERIFY2(panel.figureText(QLatin1String(key)).contains(QStringLiteral("(incomplete)")), key);
    QVERIFY(!panel.figureText(QStringLiteral("joules_per_token")).contains(QStringLiteral("incomplete")));

    views::EfficiencyGapChart chart;
    chart.setResults(free);
    chart.setInDollars(true);
    QVERIFY2(chart.headline().contains(QStringLiteral("without a price: the GPUs")), qPrintable(chart.headline()));
    chart.setResults(priced);
    QVERIFY(!chart.headline().contains(QStringLiteral("Incomplete")));
}

void TestCostPanel::gapInDollarsIsTheModels()
{
    const views::ResultsPtr results = test::shippedResults(test::shippedScenario(test::kMoeScenario));
    QVERIFY(results->ok() && results->cost && results->analysis);
    views::EfficiencyGapChart chart;
    chart.setResults(results);
    QCOMPARE(chart.csvRows().first().at(3), QStringLiteral("from_percent"));
    chart.setInDollars(true);
    const QList<QStringList> rows = chart.csvRows();
    QCOMPARE(rows.first().at(5), QStringLiteral("value_usd"));

    // What each part of a training run costs: the run's cost (cost.runUsd) split as the step
    // time is, so the useful share is MFU x run cost and each loss its fraction of peak x run cost;
    // failures, checkpoints and restarts stretch the run to run cost / goodput, the difference
    // being their loss.
    const double run = results->cost->runUsd;
    QVERIFY(results->goodput && results->goodput->goodput < 1);
    const double goodput = results->goodput->goodput;
    const model::EfficiencyGap &gap = results->analysis->gap;
    int losses = 0;
    double total = 0;
    bool failures = false;
    for (const QStringList &row : rows.mid(1)) {
        const std::string key = row.at(1).toStdString();
        const double value = row.at(5).toDouble();
        if (key == "peak") {
            QVERIFY(std::abs(value - run / goodput) <= 1e-9 * run);
            QCOMPARE(row.at(2), QStringLiteral("Cost of the run with failures"));
            continue;
        }
        if (key == "failures") {
            QVERIFY(std::abs(value - run * (1 / goodput - 1)) <= 1e-9 * run);
            total += value;
            failures = true;
            continue;
        }
        if (key == "mfu") {
            QVERIFY(std::abs(value - gap.mfu * run) <= 1e-9 * run);
            total += value;
            continue;
        }
        const auto loss = std::find_if(gap.losses.begin(), gap.losses.end(),
                                       [&](const model::TimeComponent &l) { return l.key == key; });
        QVERIFY2(loss != gap.losses.end(), key.c_str());
        QVERIFY(std::abs(value - std::abs(loss->seconds) * run) <= 1e-9 * run);
        total += loss->seconds * run;
        ++losses;
    }
    QVERIFY(losses > 0 && failures);
    QVERIFY(std::abs(total - run / goodput)
            <= 1e-6 * run); // the useful share and the losses are the whole run
    QVERIFY(chart.headline().contains(QLatin1Char('$')));

    chart.setInDollars(false);
    QCOMPARE(chart.csvRows().first().at(5), QStringLiteral("value_percent"));
}

QTEST_MAIN(TestCostPanel)
#include "tst_costpanel.moc"
