// "Judge at best layout": the studio's views wired as the main window wires them
// (Recalculator -> BestLayoutPanel -> charts and Key results). Expected values come from the
// model's own two results (the design at its layout, the design at the layout found); the test
// checks that the studio re-optimises after a change, never shows a best layout worse than the
// user's, keeps pinned choices, drops stale searches, and that the efficiency gap's layout-choice
// loss is exactly MFU(best) - MFU(yours) of those two results.
#include "shippedresults.h"

#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "designspace/bestlayoutpanel.h"
#include "designspace/bestlayoutsearch.h"
#include "results/resultstable.h"
#include "studio/scenariodocument.h"

#include <QCheckBox>

#include <QSignalSpy>
#include <QTest>
#include <atomic>
#include <chrono>
#include <thread>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {

constexpr int kSearchTimeoutMs = 60000;

/// One step of the current run in the efficiency-gap chart's CSV: from, to and value, in percent.
struct GapStep {
    double from = 0, to = 0, value = 0;
};

std::optional<GapStep> gapStep(const ChartsPanel &charts, const QString &stepKey)
{
    for (const QStringList &row : charts.chart(QStringLiteral("efficiency_gap"))->csvRows())
        if (row.value(0) == QLatin1String("current") && row.value(1) == stepKey)
            return GapStep { row.value(3).toDouble(), row.value(4).toDouble(), row.value(5).toDouble() };
    return std::nullopt;
}

bool tableHas(const ResultsTable &table, const QString &quantity)
{
    for (int row = 0; row < table.rowCount(); ++row)
        if (table.item(row, 0) && table.item(row, 0)->text() == quantity)
            return true;
    return false;
}

} // namespace

class TestBestLayout : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<ResultsPtr>(); }
    void init()
    {
        mDocument = std::make_unique<ScenarioDocument>(test::shippedLibrary());
        // Megatron 22B on 8 A100 with full recompute (validation case 01): a small search.
        mDocument->resetToExample(test::shippedScenario("val01-megatron-22b-a100.gapstudio.json"));
        mRecalculator = std::make_unique<Recalculator>(mDocument.get());
        mPanel = std::make_unique<BestLayoutPanel>(mDocument.get());
        mCharts = std::make_unique<ChartsPanel>();
        mTable = std::make_unique<ResultsTable>();
        QObject::connect(mRecalculator.get(), &Recalculator::resultsReady, mPanel.get(),
                         [this](const ResultsPtr &r) {
                             mCharts->setResults(r);
                             mTable->showResults(*r);
                             mPanel->setResults(r);
                         });
        mPanel->showIn(mCharts.get(), mTable.get());
        mRecalculator->recalculateNow();
    }
    void cleanup()
    {
        mPanel.reset();
        mRecalculator.reset();
        mDocument.reset();
    }

    void offUntilToggled()
    {
        QVERIFY(!mPanel->search()->isEnabled());
        // Off: the results of init() started no search and no settle timer, so none can come later.
        QVERIFY(!mPanel->search()->isSearching());
        QVERIFY(!mPanel->search()->best());
        QVERIFY(!gapStep(*mCharts, QStringLiteral("layout_choice")));
    }

    void gpuChangeReoptimises()
    {
        mPanel->toggle()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(mPanel->search()->best(), kSearchTimeoutMs);
        const ResultsPtr a100Own = mPanel->search()->own(), a100Best = mPanel->search()->best();
        QCOMPARE(a100Own, mRecalculator->latest());
        // val01 recomputes every activation at TP 8 (one more forward pass per step); 22B fits on
        // 8 A100 without that, so a better layout exists.
        QVERIFY(a100Best->evaluation.stats.sample_rate > a100Own->evaluation.stats.sample_rate);
        checkBestAgainstOwn();

        QVERIFY(mDocument->applyPreset(BlockKind::Gpu, "nvidia-h100-sxm-80gb"));
        // The stale best layout goes at once; a new search runs for the new design.
        QTRY_VERIFY(mRecalculator->latest() != a100Own);
        QTRY_VERIFY_WITH_TIMEOUT(mPanel->search()->best(), kSearchTimeoutMs);
        QCOMPARE(mPanel->search()->own(), mRecalculator->latest());
        QCOMPARE(mPanel->search()->own()->scenario.gpu.presetId, std::string("nvidia-h100-sxm-80gb"));
        // The H100 (989 dense fp16 TFLOP/s against the A100's 312, datasheets) trains faster at its best.
        QVERIFY(mPanel->search()->best()->evaluation.stats.sample_rate
                > a100Best->evaluation.stats.sample_rate);
        checkBestAgainstOwn();
    }

    void changeCancelsRunningSearch()
    {
        // The first search waits until it is cancelled (as the model's search does between tasks).
        std::atomic<int> searches { 0 };
        std::atomic<bool> cancelled { false };
        mPanel->search()->setSearchFunction(
            [&](const scenario::CompiledScenario &compiled, const scenario::BestLayoutOptions &options) {
                if (searches++ > 0)
                    return scenario::findBestLayout(compiled, options);
                while (!options.cancel->load())
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                cancelled = true;
                scenario::BestLayoutResult stopped;
                stopped.cancelled = true;
                return stopped;
            });
        QSignalSpy found(mPanel->search(), &BestLayoutSearch::bestLayoutChanged);
        mPanel->toggle()->setChecked(true);
        QTRY_COMPARE_WITH_TIMEOUT(searches.load(), 1, kSearchTimeoutMs); // a hang guard
        QVERIFY(mPanel->search()->isSearching());
        QVERIFY(mDocument->applyPreset(BlockKind::Gpu, "nvidia-h100-sxm-80gb"));
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.load(), kSearchTimeoutMs); // a hang guard
        QTRY_VERIFY_WITH_TIMEOUT(mPanel->search()->best() && !mPanel->search()->isSearching(),
                                 kSearchTimeoutMs);
        QCOMPARE(searches.load(), 2);
        // Only the newer design got a best layout; the stale search delivered nothing.
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().at(0).value<ResultsPtr>(), mRecalculator->latest());
        QCOMPARE(mPanel->search()->own()->scenario.gpu.presetId, std::string("nvidia-h100-sxm-80gb"));
        checkBestAgainstOwn();
    }

    void pinnedChoiceIsKept()
    {
        const std::int64_t tp = mRecalculator->latest()->compiled->execution.tensorPar;
        QVERIFY(tp > 1); // val01 runs TP 8
        mPanel->findChild<QCheckBox *>(QStringLiteral("keep_tensor_par"))->setChecked(true);
        mPanel->toggle()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(mPanel->search()->best(), kSearchTimeoutMs);
        QCOMPARE(mPanel->search()->best()->compiled->execution.tensorPar, tp);
        checkBestAgainstOwn();
    }

    void offClearsTheLayoutChoice()
    {
        mPanel->toggle()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(mPanel->search()->best(), kSearchTimeoutMs);
        QVERIFY(gapStep(*mCharts, QStringLiteral("layout_choice")));
        mPanel->toggle()->setChecked(false);
        QVERIFY(!mPanel->search()->best());
        QVERIFY(!gapStep(*mCharts, QStringLiteral("layout_choice")));
        QVERIFY(!tableHas(*mTable, QStringLiteral("Layout choice loss")));
    }

