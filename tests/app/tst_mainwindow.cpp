// The main window itself, offscreen: export acts on the chart the user is looking at
// (also with the Explore dock tabbed behind the charts), the design's name reaches the window
// title and the exports, the window fits the screen, a chart enlarges, pinned designs compare, and
// restored work comes back as its file (a small screen: tst_smallscreen).
#include "mainwindow.h"

#include "charts/chartexporter.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "cost/costchart.h"
#include "cost/costpanel.h"
#include "gapstudio/io/preset_json.h"
#include "report/report.h"
#include "results/resultstable.h"
#include "settle.h"
#include "studio/autosaver.h"
#include "studio/canvasscene.h"
#include "studio/layoutrules.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "studio/studioengine.h"
#include "studio/windowfit.h"
#include "test_home.h"

#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QFontInfo>
#include <QGraphicsTextItem>
#include <QImageReader>
#include <QLabel>
#include <QMap>
#include <QMenu>
#include <QProcess>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {
QString firstLine(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readLine()).trimmed();
}

/// The lines of a CSV export without its "# ..." provenance lines: the header first.
QStringList csvLines(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    lines.removeIf([](const QString &line) { return line.startsWith(QLatin1Char('#')); });
    return lines;
}
} // namespace

class tst_MainWindow : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mHome; // settings, autosave and user presets of this test only

