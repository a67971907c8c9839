// What the main window's words look like on screen. Dock titles carry no ampersand: a dock's
// title bar draws it as written ("Cost && power") while its tab reads it as a mnemonic ("Cost
// _power"). File > Example roadmaps lists each roadmap by the name its file gives itself (read
// here from the shipped files), not by its file name. The Explore dock, brought in front at the
// window's default size and on a small screen, shows each chart's placeholder whole and the
// Sensitivity chart's parameter names apart.
#include "mainwindow.h"

#include "explore/explorechart.h"
#include "explore/tornadochart.h"
#include "settle.h"
#include "test_home.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

using namespace gapstudio;

namespace {

QMenu *subMenu(QMenu *menu, const QString &title)
{
    for (QAction *action : menu->actions())
        if (action->menu() && action->menu()->title() == title)
            return action->menu();
    return nullptr;
}

/// Where a text item is drawn, in its plot's pixels (its padding included).
QRectF drawnBox(const QCPItemText *item)
{
    return QRectF(item->topLeft->pixelPosition(), item->bottomRight->pixelPosition()).normalized();
}

/// The main window at `size` with the Explore dock in front, as a click on its tab brings it: the
/// Explore charts' tabs.
QTabWidget *exploreInFront(MainWindow &window, QSize size)
{
    window.resize(size);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return nullptr;
    test::settle();
    auto *dock = window.findChild<QDockWidget *>(QStringLiteral("exploreDock"));
    if (!dock)
        return nullptr;
    dock->raise();
    test::settle();
    return window.findChild<QTabWidget *>(QStringLiteral("exploreTabs"));
}

} // namespace

class tst_Cosmetics : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mHome;

