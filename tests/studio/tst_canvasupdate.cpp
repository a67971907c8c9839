// The canvas updates its items in place (canvasitems.h): a slider or layout change keeps every
// item and rewrites only the labels whose text changed; a scale-up domain that appears or goes
// adds or removes exactly its own items; and the texts always equal those of a canvas drawn from
// scratch from the same results.
#include "paintedregion.h"
#include "settle.h"
#include "studio/canvasscene.h"
#include "studio/latencybench.h"
#include "studio/partlabel.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"

#include "gapstudio/scenario/override_keys.h"

#include <QGraphicsLineItem>
#include <QGraphicsTextItem>
#include <QPainter>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QTextDocument>

using namespace gapstudio;
using namespace gapstudio::views;
using Part = CanvasScene::Part;

namespace {

QSet<QGraphicsItem *> itemSet(const QGraphicsScene &scene)
{
    const QList<QGraphicsItem *> items = scene.items();
    return { items.begin(), items.end() };
}

constexpr int kMarkKey = 0x7e57; // QGraphicsItem::data key the canvas does not use

/// Marks every item on the canvas and returns them: an item deleted and replaced by a new one
/// (even at the same address) has no mark.
QSet<QGraphicsItem *> markAll(const QGraphicsScene &scene)
{
    for (QGraphicsItem *item : scene.items())
        item->setData(kMarkKey, true);
    return itemSet(scene);
}

/// The items marked by markAll that are still on the canvas.
QSet<QGraphicsItem *> marked(const QGraphicsScene &scene)
{
    QSet<QGraphicsItem *> out;
    for (QGraphicsItem *item : scene.items())
        if (item->data(kMarkKey).toBool())
            out.insert(item);
    return out;
}

/// Compares item sets by pointer and count only: printing a set would touch deleted items.
#define COMPARE_ITEMS(actual, expected)                                                                      \
    do {                                                                                                     \
        const QSet<QGraphicsItem *> a_ = (actual), e_ = (expected);                                          \
        QVERIFY2(a_ == e_, qPrintable(QStringLiteral("%1 items, %2 expected, %3 in common")                  \
                                          .arg(a_.size())                                                    \
                                          .arg(e_.size())                                                    \
                                          .arg(QSet<QGraphicsItem *>(a_).intersect(e_).size())));            \
    } while (false)

/// The label of the first item drawing `part` (bottom-most first, as partCenter finds it).
PartLabel *labelOf(const CanvasScene &scene, Part part)
{
    for (QGraphicsItem *item : scene.items(Qt::AscendingOrder))
        if (item->data(0).isValid() && item->data(0).toInt() == static_cast<int>(part))
            for (QGraphicsItem *child : item->childItems())
                if (auto *text = qgraphicsitem_cast<PartLabel *>(child))
                    return text;
    return nullptr;
}

/// Every text on the canvas with the part it labels, in stacking order.
QStringList texts(const QGraphicsScene &scene)
{
    QStringList out;
    for (QGraphicsItem *item : scene.items(Qt::AscendingOrder))
        if (auto *text = qgraphicsitem_cast<PartLabel *>(item))
            out << QStringLiteral("%1: %2").arg(text->parentItem()->data(0).toInt()).arg(text->toPlainText());
        else if (auto *message = qgraphicsitem_cast<QGraphicsTextItem *>(item))
            out << QStringLiteral("-1: %1").arg(message->toPlainText());
    return out;
}

/// The item and all its descendants.
QSet<QGraphicsItem *> withChildren(QGraphicsItem *item)
{
    QSet<QGraphicsItem *> out { item };
    for (QGraphicsItem *child : item->childItems())
        out.unite(withChildren(child));
    return out;
}

} // namespace

