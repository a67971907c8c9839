// The main window itself, offscreen: export acts on the chart the user is looking at
// (also with the Explore dock tabbed behind the charts), the design's name reaches the window
// title and the exports, the window fits a small screen, and restored work comes back as its file.
#include "mainwindow.h"

#include "charts/chartexporter.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "report/report.h"
#include "studio/autosaver.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "studio/windowfit.h"

#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QMenu>
#include <QProcess>
#include <QScrollArea>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

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
    void initTestCase()
    {
        QVERIFY(mHome.isValid());
        qputenv("XDG_DATA_HOME", mHome.filePath(QStringLiteral("data")).toUtf8());
        qputenv("XDG_CONFIG_HOME", mHome.filePath(QStringLiteral("config")).toUtf8());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("GapStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
    }

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

    // At 1280 x 800 every dock in front is inside the window and large enough to use.
    void docksFitAt1280x800()
    {
        MainWindow window(QString {});
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(50);
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
        // The primary controls can be used: the first slider of Parameters and TP of Layout are
        // on screen once their dock's scroll area shows them, each wide enough to use.
        for (const QString &name : {QStringLiteral("slider:gpu.compute_scale"), QStringLiteral("layout:tensor_par")}) {
            auto *control = window.findChild<QWidget *>(name);
            QVERIFY2(control, qPrintable(name));
            for (QWidget *w = control->parentWidget(); w; w = w->parentWidget())
                if (auto *scroll = qobject_cast<QScrollArea *>(w)) {
                    scroll->ensureWidgetVisible(control);
                    break;
                }
            QTest::qWait(20);
            QVERIFY2(!control->visibleRegion().isEmpty(), qPrintable(name));
            QVERIFY2(control->visibleRegion().boundingRect().width() >= 60, qPrintable(name));
        }
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