private:
    /// The best layout is never worse than the user's, and every view shows the model's numbers.
    void checkBestAgainstOwn()
    {
        const ScenarioResults &own = *mPanel->search()->own(), &best = *mPanel->search()->best();
        QVERIFY(own.ok() && best.ok());
        QVERIFY(best.evaluation.stats.sample_rate >= own.evaluation.stats.sample_rate);
        // Layout choice = MFU(best) - MFU(yours), in percent of peak, as the chart plots it: a loss
        // from the best layout's MFU down to yours.
        const double bestMfu = best.analysis->gap.mfu * 100.0, ownMfu = own.analysis->gap.mfu * 100.0;
        const std::optional<GapStep> choice = gapStep(*mCharts, QStringLiteral("layout_choice"));
        QVERIFY(choice);
        QCOMPARE(choice->value, bestMfu - ownMfu);
        QCOMPARE(choice->from, bestMfu);
        QCOMPARE(choice->to, ownMfu);
        // The waterfall still ends at the user's own MFU.
        QCOMPARE(gapStep(*mCharts, QStringLiteral("mfu"))->value, ownMfu);
        QVERIFY(tableHas(*mTable, QStringLiteral("Layout choice loss")));
        QVERIFY(mPanel->comparisonText().contains(QStringLiteral("Best layout")));
        // The text names where each parallelism communicates, and the offloads when they are on.
        const model::Execution &e = best.compiled->execution;
        const QString text = mPanel->comparisonText();
        if (e.tensorPar > 1)
            QVERIFY2(text.contains(QStringLiteral("tiers TP %1").arg(e.tensorParNet)), qPrintable(text));
        if (e.dataPar > 1)
            QVERIFY2(text.contains(QStringLiteral("DP %1").arg(e.dataParNet)), qPrintable(text));
        QCOMPARE(text.contains(QStringLiteral("offload")),
                 e.weightOffload || e.activationsOffload || e.optimizerOffload
                     || own.compiled->execution.weightOffload || own.compiled->execution.activationsOffload
                     || own.compiled->execution.optimizerOffload);
    }

    std::unique_ptr<ScenarioDocument> mDocument;
    std::unique_ptr<Recalculator> mRecalculator;
    std::unique_ptr<BestLayoutPanel> mPanel;
    std::unique_ptr<ChartsPanel> mCharts;
    std::unique_ptr<ResultsTable> mTable;
};

QTEST_MAIN(TestBestLayout)
#include "tst_bestlayout.moc"