private slots:
    void initTestCase()
    {
        QVERIFY(test::useTemporaryHome(mHome, QStringLiteral("tst_cosmetics")));
        qputenv("GAPSTUDIO_PRESETS", PRESETS_DIR); // the shipped presets, as the files read below
    }

    void dockTitlesHaveNoAmpersand()
    {
        MainWindow window(QString {});
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QList<QDockWidget *> docks = window.findChildren<QDockWidget *>();
        QVERIFY(docks.size() >= 8);
        for (QDockWidget *dock : docks)
            QVERIFY2(!dock->windowTitle().contains(QLatin1Char('&')), qPrintable(dock->windowTitle()));
    }

    void exampleRoadmapsByTheirNames()
    {
        QSet<QString> names;
        const QDir folder(QStringLiteral(PRESETS_DIR "/roadmaps"));
        for (const QString &file :
             folder.entryList({ QStringLiteral("*.gapstudio-roadmap.json") }, QDir::Files)) {
            QFile f(folder.filePath(file));
            QVERIFY(f.open(QIODevice::ReadOnly));
            names << QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("name")).toString();
        }
        QVERIFY(names.size() >= 2);

        MainWindow window(QString {});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QMenu *file = nullptr;
        for (QAction *action : window.menuBar()->actions())
            if (action->menu() && action->text() == QStringLiteral("&File"))
                file = action->menu();
        QVERIFY(file);
        QMenu *examples = subMenu(file, QStringLiteral("Example road&maps"));
        QVERIFY(examples);
        examples->popup(window.geometry().center()); // the user opens it: it lists what it finds
        test::settle();
        QSet<QString> listed;
        for (QAction *action : examples->actions())
            listed << action->text();
        examples->close();
        QCOMPARE(listed, names);
    }

    void windowSizes_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1600 x 1000") << QSize(1600, 1000);
        QTest::newRow("1280 x 800") << QSize(1280, 800);
    }

    // Each Explore chart that has nothing to show yet ("Run sweeps to see how throughput scales…")
    // shows its whole message once its tab is clicked: the message was once centred on a plot area
    // that the empty legend had narrowed to the chart's left fifth, and cut at its left edge ("ee
    // how throughput").
    void explorePlaceholdersWhole_data() { windowSizes_data(); }
    void explorePlaceholdersWhole()
    {
        QFETCH(QSize, size);
        MainWindow window(QString {});
        QTabWidget *tabs = exploreInFront(window, size);
        QVERIFY(tabs);
        int placeholders = 0;
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i); // as a click on the tab
            test::settle();
            auto *chart = qobject_cast<views::ExploreChart *>(tabs->currentWidget());
            QVERIFY(chart);
            if (chart->message().isEmpty())
                continue;
            ++placeholders;
            QCustomPlot *plot = chart->plot();
            plot->replot(QCustomPlot::rpImmediateRefresh);
            QList<QCPItemText *> texts;
            for (int k = 0; k < plot->itemCount(); ++k)
                if (auto *text = qobject_cast<QCPItemText *>(plot->item(k)); text && text->visible())
                    texts << text;
            QCOMPARE(texts.size(), 1); // the message
            const QRectF box = drawnBox(texts.front());
            QVERIFY2(QRectF(plot->rect()).contains(box),
                     qPrintable(QStringLiteral("%1: \"%2\" drawn at x %3..%4 in a %5 px plot")
                                    .arg(tabs->tabText(i), texts.front()->text())
                                    .arg(box.left())
                                    .arg(box.right())
                                    .arg(plot->width())));
        }
        QVERIFY(placeholders >= 1); // the scaling chart waits for Run sweeps
    }

    // The Sensitivity chart names each hardware parameter on its left axis with the design's value
    // under it; at the dock's size the names were drawn over each other. Every label keeps clear of
    // its neighbours.
    void sensitivityLabelsApart_data() { windowSizes_data(); }
    void sensitivityLabelsApart()
    {
        QFETCH(QSize, size);
        MainWindow window(QString {});
        QTabWidget *tabs = exploreInFront(window, size);
        QVERIFY(tabs);
        auto *chart = tabs->findChild<views::TornadoChart *>();
        QVERIFY(chart);
        tabs->setCurrentWidget(chart); // as a click on "Sensitivity"
        test::settle();
        QVERIFY2(chart->message().isEmpty(), qPrintable(chart->message()));
        QCustomPlot *plot = chart->plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QCPAxis *axis = plot->yAxis;
        auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QVERIFY(ticker->ticks().size() >= 6);
        const QFontMetrics metrics(axis->tickLabelFont());
        struct Label {
            QString text;
            double top, bottom;
        };
        QList<Label> labels;
        for (auto it = ticker->ticks().constBegin(); it != ticker->ticks().constEnd(); ++it) {
            const double centre = axis->coordToPixel(it.key());
            const double height = metrics.boundingRect(QRect(), Qt::AlignCenter, it.value()).height();
            labels.push_back({ it.value(), centre - height / 2, centre + height / 2 });
        }
        std::sort(labels.begin(), labels.end(), [](const Label &a, const Label &b) { return a.top < b.top; });
        const QRect area = plot->axisRect()->rect();
        for (qsizetype i = 0; i < labels.size(); ++i) {
            const Label &l = labels.at(i);
            QVERIFY2(l.top >= area.top() - 1 && l.bottom <= area.bottom() + 1,
                     qPrintable(QStringLiteral("\"%1\" at %2..%3 outside the plot's %4..%5")
                                    .arg(l.text)
                                    .arg(l.top)
                                    .arg(l.bottom)
                                    .arg(area.top())
                                    .arg(area.bottom())));
            if (i > 0)
                QVERIFY2(labels.at(i - 1).bottom <= l.top,
                         qPrintable(QStringLiteral("\"%1\" (to %2) over \"%3\" (from %4)")
                                        .arg(labels.at(i - 1).text)
                                        .arg(labels.at(i - 1).bottom)
                                        .arg(l.text)
                                        .arg(l.top)));
        }
    }
};

QTEST_MAIN(tst_Cosmetics)
#include "tst_cosmetics.moc"
