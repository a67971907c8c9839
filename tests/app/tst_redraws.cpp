// Work for what is on screen only (views/common/whenseen.h, PlotChart::requestDraw): after a change
// of the design in the shown main window, the chart in front is drawn, but a chart on a tab behind
// it, Explore's sensitivity, variants and domain-size sweeps (a dock's tab behind Charts) and Key
// results (behind Diagnostics) are not. Each shows the current design once the user clicks its
// tab, equal to the same view made on its own for the same results. Block parameters write a part's
// rows over those shown.
#include "mainwindow.h"

#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "explore/explorepanel.h"
#include "explore/variantschart.h"
#include "results/resultstable.h"
#include "settle.h"
#include "studio/blockinspector.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "test_home.h"

#include "gapstudio/scenario/override_keys.h"

#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {

/// Clicks the tab named `text` of whichever tab bar of `window` has it (a dock's or a panel's).
bool clickTab(QWidget *window, const QString &text)
{
    for (QTabBar *bar : window->findChildren<QTabBar *>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == text && bar->isVisible()) {
                QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(i).center());
                test::settle();
                return true;
            }
    return false;
}

/// The table's cells, row by row.
QStringList cells(const QTableWidget &table)
{
    QStringList all;
    for (int row = 0; row < table.rowCount(); ++row)
        for (int column = 0; column < table.columnCount(); ++column)
            all << (table.item(row, column) ? table.item(row, column)->text() : QString());
    return all;
}

} // namespace

class tst_Redraws : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mHome;

private slots:
    void initTestCase() { QVERIFY(test::useTemporaryHome(mHome, QStringLiteral("tst_redraws"))); }

    void hiddenViewsWaitUntilTheirTabIsClicked()
    {
        MainWindow window(QString {});
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.recalculator()->recalculateNow();
        test::settle();
        auto *charts = window.findChild<ChartsPanel *>();
        auto *explore = window.findChild<ExplorePanel *>();
        auto *keyResults = window.findChild<ResultsTable *>(QStringLiteral("resultsTable"));
        QVERIFY(charts && explore && keyResults);
        ChartView *stepTime = charts->charts().at(0);
        ChartView *bandwidth = charts->charts().at(1);
        QCOMPARE(stepTime->id(), QStringLiteral("step_time"));
        QCOMPARE(bandwidth->id(), QStringLiteral("bandwidth"));

        // A slider step: the step-time chart in front is drawn; the hidden views are not.
        const int stepDraws = stepTime->draws(), bandwidthDraws = bandwidth->draws();
        const int sweeps = explore->fastChartUpdates();
        const QStringList keyBefore = cells(*keyResults);
        window.document()->setOverride(scenario::keys::kScaleOutBandwidth, 123);
        window.recalculator()->recalculateNow();
        test::settle();
        const ResultsPtr latest = window.recalculator()->latest();
        QVERIFY(latest && latest->ok());
        QCOMPARE(stepTime->draws(), stepDraws + 1);
        QCOMPARE(bandwidth->draws(), bandwidthDraws);
        QCOMPARE(explore->fastChartUpdates(), sweeps);
        QCOMPARE(cells(*keyResults), keyBefore);

        // Bandwidth per tier clicked: drawn once, as a chart of its own draws the same results.
        QVERIFY(clickTab(&window, QStringLiteral("Bandwidth per tier")));
        QCOMPARE(bandwidth->draws(), bandwidthDraws + 1);
        ChartsPanel fresh;
        fresh.setResults(latest);
        QCOMPARE(bandwidth->csvRows(), fresh.charts().at(1)->csvRows());
        QCOMPARE(bandwidth->headline(), fresh.charts().at(1)->headline());

        // Key results clicked (Diagnostics in front): the current design's rows.
        QVERIFY(clickTab(&window, QStringLiteral("Key results")));
        ResultsTable table;
        table.showResults(*latest);
        QCOMPARE(cells(*keyResults), cells(table));
        QVERIFY(cells(*keyResults) != keyBefore);

        // Explore, then its Variants tab: the sweeps of the current design, computed once.
        QVERIFY(clickTab(&window, QStringLiteral("Explore")));
        QVERIFY(clickTab(&window, QStringLiteral("Variants")));
        QCOMPARE(explore->fastChartUpdates(), sweeps + 1);
        const model::SweepPoint *designed = explore->variantsChart()->designPoint();
        QVERIFY(designed && designed->evaluation.ok);
        QCOMPARE(designed->evaluation.stats.total_time, latest->evaluation.stats.total_time);
    }

    void blockParametersWriteOverTheRowsShown()
    {
        // The inspector writes a part's rows over those shown (no rebuild per change): after a
        // part with many rows, a part with fewer shows exactly its own, as a fresh inspector does.
        MainWindow window(QString {});
        window.recalculator()->recalculateNow();
        const ResultsPtr latest = window.recalculator()->latest();
        QVERIFY(latest && latest->ok());
        BlockInspector shown, fresh;
        shown.setResults(latest);
        fresh.setResults(latest);
        shown.setPart(CanvasScene::Part::Gpu);
        const int gpuRows = shown.rowCount();
        for (const CanvasScene::Part part :
             { CanvasScene::Part::Layout, CanvasScene::Part::Gpu, CanvasScene::Part::Total }) {
            shown.setPart(part);
            fresh.setPart(part);
            QCOMPARE(cells(shown), cells(fresh));
        }
        QVERIFY(gpuRows > fresh.rowCount());

        // Editable rows (the LLM's, with a document) are left as they are when a change elsewhere
        // in the design (a slider of the scale-out link) leaves them reading the same.
        BlockInspector llm;
        llm.setDocument(window.document());
        llm.setPart(CanvasScene::Part::Llm);
        llm.setResults(latest);
        QVERIFY(llm.isEditable(QStringLiteral("Hidden size")));
        QSignalSpy rewritten(&llm, &QTableWidget::itemChanged);
        window.document()->setOverride(scenario::keys::kScaleOutBandwidth, 77);
        window.recalculator()->recalculateNow();
        llm.setResults(window.recalculator()->latest());
        QCOMPARE(rewritten.count(), 0);
    }
};

QTEST_MAIN(tst_Redraws)
#include "tst_redraws.moc"