private slots:
    void initTestCase() { QVERIFY(test::useTemporaryHome(mHome, QStringLiteral("tst_mainwindow"))); }

    // File > Export chart wrote the Scaling chart while Step time was visible,
    // whenever the Explore dock existed (it is tabbed behind the charts).
    void exportIsTheVisibleChartWithExploreDocked()
    {
        MainWindow window(QString {});
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *explore = window.findChild<QDockWidget *>(QStringLiteral("exploreDock"));
        QVERIFY(explore); // docked, behind the charts
        ChartExporter *exporter = window.chartExporter();
        QTRY_COMPARE(exporter->currentChartId(), QStringLiteral("step_time"));

        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("chart.csv"));
        exporter->askPath = [&csv](const QString &) { return csv; };
        exporter->exportCurrent();
        const QStringList lines = csvLines(csv);
        QVERIFY(lines.size() > 1);
        auto *charts = window.findChild<ChartsPanel *>();
        QVERIFY(charts);
        // The chart's CSV header: the step-time chart's, not the scaling chart's.
        QCOMPARE(lines[0],
                 charts->chart(QStringLiteral("step_time"))->csvRows().first().join(QLatin1Char(',')));

        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("charts_tabs"));
        QVERIFY(tabs);
        tabs->setCurrentWidget(charts->chart(QStringLiteral("memory")));
        QTRY_COMPARE(exporter->currentChartId(), QStringLiteral("memory"));

        explore->raise(); // now the Explore charts are in front
        QTRY_VERIFY(exporter->currentChartId() != QStringLiteral("memory"));
        QWidget *exploreChart = exporter->currentChart();
        QVERIFY(exploreChart && explore->isAncestorOf(exploreChart));
        // The user clicks that chart, then brings the charts back to the front: the Explore chart
        // clicked last is now behind, so the memory chart is the one on screen.
        QWidget *plot = exploreChart->findChild<QWidget *>(exporter->currentChartId() + QStringLiteral("_plot"));
        QVERIFY(plot);
        QTest::mouseClick(plot, Qt::LeftButton, {}, plot->rect().center());
        QCOMPARE(exporter->currentChart(), exploreChart);
        window.findChild<QDockWidget *>(QStringLiteral("chartsDock"))->raise();
        QTRY_COMPARE(exporter->currentChartId(), QStringLiteral("memory"));
    }

    // A renamed design's name in the window title, the chart exports' title and
    // the CSV header's scenario.
    void renameReachesTitleAndExports()
    {
        MainWindow window(QString {});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.document()->setProperties(QStringLiteral("Pod A"), QStringLiteral("Our 2027 cluster"));
        QVERIFY2(window.windowTitle().startsWith(QStringLiteral("Pod A")), qPrintable(window.windowTitle()));

        QTemporaryDir dir;
        QString path = dir.filePath(QStringLiteral("chart.csv"));
        ChartExporter *exporter = window.chartExporter();
        exporter->askPath = [&path](const QString &) { return path; };
        exporter->exportCurrent();
        const QString header = firstLine(path);
        QVERIFY2(header.contains(QStringLiteral("\"name\": \"Pod A\""))
                     || header.contains(QStringLiteral("\"name\":\"Pod A\"")),
                 qPrintable(header));
        QVERIFY(!header.contains(QStringLiteral("GPT-4-class 1.8T MoE on 4096 GPUs")));

        // The report: the design's name as its title, its notes, and no default's name.
        window.recalculator()->recalculateNow();
        const ResultsPtr results = window.recalculator()->latest();
        QCOMPARE(QString::fromStdString(results->scenario.info.name), QStringLiteral("Pod A"));
        const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
        QString error;
        QVERIFY2(writeReport(*results, nullptr, pdf, &error), qPrintable(error));
        const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        if (!tool.isEmpty()) { // poppler-utils: the report's text
            QProcess process;
            process.start(tool, { pdf, QStringLiteral("-") });
            QVERIFY(process.waitForFinished(30000));
            const QString text = QString::fromUtf8(process.readAllStandardOutput()).simplified();
            QVERIFY2(text.contains(QStringLiteral("GapStudio design report Pod A")),
                     qPrintable(text.left(300)));
            QVERIFY(text.contains(QStringLiteral("Our 2027 cluster")));
            QVERIFY(!text.contains(QStringLiteral("GPT-4-class 1.8T MoE on 4096 GPUs")));
            QVERIFY(!text.contains(QStringLiteral("default.gapstudio.json")));
        }

        path = dir.filePath(QStringLiteral("chart.png"));
        exporter->exportCurrent();
        QImageReader png(path);
        QVERIFY2(png.text(QStringLiteral("Title")).contains(QStringLiteral("Pod A")),
                 qPrintable(png.text(QStringLiteral("Title"))));
    }

    // The window opens at a size that fits the screen (95 % of a 1280 x 800
    // screen's available area: 1216 x 760), the preferred 1600 x 1000 on a large one.
    void windowFitsTheScreen()
    {
        QCOMPARE(fittingWindowSize(QRect(0, 0, 1280, 800)), QSize(1216, 760));
        QCOMPARE(fittingWindowSize(QRect(0, 0, 2560, 1440)), QSize(1600, 1000));
        QCOMPARE(fittingWindowSize(QRect()), QSize(1600, 1000));
    }

    // A chart enlarged: the user picks the efficiency-gap tab and clicks Enlarge; a window of its
    // own shows that chart, larger than the docked one, with the same numbers, and follows the
    // design's changes until it is closed.
    void chartEnlarges()
    {
        MainWindow window(QString {});
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        test::settle();
        auto *charts = window.findChild<ChartsPanel *>();
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("charts_tabs"));
        QVERIFY(charts && tabs);
        ChartView *docked = charts->chart(QStringLiteral("efficiency_gap"));
        QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {},
                          tabs->tabBar()->tabRect(tabs->indexOf(docked)).center());
        QCOMPARE(charts->currentChart(), docked);
        auto *enlarge = window.findChild<QToolButton *>(QStringLiteral("enlarge_chart"));
        QVERIFY(enlarge && enlarge->isVisible());
        QTest::mouseClick(enlarge, Qt::LeftButton);
        auto *opened = window.findChild<QWidget *>(QStringLiteral("enlarged_chart"));
        QVERIFY(opened && opened->isWindow() && opened->isVisible());
        QVERIFY(QTest::qWaitForWindowExposed(opened));
        auto *big = opened->findChild<ChartView *>();
        QVERIFY(big);
        QCOMPARE(big->id(), docked->id());
        QVERIFY2(big->width() > docked->width() && big->height() > docked->height(),
                 qPrintable(QStringLiteral("%1 x %2 against %3 x %4")
                                .arg(big->width())
                                .arg(big->height())
                                .arg(docked->width())
                                .arg(docked->height())));
        QCOMPARE(big->csvRows(), docked->csvRows());

        // The design changes: both charts show the new numbers.
        const QList<QStringList> before = docked->csvRows();
        window.document()->setGpuCount(2048);
        QTRY_VERIFY(docked->csvRows() != before);
        QCOMPARE(big->csvRows(), docked->csvRows());
        window.document()->undoStack()->setClean(); // no "save changes?" on close

        opened->close();
        QTRY_VERIFY(!window.findChild<QWidget *>(QStringLiteral("enlarged_chart")));
        window.document()->setGpuCount(4096); // no enlarged chart left to update
        QTRY_VERIFY(docked->csvRows() == before);
        window.document()->undoStack()->setClean();
    }

    // N-way comparison: two designs pinned, a third one current. Key results has one column per
    // design, each equal to that design's own pipeline result (run here separately); the charts
    // compare with the first pin; unpin and clear take the columns away again.
    void pinnedScenariosSideBySide()
    {
        const QStringList files {
            QStringLiteral(PRESETS_DIR "/scenarios/gpt4-moe-4096-h100-hbd8.gapstudio.json"),
            QStringLiteral(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json"),
            QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json")
        };
        MainWindow window(QString {});
        auto *pin = window.findChild<QAction *>(QStringLiteral("pinForComparison"));
        QVERIFY(pin);
        QCOMPARE(pin->text().remove(QLatin1Char('&')), QStringLiteral("Pin for comparison"));
        QStringList names;
        for (qsizetype i = 0; i < files.size(); ++i) {
            window.openFile(files[i]);
            window.recalculator()->recalculateNow();
            names << window.document()->displayName();
            if (i < 2)
                pin->trigger();
        }
        auto *table = window.findChild<ResultsTable *>(QStringLiteral("resultsTable"));
        QVERIFY(table);
        QCOMPARE(table->columnCount(), 4);
        QCOMPARE(table->horizontalHeaderItem(1)->text(), QStringLiteral("Current design"));
        QCOMPARE(table->horizontalHeaderItem(2)->text(), names[0]);
        QCOMPARE(table->horizontalHeaderItem(3)->text(), names[1]);
        // No design's name is cut in its column's header, at the size the window gives the table.
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // Key results in front, as a click on its tab does: a table out of sight is brought up to
        // date only when seen (whenseen.h).
        window.findChild<QDockWidget *>(QStringLiteral("resultsDock"))->raise();
        test::settle();
        const QFontMetrics header(table->horizontalHeader()->font());
        for (int column = 1; column <= 3; ++column) {
            const QString name = table->horizontalHeaderItem(column)->text();
            QVERIFY2(table->horizontalHeader()->sectionSize(column) >= header.horizontalAdvance(name),
                     qPrintable(QStringLiteral("%1: %2 px for %3 px of text")
                                    .arg(name)
                                    .arg(table->horizontalHeader()->sectionSize(column))
                                    .arg(header.horizontalAdvance(name))));
        }

        // Column -> the design it shows: 1 the current (files[2]), 2 and 3 the pins in order.
        const auto library = loadStudioLibrary();
        const int designOf[] = { 2, 0, 1 };
        for (int column = 1; column <= 3; ++column) {
            const scenario::PipelineResult own
                = scenario::runScenario(io::loadScenario(files[designOf[column - 1]].toStdString()), library);
            QVERIFY2(own.ok(), own.statusText.c_str());
            QMap<QString, double> expected, shown;
            for (const model::TimeComponent &c : own.analysis->step.exposed)
                if (c.seconds != 0)
                    expected.insert(QString::fromStdString(c.label), c.seconds);
            for (int row = 0; row < table->rowCount(); ++row)
                if (const QTableWidgetItem *value = table->item(row, column);
                    value && value->data(ResultsTable::kSecondsRole).isValid())
                    shown.insert(table->item(row, 0)->text(),
                                 value->data(ResultsTable::kSecondsRole).toDouble());
            QCOMPARE(shown, expected);
        }

        auto *charts = window.findChild<ChartsPanel *>();
        QVERIFY(charts);
        QVERIFY(charts->charts().front()->baseline());
        QCOMPARE(QString::fromStdString(charts->charts().front()->baseline()->scenario.info.name), names[0]);
        // The Cost and power chart compares with the same pin as the other charts.
        auto *cost = window.findChild<CostPanel *>();
        QVERIFY(cost);
        QVERIFY(cost->chart()->baseline());
        QCOMPARE(QString::fromStdString(cost->chart()->baseline()->scenario.info.name), names[0]);

        // Unpin the first: its column goes, the charts compare with the next pin.
        auto *unpin = window.findChild<QMenu *>(QStringLiteral("unpinMenu"));
        QVERIFY(unpin);
        QCOMPARE(unpin->actions().size(), 2);
        unpin->actions().front()->trigger();
        QCOMPARE(table->columnCount(), 3);
        QCOMPARE(table->horizontalHeaderItem(2)->text(), names[1]);
        QCOMPARE(QString::fromStdString(charts->charts().front()->baseline()->scenario.info.name), names[1]);
        QCOMPARE(QString::fromStdString(cost->chart()->baseline()->scenario.info.name), names[1]);

        window.findChild<QAction *>(QStringLiteral("clearPins"))->trigger();
        QCOMPARE(table->columnCount(), 2);
        QCOMPARE(table->horizontalHeaderItem(1)->text(), QStringLiteral("Value"));
        QVERIFY(!charts->charts().front()->baseline());
        QVERIFY(!cost->chart()->baseline());
        window.document()->undoStack()->setClean(); // no "save changes?" on close
    }

    // A layout that cannot run: Key results says each problem in the Layout panel's words (the
    // field to change and the value that would fit), not in the model's notation.
    void keyResultsSayLayoutProblemsInWords()
    {
        MainWindow window(QString {});
        window.openFile(QStringLiteral(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json"));
        window.document()->setOverride("layout.tensor_par", 7); // divides neither the heads nor the GPUs
        window.recalculator()->recalculateNow();
        const ResultsPtr results = window.recalculator()->latest();
        QVERIFY(results && !results->ok());
        auto *table = window.findChild<ResultsTable *>(QStringLiteral("resultsTable"));
        QVERIFY(table);
        QStringList shown;
        for (int row = 0; row < table->rowCount(); ++row)
            if (const QTableWidgetItem *value = table->item(row, 1))
                shown << value->text();
        const std::vector<LayoutProblem> problems = layoutProblems(*results);
        QVERIFY(!problems.empty());
        for (const LayoutProblem &problem : problems)
            QVERIFY2(shown.contains(problem.text), qPrintable(shown.join(u'|')));
        QVERIFY2(!shown.join(u'|').contains(QStringLiteral("must equal tensor_par")),
                 qPrintable(shown.join(u'|')));
        window.document()->undoStack()->setClean(); // no "save changes?" on close
    }

    // File > Open example: the chosen example becomes the design (grouped by its folder), and the
    // window's title names it.
    void openExampleMakesItTheDesign()
    {
        MainWindow window(QString {});
        auto *examples = window.findChild<QMenu *>(QStringLiteral("exampleMenu"));
        QVERIFY(examples);
        emit examples->aboutToShow(); // as when the user opens it
        QMenu *group = nullptr;
        for (QAction *action : examples->actions())
            if (action->menu() && action->text() == QStringLiteral("Paper GPT3 175B 4096 GPUs"))
                group = action->menu();
        QVERIFY(group);
        QAction *chosen = nullptr;
        for (QAction *action : group->actions())
            if (action->text() == QStringLiteral("GPT-3 175B on 4096 GPUs: Projected GPU, FullFlat"))
                chosen = action;
        QVERIFY(chosen);
        chosen->trigger();
        const scenario::Scenario &s = window.document()->scenario();
        QCOMPARE(s.info.id, std::string("paper-gpt3-4096-future-fullflat"));
        QCOMPARE(s.gpu.presetId, std::string("future-gpu-tithi2026"));
        QCOMPARE(s.topology.presetId, std::string("full-flat"));
        QVERIFY(!window.document()->isModified());
        QVERIFY2(window.windowTitle().startsWith(
                     QStringLiteral("GPT-3 175B on 4096 GPUs: Projected GPU, FullFlat")),
                 qPrintable(window.windowTitle()));
        window.recalculator()->recalculateNow();
        QVERIFY(window.recalculator()->latest()->ok());
    }

    // File > Open recent: a file opened before is listed and opens again.
    void openRecentOpensTheFile()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("recent.gapstudio.json"));
        {
            ScenarioDocument document(loadStudioLibrary());
            document.reset(studioDefaultScenario());
            document.setGpuCount(2048);
            QString error;
            QVERIFY2(document.saveAs(file, &error), qPrintable(error));
        }
        MainWindow window(file); // opened: now the most recent file
        MainWindow other(QString {});
        QCOMPARE(other.document()->scenario().gpuCount, qint64(4096));
        auto *recent = other.findChild<QMenu *>(QStringLiteral("recentFilesMenu"));
        QVERIFY(recent);
        emit recent->aboutToShow();
        QVERIFY(!recent->actions().isEmpty());
        QAction *first = recent->actions().front();
        QCOMPARE(first->toolTip(), QFileInfo(file).absoluteFilePath());
        first->trigger();
        QCOMPARE(other.document()->fileName(), QFileInfo(file).absoluteFilePath());
        QCOMPARE(other.document()->scenario().gpuCount, qint64(2048));
    }

    // Restored work came back "Untitled*" instead of its file.
    void restoredWorkComesBackAsItsFile()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("pod.gapstudio.json"));
        const QString folder = dir.filePath(QStringLiteral("autosave"));
        {
            ScenarioDocument document(loadStudioLibrary());
            document.reset(studioDefaultScenario());
            QString error;
            QVERIFY2(document.saveAs(file, &error), qPrintable(error));
            AutoSaver saver(&document, nullptr, folder);
            document.setGpuCount(2048); // unsaved work
            QVERIFY(saver.saveNow());
        } // the session ends without a clean exit: the autosave stays
        ScenarioDocument document(loadStudioLibrary());
        AutoSaver saver(&document, nullptr, folder);
        const QList<Recovery> recoveries = saver.recoveries();
        QCOMPARE(recoveries.size(), 1);
        QString error;
        QVERIFY2(saver.restore(recoveries.front(), &error), qPrintable(error));
        QCOMPARE(document.fileName(), file);
        QVERIFY(document.isModified());
        QCOMPARE(document.scenario().gpuCount, qint64(2048));
        saver.discard();
        QVERIFY(saver.recoveries().isEmpty());
    }
};

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"
