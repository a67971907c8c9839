// What the main window's words look like on screen. Dock titles carry no ampersand: a dock's
// title bar draws it as written ("Cost && power") while its tab reads it as a mnemonic ("Cost
// _power"). File > Example roadmaps lists each roadmap by the name its file gives itself (read
// here from the shipped files), not by its file name.
#include "mainwindow.h"

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
#include <QTemporaryDir>
#include <QTest>

using namespace gapstudio;

namespace {

QMenu *subMenu(QMenu *menu, const QString &title)
{
    for (QAction *action : menu->actions())
        if (action->menu() && action->menu()->title() == title)
            return action->menu();
    return nullptr;
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
};

QTEST_MAIN(tst_Cosmetics)
#include "tst_cosmetics.moc"
