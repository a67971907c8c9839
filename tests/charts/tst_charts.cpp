// The charts plot exactly what model::Analysis holds, show baselines, survive results without
// stats, and their CSV rows are the plotted values.
#include "chartresults.h"

#include "charts/bandwidthchart.h"
#include "charts/chartformat.h"
#include "charts/chartinteraction.h"
#include "charts/chartspanel.h"
#include "charts/efficiencygapchart.h"
#include "charts/memorychart.h"
#include "charts/steptimechart.h"

#include <qcustomplot.h>

#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <optional>

using namespace gapstudio;
using views::ChartView;
namespace cf = views::chartformat;

namespace {

QCPAbstractPlottable *plottableNamed(QCustomPlot *plot, const QString &name)
{
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (plot->plottable(i)->name() == name)
            return plot->plottable(i);
    return nullptr;
}

/// The value plotted at `key` by `plottable`, if any.
std::optional<double> valueAt(const QCPAbstractPlottable *plottable, double key)
{
    if (!plottable)
        return std::nullopt;
    const QCPPlottableInterface1D *data = const_cast<QCPAbstractPlottable *>(plottable)->interface1D();
    for (int i = 0; i < data->dataCount(); ++i)
        if (data->dataMainKey(i) == key)
            return data->dataMainValue(i);
    return std::nullopt;
}

/// The texts of all text items (labels, messages).
QStringList itemTexts(QCustomPlot *plot)
{
    QStringList texts;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (const auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            texts << text->text();
    return texts;
}

int column(const QList<QStringList> &csv, const QString &name)
{
    return int(csv.front().indexOf(name));
}

/// CSV rows of `run` whose column `keyColumn` equals `key`.
QList<QStringList> csvMatching(const QList<QStringList> &csv, const QString &run, const QString &keyColumn,
                               const QString &key)
{
    QList<QStringList> rows;
    const int runCol = column(csv, QStringLiteral("run")), keyCol = column(csv, keyColumn);
    for (qsizetype i = 1; i < csv.size(); ++i)
        if (csv[i][runCol] == run && csv[i][keyCol] == key)
            rows << csv[i];
    return rows;
}

std::unique_ptr<ChartView> makeChart(const QString &id)
{
    if (id == QLatin1String("step_time"))
        return std::make_unique<views::StepTimeChart>();
    if (id == QLatin1String("bandwidth"))
        return std::make_unique<views::BandwidthChart>();
    if (id == QLatin1String("efficiency_gap"))
        return std::make_unique<views::EfficiencyGapChart>();
    return std::make_unique<views::MemoryChart>();
}

const QStringList kChartIds{QStringLiteral("step_time"), QStringLiteral("bandwidth"),
                            QStringLiteral("efficiency_gap"), QStringLiteral("memory")};

} // namespace

class tst_Charts : public QObject {
    Q_OBJECT

private:
    views::ResultsPtr mDense, mMoe;

    void addCases()
    {
        QTest::addColumn<views::ResultsPtr>("results");
        QTest::newRow("dense gpt3-175B 4096 h100 fp8") << mDense;
        QTest::newRow("moe18 4096 fullflat") << mMoe;
    }

private slots:
    void initTestCase()
    {
        mDense = test::denseResults();
        mMoe = test::moeResults();
        QVERIFY(mDense->hasStats());
        QVERIFY(mMoe->hasStats());
        // The cases exercise what the charts draw: MoE has exposed EP time, both hide some comm.
        const auto seconds = [](const std::vector<model::TimeComponent> &list, const char *key) {
            for (const auto &c : list)
                if (c.key == key)
                    return c.seconds;
            return 0.0;
        };
        QVERIFY(seconds(mMoe->analysis->step.exposed, "ep_exposed") > 0);
        QVERIFY(mDense->analysis->step.total_s > 0);
    }

