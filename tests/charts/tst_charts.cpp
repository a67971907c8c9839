// The charts plot exactly what model::Analysis holds (bars, waterfall, memory stack) and their
// CSV rows are the plotted values. Zoom: tst_chartzoom.cpp. Baselines, results without stats,
// tool tips, the legend and the panel: tst_chartstates.cpp.
#include "chartprobe.h"
#include "chartresults.h"

#include "charts/chartformat.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace gapstudio;
using test::column;
using test::csvMatching;
using test::itemTexts;
using test::plottableNamed;
using test::valueAt;
namespace cf = views::chartformat;

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

    // A tier's category names it and the parallelisms on it, from the analysis' fields (not from
    // its label): a network tier nobody uses is named alone, and the offload tier whole (its
    // label's "(offload)" is part of its name, not a user).
    void bandwidthTicksNameTierAndUsers()
    {
        auto results = std::make_shared<views::ScenarioResults>(*mDense);
        std::vector<model::TierUsage> &tiers = results->analysis->tiers;
        QVERIFY(tiers.size() >= 2 && tiers[0].name == "Network tier 0" && !tiers[0].users.empty());
        tiers[0].users.clear();
        tiers[0].label = tiers[0].name + " (unused)";
        model::TierUsage offload;
        offload.name = offload.label = "Tier-2 memory (offload)";
        offload.peak_Bps = 100e9;
        tiers.push_back(offload);
        views::BandwidthChart chart;
        chart.setResults(results);
        const auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(chart.plot()->xAxis->ticker());
        QVERIFY(ticker);
        const QStringList ticks = ticker->ticks().values();
        QVERIFY2(ticks.contains(QStringLiteral("Network tier 0")),
                 qPrintable(ticks.join(QStringLiteral(" | "))));
        QVERIFY2(ticks.contains(QStringLiteral("Tier-2 memory (offload)")),
                 qPrintable(ticks.join(QStringLiteral(" | "))));
        QStringList users;
        for (const std::string &user : tiers[1].users)
            users << QString::fromStdString(user);
        QVERIFY2(ticks.contains(
                     QStringLiteral("Network tier 1\nused by %1").arg(users.join(QStringLiteral(", ")))),
                 qPrintable(ticks.join(QStringLiteral(" | "))));
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
        // One more loss after the MFU: failures, checkpoints and restarts (the results' goodput).
        QVERIFY(results->goodput && results->goodput->goodput < 1);
        QCOMPARE(const_cast<QCPAbstractPlottable *>(loss)->interface1D()->dataCount(), int(shown) + 1);
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
        // After the MFU, the work that failures take (the MFU times 1 - goodput) floats down from
        // it to the effective MFU, the MFU over the wall time.
        const double failuresKey = mfuKey + 1, effectiveKey = mfuKey + 2;
        const double mfuPercent = gap.mfu * 100, kept = mfuPercent * results->goodput->goodput;
        QVERIFY(test::fuzzy(*valueAt(loss, failuresKey), mfuPercent - kept, 1e-9));
        QVERIFY(test::fuzzy(*valueAt(spacer, failuresKey), kept, 1e-9));
        QVERIFY(test::fuzzy(*valueAt(mfu, effectiveKey), kept, 1e-9));
        QVERIFY(chart.headline().contains(cf::percent(kept / 100)));
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

    // The step time's and the MFU's likely ranges are error bars from t e^-sigma to t e^+sigma of
    // each run's own interval (sigma from the model; the ends computed here), on the current run
    // and on a pin, with a tool tip at the whisker; results without an interval draw none.
    void likelyRangesAreErrorBars()
    {
        const auto expectBars
            = [](QCustomPlot *plot, const std::vector<std::pair<double, double>> &valueAndSigma) {
                  QCPErrorBars *bars = nullptr;
                  for (int i = 0; i < plot->plottableCount(); ++i)
                      if (auto *found = qobject_cast<QCPErrorBars *>(plot->plottable(i)))
                          bars = found;
                  if (valueAndSigma.empty())
                      return bars == nullptr;
                  if (!bars || bars->dataCount() != int(valueAndSigma.size()))
                      return false;
                  for (int i = 0; i < bars->dataCount(); ++i) {
                      const auto [value, sigma] = valueAndSigma[std::size_t(i)];
                      const QCPErrorBarsData &e = bars->data()->at(i);
                      if (!test::fuzzy(bars->dataMainValue(i), value, 1e-12)
                          || !test::fuzzy(e.errorMinus, value * (1 - std::exp(-sigma)), 1e-12)
                          || !test::fuzzy(e.errorPlus, value * (std::exp(sigma) - 1), 1e-12))
                          return false;
                  }
                  return true;
              };
        const double denseSigma = mDense->interval->sigma, moeSigma = mMoe->interval->sigma;
        QVERIFY(denseSigma > 0.01 && moeSigma > 0.01 && std::abs(denseSigma - moeSigma) > 0.01);
        const double dense_ms = mDense->analysis->step.total_s * 1e3,
                     moe_ms = mMoe->analysis->step.total_s * 1e3;
        const double denseMfu = mDense->analysis->gap.mfu * 100, moeMfu = mMoe->analysis->gap.mfu * 100;

        views::StepTimeChart step;
        step.setResults(mMoe);
        QVERIFY(expectBars(step.plot(), { { moe_ms, moeSigma } }));
        step.resize(1000, 560);
        step.show(); // laid out, so pixels are valid
        QVERIFY(QTest::qWaitForWindowExposed(&step));
        step.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QPointF whiskerEnd(step.plot()->xAxis->coordToPixel(moe_ms * std::exp(moeSigma)),
                                 step.plot()->yAxis->coordToPixel(1.0));
        const QString tip = step.toolTipAt(whiskerEnd);
        const double moe_s = mMoe->analysis->step.total_s;
        QVERIFY2(tip.contains(cf::ms(moe_s * std::exp(-moeSigma)))
                     && tip.contains(cf::ms(moe_s * std::exp(moeSigma))),
                 qPrintable(tip));
        QVERIFY(step.headline().contains(cf::ms(moe_s * std::exp(moeSigma))));
        step.setBaseline(mDense); // the pin's bar first, each with its own range
        QVERIFY(expectBars(step.plot(), { { dense_ms, denseSigma }, { moe_ms, moeSigma } }));

        views::EfficiencyGapChart gap;
        gap.setResults(mMoe);
        QVERIFY(expectBars(gap.plot(), { { moeMfu, moeSigma } }));
        QVERIFY(gap.headline().contains(cf::percent(mMoe->analysis->gap.mfu * std::exp(moeSigma))));
        gap.setBaseline(mDense);
        QVERIFY(expectBars(gap.plot(), { { denseMfu, denseSigma }, { moeMfu, moeSigma } }));

        auto without = std::make_shared<views::ScenarioResults>(*mMoe);
        without->interval.reset();
        step.setBaseline(nullptr);
        step.setResults(without);
        QVERIFY(expectBars(step.plot(), {}));
        gap.setBaseline(nullptr);
        gap.setResults(without);
        QVERIFY(expectBars(gap.plot(), {}));
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
        QVERIFY(results->interval); // both cases run the corrected model with the shipped calibration
        // header, every component of both bars, the likely range's two ends
        QCOMPARE(csv.size(), qsizetype(1 + a.step.exposed.size() + a.step.hidden.size() + 2));
        for (const auto &c : a.step.exposed) {
            const auto rows = csvMatching(csv, now, QStringLiteral("component_key"), cf::qs(c.key));
            QCOMPARE(rows.size(), 1);
            QCOMPARE(rows[0][column(csv, QStringLiteral("time_ms"))].toDouble(), c.seconds * 1e3);
        }
        // The likely range's ends: t e^-sigma and t e^+sigma, in ms.
        const double sigma = results->interval->sigma, t_ms = a.step.total_s * 1e3;
        const auto rangeEnd = [&](const char *key) {
            const auto rows
                = csvMatching(csv, now, QStringLiteral("component_key"), QString::fromLatin1(key));
            return rows.size() == 1 ? rows[0][column(csv, QStringLiteral("time_ms"))].toDouble() : -1.0;
        };
        QVERIFY(test::fuzzy(rangeEnd("step_time_low"), t_ms * std::exp(-sigma), 1e-12));
        QVERIFY(test::fuzzy(rangeEnd("step_time_high"), t_ms * std::exp(sigma), 1e-12));

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
        // header, peak, the non-zero losses, MFU, failures and checkpoints, effective MFU, the
        // MFU's likely range
        QCOMPARE(csv.size(), qsizetype(1 + 1 + shown + 1 + 2 + 1));
        QCOMPARE(csv.back()[column(csv, QStringLiteral("step_key"))], QStringLiteral("mfu_likely_range"));
        // From mfu e^-sigma to mfu e^+sigma, in percent of peak.
        const double mfu = a.gap.mfu * 100;
        QVERIFY(test::fuzzy(csv.back()[column(csv, QStringLiteral("from_percent"))].toDouble(),
                            mfu * std::exp(-sigma), 1e-12));
        QVERIFY(test::fuzzy(csv.back()[column(csv, QStringLiteral("to_percent"))].toDouble(),
                            mfu * std::exp(sigma), 1e-12));
        csv.removeLast();
        const int value = column(csv, QStringLiteral("value_percent"));
        double sum = 0;
        for (qsizetype i = 2; i < csv.size() - 2; ++i) // every step after "peak": losses, then the MFU
            sum += csv[i][value].toDouble();
        QVERIFY(std::abs(sum - 100.0) <= 1e-9);
        const qsizetype mfuRow = csv.size() - 3;
        QCOMPARE(csv[mfuRow][value].toDouble(), a.gap.mfu * 100);
        QCOMPARE(csv[mfuRow + 1][column(csv, QStringLiteral("step_key"))], QStringLiteral("failures"));
        QVERIFY(test::fuzzy(csv.back()[value].toDouble(), a.gap.mfu * results->goodput->goodput * 100, 1e-9));
        QVERIFY(test::fuzzy(csv[mfuRow + 1][value].toDouble() + csv.back()[value].toDouble(), a.gap.mfu * 100,
                            1e-9));

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
};

QTEST_MAIN(tst_Charts)
#include "tst_charts.moc"