class tst_CanvasUpdate : public QObject {
    Q_OBJECT

private:
    /// The default design, its canvas drawn from the latest results.
    struct Fixture {
        ScenarioDocument document { loadStudioLibrary() };
        Recalculator recalculator { &document };
        CanvasScene scene { &document };
        Fixture()
        {
            document.reset(studioDefaultScenario());
            update();
        }
        void update()
        {
            recalculator.recalculateNow();
            scene.setResults(recalculator.latest());
        }
        /// The texts of a new canvas drawn from scratch from the same results.
        QStringList freshTexts()
        {
            CanvasScene fresh(&document);
            fresh.setResults(recalculator.latest());
            return texts(fresh);
        }
    };

private slots:
    void sliderChangeKeepsItemsAndUpdatesTheLabel()
    {
        Fixture f;
        const QSet<QGraphicsItem *> before = markAll(f.scene);
        PartLabel *label = labelOf(f.scene, Part::ScaleOutLink);
        QVERIFY(label);
        QVERIFY(!label->toPlainText().contains(QStringLiteral("123 GB/s")));

        f.document.setOverride(scenario::keys::kScaleOutBandwidth, 123); // GB/s, as the slider writes it
        f.update();
        QCOMPARE(f.recalculator.latest()->compiled->resolved.scaleOut.bandwidth_Bps, 123e9);
        COMPARE_ITEMS(marked(f.scene), before);  // the same items, none recreated ...
        COMPARE_ITEMS(itemSet(f.scene), before); // ... and none added
        QCOMPARE(labelOf(f.scene, Part::ScaleOutLink), label);
        // The overridden link: "Custom, from <preset>", 123 GB/s (format: studioformat.h).
        QVERIFY2(label->toPlainText().contains(QStringLiteral("123 GB/s")), qPrintable(label->toPlainText()));
        QVERIFY2(label->toPlainText().contains(QStringLiteral("Custom, from")),
                 qPrintable(label->toPlainText()));
        QCOMPARE(texts(f.scene), f.freshTexts());
    }

    void layoutChangeKeepsItemsAndUpdatesTheLabel()
    {
        Fixture f;
        const QSet<QGraphicsItem *> before = markAll(f.scene);
        PartLabel *label = labelOf(f.scene, Part::Layout);
        QVERIFY(label);
        const int microbatch = f.recalculator.latest()->compiled->execution.microbatchSize == 2 ? 4 : 2;

        f.document.editLayout("microbatch_size", [&](model::Execution &e) { e.microbatchSize = microbatch; });
        f.update();
        QCOMPARE(f.recalculator.latest()->compiled->execution.microbatchSize, microbatch);
        COMPARE_ITEMS(marked(f.scene), before);
        COMPARE_ITEMS(itemSet(f.scene), before);
        QCOMPARE(labelOf(f.scene, Part::Layout), label);
        QVERIFY2(label->toPlainText().contains(QStringLiteral("microbatch %1 ·").arg(microbatch)),
                 qPrintable(label->toPlainText()));
        QCOMPARE(texts(f.scene), f.freshTexts());
    }

    // 64-GPU scale-up domains (the default's full-flat topology): 128 GPUs are 2 domains, 256 are 4.
    void domainsAddAndRemoveExactlyTheirItems()
    {
        Fixture f;
        QCOMPARE(f.recalculator.latest()->compiled->resolved.topology.scaleUpDomainSize, 64);
        f.document.setGpuCount(128);
        f.update();
        QVERIFY(f.recalculator.latest()->compiled);
        QCOMPARE(labelOf(f.scene, Part::Total)->toPlainText(),
                 QStringLiteral("128 GPUs\n2 scale-up domains × 64 GPUs"));
        const QSet<QGraphicsItem *> two = markAll(f.scene);

        f.document.setGpuCount(256);
        f.update();
        QCOMPARE(labelOf(f.scene, Part::Total)->toPlainText(),
                 QStringLiteral("256 GPUs\n4 scale-up domains × 64 GPUs"));
        const QSet<QGraphicsItem *> four = itemSet(f.scene);
        COMPARE_ITEMS(marked(f.scene), two); // nothing of domains 1 and 2 (or the rest) recreated
        // What was added: domains 3 and 4, each with its items and its wire to the fabric.
        QSet<QGraphicsItem *> expected;
        int domainsAdded = 0;
        for (QGraphicsItem *item : four - two) {
            if (item->data(0).isValid() && item->data(0).toInt() == static_cast<int>(Part::Domain)) {
                ++domainsAdded;
                expected.unite(withChildren(item));
            } else if (!item->parentItem() && item->type() == QGraphicsLineItem::Type) {
                expected.insert(item);
            }
        }
        QCOMPARE(domainsAdded, 2);
        COMPARE_ITEMS(four - two, expected);
        // Per domain: box + label, GPU block + label, 16 chips (min(64, 16)), scale-up link + label, wire.
        QCOMPARE((four - two).size(), 2 * (2 + 2 + 16 + 2 + 1));
        QCOMPARE(texts(f.scene), f.freshTexts());

        f.document.setGpuCount(128); // (an undo would undo both GPU counts: they merge, like a slider drag)
        f.update();
        COMPARE_ITEMS(marked(f.scene), two); // exactly the items of domains 3 and 4 went
        COMPARE_ITEMS(itemSet(f.scene), two);
        QCOMPARE(texts(f.scene), f.freshTexts());
    }

