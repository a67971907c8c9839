// The canvas: a synthetic drag-and-drop of each block kind (DragEnter -> DragMove -> Drop on the
// view's viewport, see gotcha 8 of the style guide) changes the scenario and the results.
#include "studio/blockpalette.h"
#include "studio/canvasitems.h"
#include "studio/canvasscene.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"

#include "gapstudio/io/preset_json.h"

#include <QDirIterator>
#include <QGraphicsItem>
#include <QMimeData>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

using namespace gapstudio;
using namespace gapstudio::views;
using Part = CanvasScene::Part;

Q_DECLARE_METATYPE(gapstudio::views::BlockKind)

class tst_Canvas : public QObject {
    Q_OBJECT

private slots:
    void dropEachBlockKind_data()
    {
        QTest::addColumn<BlockKind>("kind");
        QTest::addColumn<QString>("id");
        QTest::addColumn<Part>("target");
        QTest::addColumn<QString>("field"); // the scenario key the drop must set
        QTest::newRow("gpu onto a domain") << BlockKind::Gpu << "nvidia-b200" << Part::Gpu << "gpu";
        QTest::newRow("interconnect onto the scale-up link")
            << BlockKind::Interconnect << "nvlink5" << Part::ScaleUpLink << "scale_up";
        QTest::newRow("interconnect onto the scale-out link")
            << BlockKind::Interconnect << "infiniband-xdr" << Part::ScaleOutLink << "scale_out";
        // On the default's FullFlat fabric a two-tier topology with the same links times the same;
        // a three-tier one with 256-GPU leaves cannot hold its 512-GPU expert groups.
        QTest::newRow("topology onto the fabric")
            << BlockKind::Topology << "three-tier-8-leaf256-2to1" << Part::Fabric << "topology";
        QTest::newRow("llm anywhere") << BlockKind::Llm << "megatron-1t" << Part::Total << "llm";
        // The other MoE layout equals the default's: the dense case-18 layout (no experts) changes it.
        QTest::newRow("layout anywhere")
            << BlockKind::Layout << "case18-gpt3-175b-4096-fp8" << Part::Llm << "layout";
    }

    void dropEachBlockKind()
    {
        QFETCH(BlockKind, kind);
        QFETCH(QString, id);
        QFETCH(Part, target);
        QFETCH(QString, field);

        ScenarioDocument document(loadStudioLibrary()); // the shipped presets and default
        document.reset(studioDefaultScenario());
        Recalculator recalculator(&document);
        CanvasScene scene(&document);
        CanvasView view(&scene);
        connect(&recalculator, &Recalculator::resultsReady, &scene, &CanvasScene::setResults);
        view.resize(1000, 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        recalculator.recalculateNow();
        const ResultsPtr before = recalculator.latest();

        const QPointF scenePos = scene.partCenter(target);
        QVERIFY2(!scenePos.isNull(), "the canvas draws the target part");
        QCOMPARE(scene.partAt(scenePos), target);
        const QPoint pos = view.mapFromScene(scenePos);
        QMimeData mime;
        mime.setData(QString::fromLatin1(kBlockMimeType), CanvasScene::encodePayload(kind, id));
        QSignalSpy spy(&recalculator, &Recalculator::resultsReady);

        QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view.viewport(), &enter);
        QVERIFY(enter.isAccepted());
        QDragMoveEvent move(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view.viewport(), &move);
        QVERIFY(move.isAccepted());
        QDropEvent drop(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view.viewport(), &drop);

        const scenario::Scenario &s = document.scenario();
        const std::map<QString, std::string> ids = {{"gpu", s.gpu.presetId},       {"scale_up", s.scaleUp.presetId},
                                                    {"scale_out", s.scaleOut.presetId}, {"topology", s.topology.presetId},
                                                    {"llm", s.llm.presetId},       {"layout", s.layout.presetId}};
        QCOMPARE(QString::fromStdString(ids.at(field)), id);
        QCOMPARE(document.undoStack()->count(), 1);
        QTRY_VERIFY(spy.count() >= 1);
        const ResultsPtr after = recalculator.latest();
        QVERIFY(after != before);
        const bool changed = after->hasStats() != before->hasStats() || after->diagnostics.size() != before->diagnostics.size() ||
                             (after->hasStats() && after->analysis->step.total_s != before->analysis->step.total_s);
        QVERIFY2(changed, "the results change with the drop");

        document.undoStack()->undo(); // drops are undoable
        QCOMPARE(scenarioToJsonText(document.scenario()), scenarioToJsonText(before->scenario));
    }

