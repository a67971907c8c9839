// The charts against a baseline, without stats and over memory capacity; their tool tips, the
// legend's fit and the charts panel. What the charts plot: tst_charts.cpp.
#include "chartprobe.h"
#include "chartresults.h"

#include "charts/chartformat.h"
#include "charts/chartspanel.h"
#include "charts/legendtexts.h"

#include <QRegularExpression>
#include <QTest>

using namespace gapstudio;
using test::itemTexts;
using test::kChartIds;
using test::makeChart;
using test::plottableNamed;
using test::valueAt;
using views::ChartView;
namespace cf = views::chartformat;

class tst_ChartStates : public QObject {
    Q_OBJECT

private:
    views::ResultsPtr mDense, mMoe;

    /// One row per chart (column "id").
    static void addChartIds()
    {
        QTest::addColumn<QString>("id");
        for (const QString &id : kChartIds)
            QTest::newRow(qPrintable(id)) << id;
    }

private slots:
    void initTestCase()
    {
        mDense = test::denseResults();
        mMoe = test::moeResults();
        QVERIFY(mDense->hasStats());
        QVERIFY(mMoe->hasStats());
    }

    void baselineShowsBothRuns_data() { addChartIds(); }
    void baselineShowsBothRuns()
    {
        QFETCH(QString, id);
        const auto chart = makeChart(id);
        chart->setResults(mMoe);
        const int alone = chart->plot()->plottableCount();
        const qsizetype aloneRows = chart->csvRows().size();
        chart->setBaseline(mDense);
        QVERIFY(chart->headline().contains(QStringLiteral("baseline")));
        const QList<QStringList> csv = chart->csvRows();
        QVERIFY(csv.size() > aloneRows);
        QStringList runs;
        for (qsizetype i = 1; i < csv.size(); ++i)
            runs << csv[i][0];
        QVERIFY(runs.contains(QStringLiteral("baseline")));
        QVERIFY(runs.contains(QStringLiteral("current")));
        // Differences are annotated ("(+1.2 ms)", "(-3.4 pp)", "(+5.6 GiB)") or in the tool tips.
        if (id != QLatin1String("bandwidth")) {
            const QString texts = itemTexts(chart->plot()).join(u'\n');
            QVERIFY2(texts.contains(QRegularExpression(QStringLiteral("\\((\\+|-|±)\\d"))),
                     qPrintable(texts));
        }
        QVERIFY(chart->plot()->plottableCount() >= alone);
        chart->setBaseline(nullptr);
        QVERIFY(!chart->headline().contains(QStringLiteral("baseline")));
        QCOMPARE(chart->csvRows().size(), aloneRows);
    }

    void stepTimeBaselineBars()
    {
        views::StepTimeChart chart;
        chart.setResults(mMoe);
        chart.setBaseline(mDense);
        // Rows: baseline step (1), current step (2); each component's bar holds both runs.
        int checked = 0; // zero parts have no bar; the others must all be there
        for (const auto &[results, key] : { std::pair { mDense, 1.0 }, std::pair { mMoe, 2.0 } })
            for (const model::TimeComponent &c : results->analysis->step.exposed)
                if (c.seconds > 0) {
                    QVERIFY(test::fuzzy(*valueAt(plottableNamed(chart.plot(), cf::qs(c.label)), key),
                                        c.seconds * 1e3));
                    ++checked;
                }
        QVERIFY(checked >= 6); // forward, backward and the bubble at least, in both runs
        const double delta_ms = (mMoe->analysis->step.total_s - mDense->analysis->step.total_s) * 1e3;
        QVERIFY(
            itemTexts(chart.plot()).join(u'\n').contains(cf::signedNumber(delta_ms) + QStringLiteral(" ms")));
    }

    void withoutStatsShowsTheDiagnostic_data() { addChartIds(); }
    void withoutStatsShowsTheDiagnostic()
    {
        QFETCH(QString, id);
        const views::ResultsPtr none = test::resultsWithoutStats();
        QVERIFY(!none->hasStats());
        QVERIFY(!none->diagnostics.empty());
        const auto chart = makeChart(id);
        chart->setResults(none);
        const QString expected = chart->message();
        QVERIFY(expected.startsWith(QStringLiteral("No results: ")));
        QVERIFY2(expected.contains(cf::qs(none->cause()->message)), qPrintable(expected)); // the reason
        QCOMPARE(chart->plot()->plottableCount(), 0);
        QCOMPARE(chart->csvRows().size(), qsizetype(1));
        QVERIFY(!chart->plot()->toPixmap(600, 400).isNull()); // draws without crashing
        // ... across the whole plot (an empty legend in the layout once squeezed it to ~100 px).
        QVERIFY2(chart->plot()->axisRect()->outerRect().width() > 500,
                 qPrintable(QString::number(chart->plot()->axisRect()->outerRect().width())));

        chart->setBaseline(mDense); // a baseline alone shows nothing either
        QCOMPARE(chart->message(), expected);
        chart->setResults(mDense);
        chart->setBaseline(none); // a baseline without stats is ignored
        QVERIFY(chart->message().isEmpty());
        QVERIFY(chart->plot()->legend->layout()); // the legend is back below the plot
        QVERIFY(chart->plot()->legend->itemCount() > 0);
        QVERIFY(!chart->headline().contains(QStringLiteral("baseline")));
        chart->setResults(nullptr);
        QCOMPARE(chart->message(), QStringLiteral("No results"));
        QCOMPARE(chart->plot()->plottableCount(), 0);
    }

