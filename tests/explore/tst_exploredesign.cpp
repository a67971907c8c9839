// Explore agrees with the design: for the shipped dense design (GPT-3 175B on
// 4096 H100, fp8, TP overlap ring) and the MoE default, "this design" in every Explore chart is
// the studio's own evaluation of the design, and the sweeps search with the design's settings, so
// the best layout at the design's GPU count and at its TP x PP is at least as fast as the design;
// the scaling chart's goodput under failures is the pipeline's at the design's own point.
#include "shippedresults.h"

#include "explore/domainsweepchart.h"
#include "explore/explorepanel.h"
#include "explore/heatmapchart.h"
#include "explore/scalingchart.h"
#include "explore/tornadochart.h"
#include "explore/variantschart.h"
#include "varianttexts.h"

#include "gapstudio/scenario/cost.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTest>

using namespace gapstudio;

namespace {

/// Bit for bit the same statistics as the design's own evaluation.
bool sameStats(const model::Stats &a, const model::Stats &b)
{
    bool same = true;
    const auto fields = [](const model::Stats &s) {
        std::vector<double> v;
        s.forEachMoe([&v](std::string_view, double x) { v.push_back(x); });
        return v;
    };
    const std::vector<double> x = fields(a), y = fields(b);
    for (std::size_t i = 0; i < x.size(); ++i)
        same = same && (x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i])));
    return same;
}

} // namespace