    void dropBlockDirectly()
    {
        ScenarioDocument document(loadStudioLibrary()); // the shipped presets and default
        document.reset(studioDefaultScenario());
        Recalculator recalculator(&document);
        CanvasScene scene(&document);
        recalculator.recalculateNow();
        scene.setResults(recalculator.latest());
        QVERIFY(scene.dropBlock(BlockKind::Interconnect, QStringLiteral("nvlink5"),
                                scene.partCenter(Part::ScaleUpLink)));
        QCOMPARE(document.scenario().scaleUp.presetId, std::string("nvlink5"));
        QVERIFY(!scene.dropBlock(BlockKind::Gpu, QStringLiteral("no-such-gpu"), {}));
        QVERIFY(!scene.dropBlock(BlockKind::Interconnect, QStringLiteral("nvlink5"),
                                 scene.partCenter(Part::ScaleUpLink)));
    }

    // A link dropped on empty canvas went to the scale-out tier whatever its
    // reach. Now it goes to the one tier it can serve (NVLink 5 joins at most 576 GPUs, its
    // preset's max_domain_size: the default's scale-up domain, not its 4096 GPUs), else the user
    // chooses; a drop that breaks the limit anyway is a diagnostic.
    void linkOnEmptyCanvasGoesWhereItIsValid()
    {
        ScenarioDocument document(loadStudioLibrary());
        document.reset(studioDefaultScenario());
        Recalculator recalculator(&document);
        CanvasScene scene(&document);
        recalculator.recalculateNow();
        scene.setResults(recalculator.latest());
        int asked = 0;
        scene.askTier = [&asked](const QString &) -> std::optional<bool> {
            ++asked;
            return false; // scale-out
        };
        const QPointF empty(2, 2);
        QCOMPARE(scene.partAt(empty), Part::None);
        QVERIFY(scene.dropBlock(BlockKind::Interconnect, QStringLiteral("nvlink5"), empty));
        QCOMPARE(asked, 0);
        QCOMPARE(document.scenario().scaleUp.presetId, std::string("nvlink5"));
        QCOMPARE(document.scenario().scaleOut.presetId, std::string("fullflat-cpo"));

        // InfiniBand NDR (65536 GPUs) can serve both tiers: the user is asked.
        QVERIFY(scene.dropBlock(BlockKind::Interconnect, QStringLiteral("infiniband-ndr"), empty));
        QCOMPARE(asked, 1);
        QCOMPARE(document.scenario().scaleOut.presetId, std::string("infiniband-ndr"));
    }

    void linkBeyondItsReachIsADiagnostic()
    {
        ScenarioDocument document(loadStudioLibrary());
        document.reset(studioDefaultScenario());
        Recalculator recalculator(&document);
        CanvasScene scene(&document);
        recalculator.recalculateNow();
        scene.setResults(recalculator.latest());
        QVERIFY(scene.dropBlock(BlockKind::Interconnect, QStringLiteral("nvlink5"),
                                scene.partCenter(Part::ScaleOutLink)));
        QCOMPARE(document.scenario().scaleOut.presetId, std::string("nvlink5"));
        recalculator.recalculateNow();
        const ResultsPtr results = recalculator.latest();
        QVERIFY(!results->hasStats());
        bool found = false;
        for (const model::Diagnostic &d : results->diagnostics)
            if (d.field == "scale_out" && d.message.find("576") != std::string::npos
                && d.message.find("4096") != std::string::npos)
                found = true;
        QVERIFY(found);
    }