    void stepTimeBarsAreTheBreakdown_data() { addCases(); }
    void stepTimeBarsAreTheBreakdown()
    {
        QFETCH(views::ResultsPtr, results);
        views::StepTimeChart chart;
        chart.setResults(results);
        const model::StepBreakdown &step = results->analysis->step;
        double stacked_ms = 0;
        for (const model::TimeComponent &c : step.exposed) {
            const auto value = valueAt(plottableNamed(chart.plot(), cf::qs(c.label)), 1.0);
            if (c.seconds == 0) {
                QVERIFY2(!value, c.key.c_str()); // zero components are not drawn
                continue;
            }
            QVERIFY2(value && test::fuzzy(*value, c.seconds * 1e3), c.key.c_str());
            stacked_ms += *value;
        }
        QVERIFY(test::fuzzy(stacked_ms, step.total_s * 1e3, 1e-9)); // the bar ends at the step time
        for (const model::TimeComponent &c : step.hidden) {
            const auto value = valueAt(plottableNamed(chart.plot(), cf::qs(c.label)), 2.0);
            QVERIFY2(c.seconds == 0 ? !value : value && test::fuzzy(*value, c.seconds * 1e3), c.key.c_str());
        }
        QVERIFY(chart.headline().contains(cf::ms(step.total_s)));
        QVERIFY(chart.message().isEmpty());
    }

    void bandwidthBarsAreTheTiers_data() { addCases(); }
    void bandwidthBarsAreTheTiers()
    {
        QFETCH(views::ResultsPtr, results);
        views::BandwidthChart chart;
        chart.setResults(results);
        const auto &tiers = results->analysis->tiers;
        QVERIFY(tiers.size() >= 2);
        const auto *peak = plottableNamed(chart.plot(), QStringLiteral("Peak bandwidth"));
        const auto *achieved = plottableNamed(chart.plot(), QStringLiteral("Achieved bandwidth"));
        const auto *required = plottableNamed(chart.plot(), QStringLiteral("Needed to hide its comm."));
        const bool logScale = chart.plot()->yAxis->scaleType() == QCPAxis::stLogarithmic;
        for (std::size_t i = 0; i < tiers.size(); ++i) {
            const double key = double(i + 1);
            QVERIFY(test::fuzzy(*valueAt(peak, key), tiers[i].peak_Bps / 1e9));
            if (tiers[i].achieved_Bps > 0 || !logScale)
                QVERIFY(test::fuzzy(*valueAt(achieved, key), tiers[i].achieved_Bps / 1e9));
            if (tiers[i].requiredToHide_Bps > 0)
                QVERIFY(test::fuzzy(*valueAt(required, key), tiers[i].requiredToHide_Bps / 1e9));
            const QString busy = QStringLiteral("busy\n%1").arg(cf::percent(tiers[i].busyFraction, 0));
            QVERIFY2(itemTexts(chart.plot()).contains(busy), qPrintable(busy));
        }
    }

    void waterfallAddsUpToPeak_data() { addCases(); }
    void waterfallAddsUpToPeak()
    {
        QFETCH(views::ResultsPtr, results);
        views::EfficiencyGapChart chart;
        chart.setResults(results);
        const model::EfficiencyGap &gap = results->analysis->gap;
        const auto *peak = plottableNamed(chart.plot(), QStringLiteral("Peak"));
        const auto *loss = plottableNamed(chart.plot(), QStringLiteral("Loss"));
        const auto *mfu = plottableNamed(chart.plot(), QStringLiteral("MFU"));
        QVERIFY(peak && loss && mfu);
        QCOMPARE(*valueAt(peak, 1.0), 100.0);
        // Zero losses are left out; the others follow the peak in order, then the MFU.
        const auto shown = std::count_if(gap.losses.begin(), gap.losses.end(), [](auto &l) { return l.seconds != 0; });
        QVERIFY(shown >= 3);
        QCOMPARE(const_cast<QCPAbstractPlottable *>(loss)->interface1D()->dataCount(), int(shown));
        const double mfuKey = double(shown + 2);
        QVERIFY(test::fuzzy(*valueAt(mfu, mfuKey), gap.mfu * 100));
        // Each loss floats on an invisible bar ending where the previous level minus the loss is.
        const auto *spacer = static_cast<const QCPBars *>(loss)->barBelow();
        QVERIFY(spacer);
        double sum = *valueAt(mfu, mfuKey);
        double level = 100;
        double key = 2;
        for (const model::TimeComponent &l : gap.losses) {
            if (l.seconds == 0)
                continue;
            const double lost = *valueAt(loss, key);
            QVERIFY(test::fuzzy(lost, l.seconds * 100));
            QVERIFY(test::fuzzy(*valueAt(spacer, key) + lost, level, 1e-9));
            level -= lost;
            sum += lost;
            ++key;
        }
        QVERIFY2(std::abs(sum - 100.0) <= 1e-9, qPrintable(QString::number(sum, 'g', 17)));
        QVERIFY(std::abs(level - gap.mfu * 100) <= 1e-9); // the last loss lands on the MFU
    }