class tst_ExploreDesign : public QObject {
    Q_OBJECT

private slots:
    void thisDesignIsTheDesign_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::newRow("dense gpt3-175b fp8") << QString::fromLatin1(test::kDenseScenario);
        QTest::newRow("moe default") << QString::fromLatin1(test::kMoeScenario);
    }
    void thisDesignIsTheDesign()
    {
        QFETCH(QString, scenario);
        const views::ResultsPtr studio = test::shippedResults(test::shippedScenario(scenario.toStdString()));
        QVERIFY2(studio->ok(), studio->statusText.c_str());
        const model::Stats &own = studio->evaluation.stats;
        const model::Execution &layout = studio->compiled->execution;

        views::ExplorePanel panel;
        panel.setResults(studio);
        QCOMPARE(panel.designResults(), studio);

        // The fast charts: the tornado's base, the "as designed" variant, the domain sweep's point
        // at the design's own domain size.
        QVERIFY(panel.tornadoChart()->designStats());
        QVERIFY(sameStats(*panel.tornadoChart()->designStats(), own));
        const model::SweepPoint *variant = panel.variantsChart()->designPoint();
        QVERIFY(variant && variant->evaluation.ok);
        QVERIFY(sameStats(variant->evaluation.stats, own));
        const model::SweepPoint *domain = panel.domainSweepChart()->designPoint();
        QVERIFY(domain && domain->evaluation.ok);
        QCOMPARE(domain->x, static_cast<double>(studio->compiled->system.networks.front().size));
        QVERIFY(sameStats(domain->evaluation.stats, own));

        // The sweeps: the design's own point in the scaling curve and the heatmap.
        QSignalSpy finished(&panel, &views::ExplorePanel::sweepsFinished);
        panel.runSweeps();
        QVERIFY(finished.wait(600000) || finished.count() == 1);
        const views::ScalingChart *scaling = panel.scalingChart();
        QVERIFY2(scaling->message().isEmpty(), qPrintable(scaling->message()));
        QVERIFY(scaling->designPoint() && scaling->designPoint()->x == static_cast<double>(layout.numProcs));
        QVERIFY(sameStats(scaling->designPoint()->evaluation.stats, own));
        const views::HeatmapChart *heatmap = panel.heatmapChart();
        QVERIFY2(heatmap->message().isEmpty(), qPrintable(heatmap->message()));
        QVERIFY(heatmap->designPoint() && sameStats(heatmap->designPoint()->evaluation.stats, own));

        // What the scaling chart plots as this design is that sample rate.
        bool plotted = false;
        for (int i = 0; i < scaling->plot()->graphCount(); ++i) {
            QCPGraph *graph = scaling->plot()->graph(i);
            if (graph->name().startsWith(QStringLiteral("This design"))) {
                QCOMPARE(graph->data()->size(), 1);
                QCOMPARE(graph->data()->at(0)->key, static_cast<double>(layout.numProcs));
                QCOMPARE(graph->data()->at(0)->value, own.sample_rate);
                plotted = true;
            }
        }
        QVERIFY(plotted);

        // Goodput under failures: "this design" has the pipeline's own (scenarioGoodput over the
        // cost's bill of materials), and each GPU count's, computed for its best layout on a
        // cluster of that many GPUs, falls as the count grows (more parts fail, the same model
        // to checkpoint); the effective throughput drawn is the throughput times it.
        QVERIFY(studio->goodput && studio->goodput->valid);
        const QList<QStringList> csv = scaling->csvRows();
        QCOMPARE(csv.first().mid(8),
                 (QStringList { QStringLiteral("goodput"), QStringLiteral("effective_samples_per_s") }));
        QCOMPARE(csv.last().at(7), QStringLiteral("this design"));
        QCOMPARE(csv.last().at(8).toDouble(), studio->goodput->goodput);
        QCOMPARE(csv.last().at(9).toDouble(), own.sample_rate * studio->goodput->goodput);
        QCPGraph *effective = nullptr;
        for (int i = 0; i < scaling->plot()->graphCount(); ++i)
            if (scaling->plot()->graph(i)->name().startsWith(QStringLiteral("Effective throughput")))
                effective = scaling->plot()->graph(i);
        QVERIFY(effective);
        double previous = 2;
        int drawn = 0;
        for (std::size_t i = 0; i < scaling->points().size(); ++i) {
            const model::SweepPoint &point = scaling->points()[i];
            if (!point.evaluation.ok)
                continue;
            const double goodput = scaling->goodput(i).goodput;
            QVERIFY2(goodput > 0 && goodput < previous, qPrintable(QString::number(point.x)));
            previous = goodput;
            QCOMPARE(effective->data()->at(int(i))->value, point.evaluation.stats.sample_rate * goodput);
            ++drawn;
        }
        QVERIFY(drawn >= 2);
        // At the design's GPU count and with its own layout, the goodput is the pipeline's.
        const model::GoodputResult at
            = scenario::scenarioGoodputAt(*studio->compiled, layout, studio->evaluation);
        QCOMPARE(at.goodput, studio->goodput->goodput);
        QCOMPARE(at.effectiveTokensPerSecond, studio->goodput->effectiveTokensPerSecond);

        // The searches keep the design's settings (TP overlap, communication, ...), so its layout
        // is among those searched: the best at its GPU count and in its TP x PP cell is at least
        // as fast. (A search with TP overlap "none" finds 1291 samples/s where the dense design,
        // with ring overlap, runs 1401.)
        const auto bestAtCount = std::find_if(
            scaling->points().begin(), scaling->points().end(),
            [&](const model::SweepPoint &p) { return p.x == static_cast<double>(layout.numProcs); });
        QVERIFY(bestAtCount != scaling->points().end() && bestAtCount->evaluation.ok);
        QVERIFY2(bestAtCount->evaluation.stats.sample_rate >= own.sample_rate,
                 qPrintable(QStringLiteral("best %1 < design %2")
                                .arg(bestAtCount->evaluation.stats.sample_rate)
                                .arg(own.sample_rate)));
        const views::explore::HeatmapData &data = heatmap->data();
        const auto column = std::find(data.tps.begin(), data.tps.end(), layout.tensorPar);
        const auto row = std::find(data.pps.begin(), data.pps.end(), layout.pipelinePar);
        QVERIFY(column != data.tps.end() && row != data.pps.end());
        const auto &cell = data.cell(static_cast<std::size_t>(row - data.pps.begin()),
                                     static_cast<std::size_t>(column - data.tps.begin()));
        if (cell) {
            QVERIFY2(
                cell->stats.sample_rate >= own.sample_rate,
                qPrintable(
                    QStringLiteral("cell %1 < design %2").arg(cell->stats.sample_rate).arg(own.sample_rate)));
        } else { // not among the search's top hits kept: the cell is at most the threshold
            QVERIFY(!data.exhaustive);
            QVERIFY(own.sample_rate <= data.threshold);
        }
        const model::Execution &best = *bestAtCount->layout;
        QCOMPARE(best.tensorParOverlap,
                 best.tensorPar > 1 ? layout.tensorParOverlap : model::TpOverlap::None);
        QCOMPARE(best.dataParOverlap, best.dataPar > 1 && layout.dataParOverlap);
        QCOMPARE(best.tensorParCommType, layout.tensorParCommType);
    }

    // The studio's default design runs on a FullFlat fabric: its Explore > Variants chart calls it
    // full-flat, never two-tier, and draws no "full-flat fabric" bar beside it (that variant is the
    // design itself; the CSV keeps the model's row).
    void variantsNameTheDesignsFabric()
    {
        const views::ResultsPtr studio = test::shippedResults(test::shippedScenario(test::kMoeScenario));
        QVERIFY2(studio->ok(), studio->statusText.c_str());
        QVERIFY(studio->compiled->resolved.topology.kind == scenario::TopologyKind::FullFlat);
        views::ExplorePanel panel;
        panel.setResults(studio);
        const views::VariantsChart &chart = *panel.variantsChart();
        QVERIFY(chart.message().isEmpty());
        const QStringList texts = test::categoryTexts(chart);
        QVERIFY2(texts.contains(QStringLiteral("full-flat (as designed)")), qPrintable(texts.join(u'|')));
        QVERIFY(texts.contains(QStringLiteral("Fabric: full-flat (as designed)")));
        for (const QString &text : texts)
            QVERIFY2(!text.contains(QStringLiteral("two-tier")), qPrintable(text));
        QVERIFY(!chart.keyOf(QStringLiteral("full-flat fabric")));
        QVERIFY(chart.keyOf(QStringLiteral("as designed")));
        const QList<QStringList> rows = chart.csvRows();
        QVERIFY(std::any_of(rows.begin(), rows.end(), [](const QStringList &row) {
            return row.front() == QStringLiteral("full-flat fabric");
        }));
    }
};

QTEST_MAIN(tst_ExploreDesign)
#include "tst_exploredesign.moc"