    // A selected block stays selected through a change that keeps it, without a signal.
    void selectionSurvivesAChange()
    {
        Fixture f;
        QGraphicsItem *link = labelOf(f.scene, Part::ScaleOutLink)->parentItem();
        link->setSelected(true);
        markAll(f.scene);
        QSignalSpy spy(&f.scene, &CanvasScene::partSelected);
        f.document.setOverride(scenario::keys::kScaleOutBandwidth, 77);
        f.update();
        QCOMPARE(f.scene.selectedItems().size(), 1);
        QVERIFY2(f.scene.selectedItems().first()->data(kMarkKey).toBool(), "the same item, not a new one");
        QCOMPARE(f.scene.selectedItems().first(), link);
        QCOMPARE(f.scene.selectedPart(), Part::ScaleOutLink);
        QCOMPARE(spy.count(), 0);
    }

    // An undrawable scenario shows one message instead of the drawing; fixing it draws it again,
    // the same as drawn from scratch.
    void messageReplacesTheDrawingAndBack()
    {
        Fixture f;
        const QStringList drawn = texts(f.scene);
        f.scene.setResults(nullptr);
        QCOMPARE(f.scene.items().size(), 1);
        QVERIFY(texts(f.scene).first().contains(QStringLiteral("does not compile")));
        f.update();
        QCOMPARE(texts(f.scene), drawn);
    }

    // A part's label draws as Qt's rich text draws "<b>title</b><br>body" (a QGraphicsTextItem,
    // what the canvas used before), pixel for pixel: a card, text wrapped in a narrow block, a
    // title alone, lines of a body.
    void aLabelDrawsAsRichText_data()
    {
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("body");
        QTest::addColumn<int>("width");
        QTest::newRow("card") << QStringLiteral("4096 GPUs")
                              << QStringLiteral("64 scale-up domains × 64 GPUs") << 209;
        QTest::newRow("wrapped") << QStringLiteral("Projected future GPU (Tithi et al. 2026)")
                                 << QStringLiteral("× 64 GPUs · 432 GiB HBM") << 130;
        QTest::newRow("title alone") << QStringLiteral("Scale-up domain 1") << QString() << 150;
        QTest::newRow("lines") << QStringLiteral("LLM: GPT-4-class & <friends>")
                               << QStringLiteral("120 layers · hidden 10752\n16 experts, top-2\nthird line")
                               << 240;
    }
    void aLabelDrawsAsRichText()
    {
        QFETCH(QString, title);
        QFETCH(QString, body);
        QFETCH(int, width);
        QGraphicsScene rich, ours;
        auto *reference = new QGraphicsTextItem;
        QString html = QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped());
        if (!body.isEmpty())
            html += QStringLiteral("<br>")
                    + body.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
        reference->setHtml(html);
        const qreal margin = reference->document()->documentMargin();
        reference->setTextWidth(width + 2 * margin);
        rich.addItem(reference);
        auto *label = new PartLabel;
        label->setText(title, body, width);
        label->setPos(margin, margin); // where the document's margin puts its text
        ours.addItem(label);
        QCOMPARE(label->toPlainText(), reference->toPlainText());
        QVERIFY(reference->boundingRect().contains(
            label->boundingRect().translated(margin, margin).adjusted(2, 2, -2, -2)));