    // A design over memory capacity cannot run: only the memory chart draws it (with the
    // overflow); the others say why, in words, and show no time, bandwidth or MFU.
    void overCapacityShowsOnlyTheMemory_data() { addChartIds(); }
    void overCapacityShowsOnlyTheMemory()
    {
        QFETCH(QString, id);
        const views::ResultsPtr over = test::overCapacityResults();
        QCOMPARE(over->status, scenario::EvaluationStatus::OverCapacity);
        const auto chart = makeChart(id);
        chart->setResults(over);
        if (id == QLatin1String("memory")) {
            QVERIFY(chart->message().isEmpty());
            QVERIFY(chart->plot()->plottableCount() > 0);
            QVERIFY2(itemTexts(chart->plot()).join(u' ').contains(QStringLiteral("80")), "the capacity");
            return;
        }
        QCOMPARE(chart->plot()->plottableCount(), 0);
        QVERIFY2(chart->message().contains(QStringLiteral("does not fit in memory"), Qt::CaseInsensitive),
                 qPrintable(chart->message()));
        QVERIFY2(chart->message().contains(QStringLiteral("80 GiB")), qPrintable(chart->message()));
        QVERIFY(!chart->message().contains(QStringLiteral("MFU")));
        QVERIFY(!chart->headline().contains(QStringLiteral("MFU")));
        chart->setResults(mDense); // an over-capacity baseline is not drawn either
        chart->setBaseline(over);
        QVERIFY(chart->message().isEmpty());
        QVERIFY(!chart->headline().contains(QStringLiteral("baseline")));
    }