    // A kernel-efficiency gain (a negative loss: kernels faster than the
    // model's default efficiency, seen with the AMD MI300X) was labelled "--0.32 %", drawn as an
    // invisible bar, and pushed the next bar beyond 100 %. Gains come after the losses, drawn up,
    // "+". The dense results with the kernel loss made a gain of 0.32 % of peak (the bubble takes
    // the difference, so the losses still sum to 1 - MFU).
    void gainIsDrawnAsAGain()
    {
        auto withGain = std::make_shared<views::ScenarioResults>(*mDense);
        auto &losses = withGain->analysis->gap.losses;
        const auto find = [&losses](const char *key) {
            return std::find_if(losses.begin(), losses.end(), [key](const auto &l) { return l.key == key; });
        };
        QVERIFY(find("kernel") != losses.end() && find("bubble") != losses.end());
        find("bubble")->seconds += find("kernel")->seconds + 0.0032;
        find("kernel")->seconds = -0.0032;
        const views::ResultsPtr results = withGain;
        views::EfficiencyGapChart chart;
        chart.setResults(results);
        const auto *loss = static_cast<const QCPBars *>(plottableNamed(chart.plot(), QStringLiteral("Loss")));
        const auto *gain = static_cast<const QCPBars *>(plottableNamed(chart.plot(), QStringLiteral("Gain")));
        QVERIFY(loss && gain);
        for (const QCPBars *bars : { loss, gain }) {
            const QCPBars *spacer = bars->barBelow();
            QVERIFY(spacer);
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
                QVERIFY2(it->value > 0, "every bar is drawn (a positive length)");
                const double top = *valueAt(spacer, it->key) + it->value;
                QVERIFY2(top <= 100.0 + 1e-9, qPrintable(QString::number(top)));
            }
        }
        QCOMPARE(gain->dataCount(), 1);
        QVERIFY(test::fuzzy(gain->data()->constBegin()->value, 0.32));
        QStringList labels;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            if (const auto *text = qobject_cast<QCPItemText *>(chart.plot()->item(i)))
                labels << text->text();
        QVERIFY2(labels.contains(QStringLiteral("+0.32 %")), qPrintable(labels.join(QLatin1Char('|'))));
        for (const QString &label : labels)
            QVERIFY2(!label.contains(QStringLiteral("--")) && !label.contains(QStringLiteral("−-")), qPrintable(label));
    }

    // Every chart zooms and pans (QCustomPlot range drag and zoom) and its right-click
    // menu has Copy image, Export… and Reset zoom, which returns to the ranges drawn.
    void zoomResetsToWhatWasDrawn()
    {
        views::StepTimeChart chart;
        chart.setResults(mDense);
        views::ChartInteraction *interaction = chart.interaction();
        QVERIFY(interaction);
        QVERIFY(chart.plot()->interactions().testFlag(QCP::iRangeZoom));
        QVERIFY(chart.plot()->interactions().testFlag(QCP::iRangeDrag));
        QVERIFY(!interaction->isZoomed());
        const QCPRange drawn = chart.plot()->xAxis->range();
        chart.plot()->xAxis->scaleRange(0.5);
        QVERIFY(interaction->isZoomed());
        std::unique_ptr<QMenu> menu(interaction->createMenu(nullptr));
        QStringList actions;
        QAction *reset = nullptr;
        for (QAction *action : menu->actions()) {
            actions << action->text();
            if (action->objectName() == QLatin1String("resetZoom"))
                reset = action;
        }
        QVERIFY2(reset && reset->isEnabled(), qPrintable(actions.join(QLatin1Char('|'))));
        QVERIFY(actions.size() >= 3);
        reset->trigger();
        QCOMPARE(chart.plot()->xAxis->range().lower, drawn.lower);
        QCOMPARE(chart.plot()->xAxis->range().upper, drawn.upper);
        QVERIFY(!interaction->isZoomed());
    }

