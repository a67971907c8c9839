// The main window itself, offscreen: export acts on the chart the user is looking at
// (also with the Explore dock tabbed behind the charts), the design's name reaches the window
// title and the exports, the window fits a small screen, and restored work comes back as its file.
#include "mainwindow.h"

#include "charts/chartexporter.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "cost/costchart.h"
#include "cost/costpanel.h"
#include "gapstudio/io/preset_json.h"
#include "report/report.h"
#include "results/resultstable.h"
#include "studio/autosaver.h"
#include "studio/canvasscene.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "studio/studioengine.h"
#include "studio/windowfit.h"
#include "settle.h"
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

/// Whether all of `widget` lies inside each of its ancestors up to `top` (a scroll area's viewport
/// included): nothing of it is cut off.
bool unclipped(const QWidget *widget, const QWidget *top)
{
    const QRect area(widget->mapTo(top, QPoint(0, 0)), widget->size());
    for (const QWidget *w = widget->parentWidget(); w && w != top; w = w->parentWidget())
        if (!QRect(w->mapTo(top, QPoint(0, 0)), w->size()).contains(area))
            return false;
    return top->rect().contains(area);
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

    // At 1280 x 800 (issue: the Layout dock's TP field needed scrolling, the canvas text was about
    // 5 px): every dock in front is inside the window and large enough to use; each dock's primary
    // controls are on screen without scrolling once their dock is in front (raised from its tab),
    // with a usable size, and do not overlap each other; the canvas text is readable.
    void docksFitAt1280x800()
    {
        MainWindow window(QString {});
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        test::settle();
        QCOMPARE(window.size(), QSize(1280, 800));
        int inFront = 0;
        for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
            if (!dock->isVisible() || dock->visibleRegion().isEmpty())
                continue; // on a tab behind another
            ++inFront;
            const QRect area = dock->geometry();
            QVERIFY2(window.rect().contains(area), qPrintable(dock->objectName()));
            QVERIFY2(area.width() >= 180 && area.height() >= 120, qPrintable(QStringLiteral("%1: %2 x %3")
                                                                                 .arg(dock->objectName())
                                                                                 .arg(area.width())
                                                                                 .arg(area.height())));
        }
        QVERIFY(inFront >= 4);

        // Each dock's primary controls, by the dock that holds them.
        const QList<QPair<QString, QStringList>> primary {
            { QStringLiteral("paletteDock"),
              { QStringLiteral("paletteFilter"), QStringLiteral("paletteTree") } },
            { QStringLiteral("parametersDock"),
              { QStringLiteral("slider:gpu.compute_scale"),
                QStringLiteral("slider:gpu.hbm_bandwidth_GBps") } },
            { QStringLiteral("layoutDock"),
              { QStringLiteral("layout:tensor_par"), QStringLiteral("layout:pipeline_par"),
                QStringLiteral("layout:data_par"), QStringLiteral("layout:expert_par") } },
            { QStringLiteral("diagnosticsDock"), { QStringLiteral("diagnosticsList") } },
            { QStringLiteral("resultsDock"), { QStringLiteral("resultsTable") } },
            { QStringLiteral("chartsDock"),
              { QStringLiteral("charts_tabs"), QStringLiteral("step_time_plot") } },
        };
        struct Placed {
            QWidget *widget;
            QDockWidget *dock;
            QRect area; ///< in window coordinates
        };
        QList<Placed> placed;
        for (const auto &[dockName, controls] : primary) {
            auto *dock = window.findChild<QDockWidget *>(dockName);
            QVERIFY2(dock, qPrintable(dockName));
            dock->raise(); // in front of its tab group, as a click on its tab does
            test::settle();
            for (const QString &name : controls) {
                auto *control = dock->findChild<QWidget *>(name);
                QVERIFY2(control, qPrintable(name));
                const QRect area(control->mapTo(&window, QPoint(0, 0)), control->size());
                const QString where = QStringLiteral("%1 in %2: %3 x %4 at %5, %6")
                                          .arg(name, dockName)
                                          .arg(area.width())
                                          .arg(area.height())
                                          .arg(area.x())
                                          .arg(area.y());
                QVERIFY2(control->isVisibleTo(&window) && !control->visibleRegion().isEmpty(),
                         qPrintable(where));
                // Whole: not cut by its scroll area's viewport, its dock or the window (no scrolling needed).
                QVERIFY2(unclipped(control, &window), qPrintable(where));
                QVERIFY2(control->width() >= 60 && control->height() >= 12, qPrintable(where));
                placed.append({ control, dock, area });
            }
        }
        // Controls overlap neither each other nor another dock's controls (a control inside another,
        // such as a chart in the charts' tabs, and docks on tabs of one group aside).
        for (qsizetype i = 0; i < placed.size(); ++i)
            for (qsizetype j = i + 1; j < placed.size(); ++j) {
                const Placed &a = placed[i], &b = placed[j];
                if (a.widget->isAncestorOf(b.widget) || b.widget->isAncestorOf(a.widget)
                    || window.tabifiedDockWidgets(a.dock).contains(b.dock))
                    continue;
                QVERIFY2(!a.area.intersects(b.area),
                         qPrintable(a.widget->objectName() + QStringLiteral(" overlaps ")
                                    + b.widget->objectName()));
            }

        // The canvas text at the default zoom: a block's label is drawn at least 9 px high.
        CanvasView *canvas = window.canvasView();
        QGraphicsTextItem *label = nullptr;
        for (QGraphicsItem *item : canvas->scene()->items())
            if (auto *text = qgraphicsitem_cast<QGraphicsTextItem *>(item); text && text->parentItem())
                label = text;
        QVERIFY(label);
        const double drawn_px = QFontInfo(label->font()).pixelSize() * canvas->transform().m11();
        QVERIFY2(drawn_px >= 9.0, qPrintable(QStringLiteral("block labels drawn at %1 px").arg(drawn_px)));
    }

    // At 1280 x 800 the first launch shows where the design starts: its LLM, layout and GPU-count
    // cards whole in the canvas, their text inside them (the view once opened on the middle of the
    // drawing, all cut off), and View > Fit the canvas (Ctrl+0) brings them back after scrolling.
    void canvasOpensOnTheDesignsStart()
    {
        MainWindow window(QString {});
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        test::settle();
        CanvasView *canvas = window.canvasView();
        const auto cardsInView = [canvas](QString *why) {
            int cards = 0;
            for (QGraphicsItem *item : canvas->scene()->items()) {
                const auto part = static_cast<CanvasScene::Part>(item->data(CanvasItems::kPartKey).toInt());
                if (item->parentItem()
                    || (part != CanvasScene::Part::Llm && part != CanvasScene::Part::Layout
                        && part != CanvasScene::Part::Total))
                    continue;
                ++cards;
                // The card's text is laid out inside the card, not past its bottom edge.
                for (QGraphicsItem *label : item->childItems())
                    if (label->sceneBoundingRect().bottom() > item->sceneBoundingRect().bottom()) {
                        *why = QStringLiteral("card %1's text runs %2 below it")
                                   .arg(static_cast<int>(part))
                                   .arg(label->sceneBoundingRect().bottom()
                                        - item->sceneBoundingRect().bottom());
                        return false;
                    }
                const QRect shown = canvas->mapFromScene(item->sceneBoundingRect()).boundingRect();
                if (!canvas->viewport()->rect().contains(shown)) {
                    *why = QStringLiteral("card %1 at %2, %3 (%4 x %5) outside the %6 x %7 canvas")
                               .arg(static_cast<int>(part))
                               .arg(shown.x())
                               .arg(shown.y())
                               .arg(shown.width())
                               .arg(shown.height())
                               .arg(canvas->viewport()->width())
                               .arg(canvas->viewport()->height());
                    return false;
                }
            }
            *why = QStringLiteral("%1 cards").arg(cards);
            return cards == 3;
        };
        QString why;
        QVERIFY2(cardsInView(&why), qPrintable(why));

        // Scrolled away, then the menu's Fit the canvas, by its shortcut.
        canvas->horizontalScrollBar()->setValue(canvas->horizontalScrollBar()->maximum());
        canvas->verticalScrollBar()->setValue(canvas->verticalScrollBar()->maximum());
        QAction *fit = nullptr;
        for (QAction *action : window.findChildren<QAction *>())
            if (action->shortcut() == QKeySequence(QStringLiteral("Ctrl+0")))
                fit = action;
        QVERIFY(fit);
        QCOMPARE(fit->text(), QStringLiteral("&Fit the canvas"));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(canvas->viewport(), Qt::Key_0, Qt::ControlModifier);
        test::settle();
        QVERIFY2(cardsInView(&why), qPrintable(why));
    }

    // At 1280 x 800 every chart tab shows in the Charts dock's tab bar (the calibration note in its
    // corner once left room for one tab and scroll arrows): the note is shortened to the room left,
    // its whole text the tooltip.
    void everyChartTabShowsAt1280x800()
    {
        MainWindow window(QString {});
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        test::settle();
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("charts_tabs"));
        QVERIFY(tabs);
        QCOMPARE(tabs->count(), 4);
        const QTabBar *bar = tabs->tabBar();
        for (int i = 0; i < tabs->count(); ++i)
            QVERIFY2(bar->rect().contains(bar->tabRect(i)),
                     qPrintable(QStringLiteral("tab %1 at %2..%3 of a %4 px tab bar")
                                    .arg(tabs->tabText(i))
                                    .arg(bar->tabRect(i).left())
                                    .arg(bar->tabRect(i).right())
                                    .arg(bar->width())));
        auto *note = window.findChild<QLabel *>(QStringLiteral("charts_calibration"));
        QVERIFY(note);
        const QString whole = window.findChild<ChartsPanel *>()->calibrationNote();
        QVERIFY(whole.startsWith(QStringLiteral("Calibration shipped")));
        QVERIFY2(note->text() == whole || (note->text().endsWith(QChar(0x2026)) && note->toolTip() == whole),
                 qPrintable(note->text()));
        // The corner does not overlap the tabs.
        const QPoint noteLeft = note->mapTo(tabs, QPoint(0, 0));
        const QRect lastTab = bar->tabRect(tabs->count() - 1).translated(bar->mapTo(tabs, QPoint(0, 0)));
        QVERIFY2(noteLeft.x() > lastTab.right(), qPrintable(QString::number(noteLeft.x())));
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