    // The part of a bar above capacity has a look of its own, named in the legend: red hatching
    // (the components stay visible beneath it), never a solid tint, which mixed with the
    // activations' yellow into the checkpoints' orange on a design without recompute.
    void overflowHasItsOwnPatternAndLegend()
    {
        const views::ResultsPtr over = test::overCapacityResults();
        views::MemoryChart chart;
        chart.setResults(over);
        QCustomPlot *plot = chart.plot();
        QList<QCPItemRect *> overflow;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *rect = qobject_cast<QCPItemRect *>(plot->item(i)))
                overflow << rect;
        QVERIFY(!overflow.isEmpty());
        auto *key = qobject_cast<QCPBars *>(test::plottableNamed(plot, QStringLiteral("Over capacity")));
        QVERIFY2(key, "no legend entry for the overflow");
        QVERIFY(plot->legend->hasItemWithPlottable(key));
        QCOMPARE(key->dataCount(), 0); // a legend entry only
        for (QCPItemRect *rect : overflow) {
            QCOMPARE(rect->brush(), key->brush());
            QVERIFY(rect->brush().style() != Qt::SolidPattern && rect->brush().style() != Qt::NoBrush);
        }
        // The hatching's colour is no component's.
        for (int i = 0; i < plot->plottableCount(); ++i)
            if (auto *bars = qobject_cast<QCPBars *>(plot->plottable(i)); bars && bars != key)
                QVERIFY2(bars->brush().color().rgb() != key->brush().color().rgb(), qPrintable(bars->name()));
        // A design that fits has no overflow entry.
        chart.setResults(mDense);
        QVERIFY(!test::plottableNamed(chart.plot(), QStringLiteral("Over capacity")));
    }

    void toolTipShowsValueAndShare()
    {
        views::StepTimeChart chart;
        chart.resize(1000, 560);
        chart.setResults(mDense);
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh); // lay out, so pixels are valid
        const model::TimeComponent &fw = mDense->analysis->step.exposed.front();
        QCOMPARE(fw.key, std::string("fw"));
        QVERIFY(fw.seconds > 0);
        // The middle of the forward-compute segment of the step bar (row 1, bars along x).
        const QPointF pixel(chart.plot()->xAxis->coordToPixel(fw.seconds * 1e3 / 2),
                            chart.plot()->yAxis->coordToPixel(1.0));
        const QString tip = chart.toolTipAt(pixel);
        QVERIFY2(tip.contains(cf::ms(fw.seconds)), qPrintable(tip));
        QVERIFY2(tip.contains(cf::percent(fw.seconds / mDense->analysis->step.total_s)), qPrintable(tip));
        QVERIFY(chart.toolTipAt(QPointF(1, 1)).isEmpty());
    }

    void legendFitsTheWidth_data()
    {
        QTest::addColumn<int>("width");
        for (int width : { 520, 700, 1000, 1400 })
            QTest::addRow("%d px", width) << width;
    }
    void legendFitsTheWidth()
    {
        QFETCH(int, width);
        views::StepTimeChart chart; // the longest legend: every component of both runs
        chart.setResults(mMoe);
        chart.setBaseline(mDense);
        chart.resize(width, 420);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QCPLegend *legend = chart.plot()->legend;
        int items = 0;
        for (int i = 0; i < legend->elementCount(); ++i) { // a wrapped grid may have empty cells
            const QCPLayoutElement *item = legend->elementAt(i);
            if (!item)
                continue;
            ++items;
            QVERIFY(qobject_cast<const views::LegendEntry *>(item)); // names laid out once (legendtexts.h)
            QVERIFY2(item->outerRect().right() <= chart.plot()->width(),
                     qPrintable(QStringLiteral("%1 ends at %2").arg(i).arg(item->outerRect().right())));
        }
        QVERIFY(items >= 10);
        QVERIFY(legend->columnCount() >= 2);
    }

    void legendEntriesAreQCustomPlots()
    {
        // A chart's legend entries lay their names out once (legendtexts.h): each entry has the
        // size and the pixels of QCustomPlot's own, its settings and its place in the legend.
        QCustomPlot plot;
        plot.legend->setVisible(true);
        plot.legend->setIconSize(14, 10);
        plot.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        plot.legend->setWrap(3);
        const QStringList names = { QStringLiteral("Forward compute"), QStringLiteral("Backward compute"),
                                    QStringLiteral("DP communication (hidden)"),
                                    QStringLiteral("pin 2: GPT-3 175B on 4096 H100, fp8"),
                                    QStringLiteral("typed <b>not bold</b> & kept") };
        for (int i = 0; i < names.size(); ++i) {
            auto *bars = new QCPBars(plot.xAxis, plot.yAxis);
            bars->setName(names[i]);
            bars->setBrush(QColor::fromHsv(i * 60, 160, 200));
            bars->addData(i, i + 1);
        }
        QCOMPARE(plot.legend->itemCount(), 6); // a 2 x 3 grid, its last cell empty
        QVERIFY(plot.legend->item(1) && plot.legend->item(2) && !plot.legend->item(5));
        plot.legend->item(1)->setTextColor(Qt::red);
        plot.legend->item(2)->setMargins(QMargins(2, 1, 4, 3));
        const auto sizes = [&plot] {
            QList<QSize> all;
            for (int i = 0; i < plot.legend->itemCount(); ++i)
                if (QCPLayoutElement *item = plot.legend->item(i))
                    all << item->minimumOuterSizeHint();
            return all;
        };
        const QList<QSize> before = sizes();
        const QImage drawn = plot.toPixmap(720, 360).toImage();

        views::LegendTexts texts;
        texts.adopt(plot.legend);
        QCOMPARE(plot.legend->itemCount(), 6);
        QList<QCPAbstractLegendItem *> entries;
        for (int i = 0; i < names.size(); ++i) {
            auto *entry = qobject_cast<views::LegendEntry *>(plot.legend->item(i));
            QVERIFY(entry);
            QCOMPARE(entry->plottable()->name(), names[i]);
            QCOMPARE(plot.legend->elementAt(i), entry); // the same cell of the grid
            entries << entry;
        }
        QCOMPARE(plot.legend->item(1)->textColor(), QColor(Qt::red));
        QCOMPARE(sizes(), before);
        QCOMPARE(plot.toPixmap(720, 360).toImage(), drawn);
        // Icons with a border (QCustomPlot's own draw): the border is drawn.
        plot.legend->setIconBorderPen(QPen(Qt::black));
        QVERIFY(plot.toPixmap(720, 360).toImage() != drawn);
        plot.legend->setIconBorderPen(Qt::NoPen);
        texts.adopt(plot.legend); // entries already its own are left
        for (int i = 0; i < names.size(); ++i)
            QCOMPARE(plot.legend->item(i), entries[i]);
        // An entry given a larger font after it was measured measures its name again.
        QCPLayoutElement *first = plot.legend->item(0);
        const int width = first->minimumOuterSizeHint().width();
        QFont larger = plot.legend->item(0)->font();
        larger.setPointSizeF(larger.pointSizeF() * 2);
        plot.legend->item(0)->setFont(larger);
        QVERIFY(first->minimumOuterSizeHint().width() > width + width / 2);
    }

    void panelHoldsTheFourCharts()
    {
        views::ChartsPanel panel;
        QStringList ids;
        for (ChartView *chart : panel.charts()) {
            ids << chart->id();
            QVERIFY(!chart->objectName().isEmpty());
            QVERIFY(!chart->plot()->objectName().isEmpty());
            QCOMPARE(panel.chart(chart->id()), chart);
        }
        QCOMPARE(ids, kChartIds);
        panel.setResults(mMoe);
        panel.setBaseline(mDense);
        for (ChartView *chart : panel.charts()) {
            QCOMPARE(chart->results(), mMoe);
            QCOMPARE(chart->baseline(), mDense);
            QVERIFY(chart->plot()->plottableCount() > 0);
        }
        for (QWidget *child : panel.findChildren<QWidget *>(Qt::FindDirectChildrenOnly))
            QVERIFY(!child->objectName().isEmpty());
    }
};

QTEST_MAIN(tst_ChartStates)
#include "tst_chartstates.moc"