        const QRectF area(0, 0, width + 2 * margin, reference->boundingRect().height() + margin);
        const auto drawn = [&area](QGraphicsScene &scene) {
            QImage image(area.size().toSize(), QImage::Format_RGB32);
            image.fill(Qt::white);
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            scene.render(&painter, QRectF(image.rect()), area);
            return image;
        };
        QCOMPARE(drawn(ours), drawn(rich));
    }

    // A slider step that changes a link's figure repaints that label's changed line, not its
    // whole width: the boxes under it are filled again only there (the canvas view's repaint).
    void aNewFigureRepaintsItsLinesOnly()
    {
        Fixture f;
        CanvasView view(&f.scene);
        view.resize(1000, 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        PartLabel *label = labelOf(f.scene, Part::ScaleOutLink);
        QVERIFY(label);
        f.document.setOverride(scenario::keys::kScaleOutBandwidth, 122); // the link now a custom one
        f.update();
        test::settle(); // drawn and painted
        const QString before = label->body();
        test::PaintedRegion painted(view.viewport());
        f.document.setOverride(scenario::keys::kScaleOutBandwidth, 9); // a shorter figure: "9 GB/s"
        f.update();
        QVERIFY(label->body() != before);
        test::settle(); // painted
        // What was painted of this label: its body's line, as long as the longer of the two texts
        // (QFontMetricsF) and a little room for antialiasing, not the label's width.
        const QFontMetricsF metrics(label->font());
        const qreal scale = view.transform().m11();
        const qreal longer
            = std::max(metrics.horizontalAdvance(before), metrics.horizontalAdvance(label->body())) * scale;
        const QRect shownLabel = view.mapFromScene(label->sceneBoundingRect()).boundingRect();
        const QRect inLabel = (painted.region & shownLabel).boundingRect();
        QVERIFY(!inLabel.isEmpty());
        QVERIFY2(inLabel.width() >= longer && inLabel.width() <= longer + 12,
                 qPrintable(QStringLiteral("%1 px repainted for a %2 px line in a %3 px label")
                                .arg(inLabel.width())
                                .arg(longer)
                                .arg(shownLabel.width())));
        QVERIFY(inLabel.height() < metrics.lineSpacing() * scale * 1.5 + 6);
        QVERIFY(inLabel.top() > shownLabel.top() + metrics.lineSpacing() * scale / 2); // below the title
    }

    // --bench-latency: its first line as before, then the canvas's own CPU time per change, a
    // part of the process's (the canvas runs in it, so per change it cannot exceed the total),
    // then the CPU time of finding the best layout again (every tenth change, the first included).
    void latencyBenchReportsTheCanvasShare()
    {
        Fixture f;
        CanvasView view(&f.scene);
        connect(&f.recalculator, &Recalculator::resultsReady, &f.scene, &CanvasScene::setResults);
        view.resize(1000, 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const LatencyReport report = runLatencyBench(&f.document, &f.recalculator, 5, &view);
        QCOMPARE(report.changes, 5);
        QVERIFY(report.hasCanvas);
        QVERIFY(report.canvasCpuMedian_ms > 0);
        QVERIFY2(report.canvasCpuMedian_ms <= report.cpuMedian_ms + 0.05,
                 qPrintable(QStringLiteral("canvas %1 ms, process %2 ms")
                                .arg(report.canvasCpuMedian_ms)
                                .arg(report.cpuMedian_ms)));
        const QStringList lines = report.text().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith(
            QStringLiteral("latency from parameter change to results in the views over 5 changes: ")));
        QVERIFY(lines[0].contains(
            QStringLiteral("CPU time per change (all threads, repaints included): median ")));
        QVERIFY(lines[1].startsWith(QStringLiteral("of which the canvas")));
        QCOMPARE(report.bestLayoutSearches, 1);
        QVERIFY(report.bestLayoutCpuMedian_ms > 0);
        QVERIFY(lines[2].startsWith(QStringLiteral("best layout found again after a change (layout search on "
                                                   "one core, CPU time): median ")));

        const LatencyReport without = runLatencyBench(&f.document, &f.recalculator, 2);
        QVERIFY(!without.hasCanvas);
        const QStringList withoutLines = without.text().split(QLatin1Char('\n'));
        QCOMPARE(withoutLines.size(), 2); // no canvas line
        QCOMPARE(withoutLines[0].left(40), lines[0].left(40));
        QVERIFY(withoutLines[1].startsWith(QStringLiteral("best layout found again")));
    }
};

QTEST_MAIN(tst_CanvasUpdate)
#include "tst_canvasupdate.moc"