    // The canvas zooms (View > Zoom in / out, Ctrl + wheel) within its limits,
    // and Fit the canvas fits it again, never below the readable minimum.
    void cardTextStaysInside()
    {
        // The top row's cards (LLM, layout, GPU count) are sized for a 1280 x 800 window: their
        // text, wrapped to the card's width, stays inside the card for every example design.
        ScenarioDocument document(loadStudioLibrary());
        CanvasScene scene(&document);
        QDirIterator files(QStringLiteral(PRESETS_DIR "/scenarios"), { QStringLiteral("*.gapstudio.json") },
                           QDir::Files, QDirIterator::Subdirectories);
        int designs = 0;
        while (files.hasNext()) {
            const QString file = files.next();
            document.reset(io::loadScenario(file.toStdString()));
            scene.setResults(computeResults(document.scenario(), document.library()));
            int cards = 0;
            for (QGraphicsItem *item : scene.items()) {
                const auto part = static_cast<Part>(item->data(CanvasItems::kPartKey).toInt());
                if (item->parentItem() || (part != Part::Llm && part != Part::Layout && part != Part::Total))
                    continue;
                ++cards;
                for (QGraphicsItem *label : item->childItems())
                    QVERIFY2(label->sceneBoundingRect().bottom() <= item->sceneBoundingRect().bottom(),
                             qPrintable(QStringLiteral("%1: card %2").arg(file).arg(static_cast<int>(part))));
            }
            QCOMPARE(cards, 3);
            ++designs;
        }
        QVERIFY2(designs >= 7, qPrintable(QString::number(designs)));
    }

    void canvasZooms()
    {
        ScenarioDocument document(loadStudioLibrary());
        document.reset(studioDefaultScenario());
        CanvasScene scene(&document);
        CanvasView view(&scene);
        view.resize(1000, 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.fitsAutomatically());
        const double fitted = view.zoom();
        QVERIFY(fitted >= CanvasView::kMinFitZoom);
        view.zoomIn();
        QVERIFY(!view.fitsAutomatically());
        QCOMPARE(view.zoom(), std::min(fitted * 1.25, CanvasView::kMaxZoom));
        for (int i = 0; i < 20; ++i)
            view.zoomOut();
        QCOMPARE(view.zoom(), CanvasView::kMinZoom);
        QWheelEvent wheel(QPointF(500, 320), view.mapToGlobal(QPointF(500, 320)), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view.viewport(), &wheel);
        QVERIFY(view.zoom() > CanvasView::kMinZoom);
        view.fitToView();
        QVERIFY(view.fitsAutomatically());
        QCOMPARE(view.zoom(), fitted);
    }

    void paletteCarriesTheBlockPayload()
    {
        const scenario::PresetLibrary library = loadStudioLibrary();
        BlockPalette palette(library);
        QTreeWidgetItem *gpus = palette.tree()->topLevelItem(0);
        QVERIFY(gpus->childCount() > 0);
        std::unique_ptr<QMimeData> mime(palette.tree()->mimeData(QList<QTreeWidgetItem *>{gpus->child(0)}));
        QVERIFY(mime);
        QVERIFY(mime->hasFormat(QString::fromLatin1(kBlockMimeType)));
        BlockKind kind;
        QString id;
        QVERIFY(CanvasScene::decodePayload(mime->data(QString::fromLatin1(kBlockMimeType)), &kind, &id));
        QCOMPARE(kind, BlockKind::Gpu);
        QVERIFY(library.gpus.contains(id.toStdString()));

        palette.setFilter(QStringLiteral("nvlink"));
        QVERIFY(gpus->isHidden());
        QVERIFY(!palette.tree()->topLevelItem(1)->isHidden());
    }

    void selectingABlockReportsItsPart()
    {
        ScenarioDocument document(loadStudioLibrary()); // the shipped presets and default
        document.reset(studioDefaultScenario());
        Recalculator recalculator(&document);
        CanvasScene scene(&document);
        recalculator.recalculateNow();
        scene.setResults(recalculator.latest());
        QSignalSpy spy(&scene, &CanvasScene::partSelected);
        for (QGraphicsItem *item : scene.items(scene.partCenter(Part::ScaleOutLink)))
            if (item->flags() & QGraphicsItem::ItemIsSelectable) {
                item->setSelected(true);
                break;
            }
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<Part>(), Part::ScaleOutLink);
    }
};

QTEST_MAIN(tst_Canvas)
#include "tst_canvas.moc"