    void memoryStackIsTierOne_data() { addCases(); }
    void memoryStackIsTierOne()
    {
        QFETCH(views::ResultsPtr, results);
        views::MemoryChart chart;
        chart.setResults(results);
        const model::MemoryUse &memory = results->analysis->memory;
        double stacked = 0;
        for (const model::TimeComponent &c : memory.tier1) {
            const double value = *valueAt(plottableNamed(chart.plot(), cf::qs(c.label)), 1.0);
            QVERIFY(test::fuzzy(value, c.seconds / cf::kBytesPerGiB));
            stacked += value;
        }
        QVERIFY(test::fuzzy(stacked, memory.tier1Need_B / cf::kBytesPerGiB, 1e-9));
        bool capacityLine = false;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            if (const auto *line = qobject_cast<QCPItemLine *>(chart.plot()->item(i)))
                capacityLine |= test::fuzzy(line->start->coords().y(), memory.tier1Capacity_B / cf::kBytesPerGiB);
        QVERIFY(capacityLine);
        QCOMPARE(memory.tier1Need_B > memory.tier1Capacity_B, chart.headline().contains(QStringLiteral("over")));
    }

    void memoryOverflowIsRed()
    {
        auto over = std::make_shared<views::ScenarioResults>(*mDense);
        over->analysis->memory.tier1Capacity_B = over->analysis->memory.tier1Need_B / 2;
        views::MemoryChart chart;
        chart.setResults(over);
        const QString expected = QStringLiteral("needs %1,\nhas %2")
                                     .arg(cf::gib(over->analysis->memory.tier1Need_B),
                                          cf::gib(over->analysis->memory.tier1Capacity_B));
        QVERIFY2(itemTexts(chart.plot()).contains(expected), qPrintable(itemTexts(chart.plot()).join(u'|')));
        int rects = 0;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            rects += qobject_cast<QCPItemRect *>(chart.plot()->item(i)) != nullptr;
        QCOMPARE(rects, 1);
        chart.setResults(mDense); // within capacity: no overflow box
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            QVERIFY(!qobject_cast<QCPItemRect *>(chart.plot()->item(i)));
    }

    void csvRowsAreTheResults_data() { addCases(); }
    void csvRowsAreTheResults()
    {
        QFETCH(views::ResultsPtr, results);
        const model::Analysis &a = *results->analysis;
        const QString now = QStringLiteral("current");

        views::StepTimeChart step;
        step.setResults(results);
        QList<QStringList> csv = step.csvRows();
        QCOMPARE(csv.front().first(), QStringLiteral("run"));
        QCOMPARE(csv.size(), qsizetype(1 + a.step.exposed.size() + a.step.hidden.size()));
        for (const auto &c : a.step.exposed) {
            const auto rows = csvMatching(csv, now, QStringLiteral("component_key"), cf::qs(c.key));
            QCOMPARE(rows.size(), 1);
            QCOMPARE(rows[0][column(csv, QStringLiteral("time_ms"))].toDouble(), c.seconds * 1e3);
        }

        views::BandwidthChart bandwidth;
        bandwidth.setResults(results);
        csv = bandwidth.csvRows();
        QCOMPARE(csv.size(), qsizetype(1 + a.tiers.size()));
        for (const auto &t : a.tiers) {
            const auto rows = csvMatching(csv, now, QStringLiteral("tier"), cf::qs(t.label));
            QCOMPARE(rows.size(), 1);
            QCOMPARE(rows[0][column(csv, QStringLiteral("bytes_per_step"))].toDouble(), t.bytesPerStep);
            QCOMPARE(rows[0][column(csv, QStringLiteral("achieved_GBps"))].toDouble(), t.achieved_Bps / 1e9);
            QCOMPARE(rows[0][column(csv, QStringLiteral("peak_GBps"))].toDouble(), t.peak_Bps / 1e9);
            QCOMPARE(rows[0][column(csv, QStringLiteral("busy_percent"))].toDouble(), t.busyFraction * 100);
        }

        views::EfficiencyGapChart gap;
        gap.setResults(results);
        csv = gap.csvRows();
        const auto shown = std::count_if(a.gap.losses.begin(), a.gap.losses.end(), [](auto &l) { return l.seconds != 0; });
        QCOMPARE(csv.size(), qsizetype(1 + 1 + shown + 1)); // header, peak, the non-zero losses, MFU
        double sum = 0;
        for (qsizetype i = 2; i < csv.size(); ++i) // every step after "peak": losses, then the MFU
            sum += csv[i][column(csv, QStringLiteral("value_percent"))].toDouble();
        QVERIFY(std::abs(sum - 100.0) <= 1e-9);
        QCOMPARE(csv.back()[column(csv, QStringLiteral("value_percent"))].toDouble(), a.gap.mfu * 100);

        views::MemoryChart memory;
        memory.setResults(results);
        csv = memory.csvRows();
        const auto need = csvMatching(csv, now, QStringLiteral("item_key"), QStringLiteral("need"));
        QVERIFY(!need.isEmpty());
        QCOMPARE(need[0][column(csv, QStringLiteral("GiB"))].toDouble(), a.memory.tier1Need_B / cf::kBytesPerGiB);
        for (const auto &c : a.memory.tier1)
            QCOMPARE(csvMatching(csv, now, QStringLiteral("item_key"), cf::qs(c.key))[0][column(csv, QStringLiteral("GiB"))]
                         .toDouble(),
                     c.seconds / cf::kBytesPerGiB);
    }

