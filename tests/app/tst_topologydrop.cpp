// A three-tier topology dropped on the canvas of a two-tier design. GPT-3 175B on 4,096 H100
// (TP 8 on tier 0, PP 16 and DP 32 on tier 1) had its layout made infeasible by the new leaves of
// 256 GPUs (PP 16 x DP 32 = 512). The tiers now follow the topology, innermost first in
// Megatron-Core's order: DP 32 fits a leaf (tier 1), PP 16 then needs 512 > 256 and goes to the
// spine (tier 2), TP stays in the domain of 8. The design evaluates, the undo step and the status
// bar say what moved, and one undo takes the drop and the remapping back.
#include "mainwindow.h"

#include "settle.h"
#include "studio/canvasscene.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "studio/studioengine.h"
#include "test_home.h"

#include <QApplication>
#include <QMimeData>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace gapstudio;
using namespace gapstudio::views;

class tst_TopologyDrop : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mHome;

private slots:
    void initTestCase() { QVERIFY(test::useTemporaryHome(mHome, QStringLiteral("tst_topologydrop"))); }

    void threeTierDropRemapsTheTiers()
    {
        MainWindow window(QString {});
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openFile(QStringLiteral(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json"));
        window.recalculator()->recalculateNow();
        test::settle();
        ScenarioDocument *document = window.document();
        const scenario::Scenario before = document->scenario();
        QCOMPARE(before.topology.presetId, std::string("two-tier-8"));
        const ResultsPtr twoTier = window.recalculator()->latest();
        QVERIFY(twoTier && twoTier->ok());
        const int steps = document->undoStack()->count();

        // The drop, as the palette's drag ends on the canvas's fabric.
        CanvasView *view = window.canvasView();
        auto *scene = qobject_cast<CanvasScene *>(view->scene());
        QVERIFY(scene);
        const QPointF target = scene->partCenter(CanvasScene::Part::Fabric);
        QVERIFY(!target.isNull());
        view->centerOn(target);
        test::settle();
        const QPoint pos = view->mapFromScene(target);
        QMimeData mime;
        mime.setData(
            QString::fromLatin1(kBlockMimeType),
            CanvasScene::encodePayload(BlockKind::Topology, QStringLiteral("three-tier-8-leaf256-2to1")));
        QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &enter);
        QVERIFY(enter.isAccepted());
        QDragMoveEvent move(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &move);
        QDropEvent drop(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &drop);
        test::settle();

        QCOMPARE(document->scenario().topology.presetId, std::string("three-tier-8-leaf256-2to1"));
        window.recalculator()->recalculateNow();
        const ResultsPtr threeTier = window.recalculator()->latest();
        QVERIFY(threeTier && threeTier->compiled);
        QVERIFY2(threeTier->ok(), qPrintable(QString::fromStdString(threeTier->statusText)));
        const model::Execution &e = threeTier->compiled->execution;
        QCOMPARE(e.tensorParNet, 0);
        QCOMPARE(e.dataParNet, 1);
        QCOMPARE(e.pipelineParNet, 2);
        QCOMPARE(threeTier->compiled->system.networks.size(), std::size_t(3));

        // Said: one undo step named for both, and the status bar.
        QCOMPARE(document->undoStack()->count(), steps + 1);
        const QString step = document->undoStack()->undoText();
        QVERIFY2(step.contains(QStringLiteral("PP network tier 1 → 2")), qPrintable(step));
        const QString message = window.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("remapped"))
                     && message.contains(QStringLiteral("PP network tier 1 → 2")),
                 qPrintable(message));
        QVERIFY(!message.contains(QStringLiteral("DP network tier"))); // DP stayed on tier 1

        document->undoStack()->undo();
        QVERIFY(document->scenario() == before);
    }
};

QTEST_MAIN(tst_TopologyDrop)
#include "tst_topologydrop.moc"
