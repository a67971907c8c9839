// The studio on a small screen (1280 x 800): every dock usable, the canvas opening on the design's
// start with its cards whole, every chart tab shown.
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
#include "studio/partlabel.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "studio/studioengine.h"
#include "studio/windowfit.h"
#include "test_home.h"

#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QFontInfo>
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

} // namespace

class tst_SmallScreen : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mHome; // settings, autosave and user presets of this test only

private slots:
    void initTestCase() { QVERIFY(test::useTemporaryHome(mHome, QStringLiteral("tst_smallscreen"))); }

    // At 1280 x 800 (the Layout dock's TP field once needed scrolling, the canvas text was about
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
        PartLabel *label = nullptr;
        for (QGraphicsItem *item : canvas->scene()->items())
            if (auto *text = qgraphicsitem_cast<PartLabel *>(item))
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

    void windowSizes_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280 x 800") << QSize(1280, 800);
        QTest::newRow("1600 x 1000") << QSize(1600, 1000);
    }

    // At 1280 x 800 and at 1600 x 1000 every chart tab shows in the Charts dock's tab bar, and
    // every Explore tab in the Explore dock's (the calibration note in the corner once left room
    // for two or three tabs and scroll arrows): the note is shortened to the room left, its whole
    // text the tooltip, and it does not overlap the tabs.
    void everyChartTabShows_data() { windowSizes_data(); }
    void everyChartTabShows()
    {
        QFETCH(QSize, size);
        MainWindow window(QString {});
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        test::settle();
        const struct {
            QString dock, tabs, note;
            int count;
        } panels[] = { { QStringLiteral("chartsDock"), QStringLiteral("charts_tabs"),
                         QStringLiteral("charts_calibration"), 4 },
                       { QStringLiteral("exploreDock"), QStringLiteral("exploreTabs"),
                         QStringLiteral("exploreCalibration"), 5 } };
        for (const auto &panel : panels) {
            window.findChild<QDockWidget *>(panel.dock)->raise(); // as a click on the dock's tab
            test::settle();
            auto *tabs = window.findChild<QTabWidget *>(panel.tabs);
            QVERIFY(tabs);
            QCOMPARE(tabs->count(), panel.count);
            const QTabBar *bar = tabs->tabBar();
            for (int i = 0; i < tabs->count(); ++i)
                QVERIFY2(bar->rect().contains(bar->tabRect(i)),
                         qPrintable(QStringLiteral("%1: tab %2 at %3..%4 of a %5 px tab bar")
                                        .arg(panel.tabs, tabs->tabText(i))
                                        .arg(bar->tabRect(i).left())
                                        .arg(bar->tabRect(i).right())
                                        .arg(bar->width())));
            auto *note = window.findChild<QLabel *>(panel.note);
            QVERIFY(note);
            const QString whole = note->toolTip().isEmpty() ? note->text() : note->toolTip();
            QVERIFY2(whole.startsWith(QStringLiteral("Calibration shipped")), qPrintable(whole));
            QVERIFY2(note->text() == whole || note->text().endsWith(QChar(0x2026)), qPrintable(note->text()));
            // The corner does not overlap the tabs.
            const QPoint noteLeft = note->mapTo(tabs, QPoint(0, 0));
            const QRect lastTab = bar->tabRect(tabs->count() - 1).translated(bar->mapTo(tabs, QPoint(0, 0)));
            QVERIFY2(noteLeft.x() > lastTab.right(),
                     qPrintable(QStringLiteral("%1: note at %2, last tab to %3")
                                    .arg(panel.tabs)
                                    .arg(noteLeft.x())
                                    .arg(lastTab.right())));
        }
    }
};

QTEST_MAIN(tst_SmallScreen)
#include "tst_smallscreen.moc"