    void baselineShowsBothRuns_data()
    {
        QTest::addColumn<QString>("id");
        for (const QString &id : kChartIds)
            QTest::newRow(qPrintable(id)) << id;
    }
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
            QVERIFY2(texts.contains(QRegularExpression(QStringLiteral("\\((\\+|-|±)\\d"))), qPrintable(texts));
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
        for (const auto &[results, key] : {std::pair{mDense, 1.0}, std::pair{mMoe, 2.0}})
            for (const model::TimeComponent &c : results->analysis->step.exposed)
                if (c.seconds > 0) {
                    QVERIFY(test::fuzzy(*valueAt(plottableNamed(chart.plot(), cf::qs(c.label)), key), c.seconds * 1e3));
                    ++checked;
                }
        QVERIFY(checked >= 6); // forward, backward and the bubble at least, in both runs
        const double delta_ms = (mMoe->analysis->step.total_s - mDense->analysis->step.total_s) * 1e3;
        QVERIFY(itemTexts(chart.plot()).join(u'\n').contains(cf::signedNumber(delta_ms) + QStringLiteral(" ms")));
    }

    void withoutStatsShowsTheDiagnostic_data()
    {
        QTest::addColumn<QString>("id");
        for (const QString &id : kChartIds)
            QTest::newRow(qPrintable(id)) << id;
    }
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
    void overCapacityShowsOnlyTheMemory_data()
    {
        QTest::addColumn<QString>("id");
        for (const QString &id : kChartIds)
            QTest::newRow(qPrintable(id)) << id;
    }
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
        const QPointF pixel(chart.plot()->xAxis->coordToPixel(fw.seconds * 1e3 / 2), chart.plot()->yAxis->coordToPixel(1.0));
        const QString tip = chart.toolTipAt(pixel);
        QVERIFY2(tip.contains(cf::ms(fw.seconds)), qPrintable(tip));
        QVERIFY2(tip.contains(cf::percent(fw.seconds / mDense->analysis->step.total_s)), qPrintable(tip));
        QVERIFY(chart.toolTipAt(QPointF(1, 1)).isEmpty());
    }

    void legendFitsTheWidth_data()
    {
        QTest::addColumn<int>("width");
        for (int width : {520, 700, 1000, 1400})
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
            QVERIFY2(item->outerRect().right() <= chart.plot()->width(),
                     qPrintable(QStringLiteral("%1 ends at %2").arg(i).arg(item->outerRect().right())));
        }
        QVERIFY(items >= 10);
        QVERIFY(legend->columnCount() >= 2);
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

QTEST_MAIN(tst_Charts)
#include "tst_charts.moc"
