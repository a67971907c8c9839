// Every pinned design overlaid in every chart. Three designs pinned with Pin for comparison, a
// fourth one current: the step-time, efficiency-gap, bandwidth, memory and cost charts each draw
// four runs ("pin 1", "pin 2", "pin 3", "current"), each one equal to its design's own pipeline
// result (run here separately, not read from the charts), and name every pin in their legend. In
// the charts that draw the runs side by side in one category (efficiency gap, bandwidth), the
// four bars sit apart and are filled apart. Each headline, with its comparison, fits the plot's
// width (wrapped) at a report's chart width.
#include "mainwindow.h"

#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "cost/costchart.h"
#include "cost/costpanel.h"
#include "gapstudio/io/preset_json.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "studio/studioengine.h"
#include "test_home.h"

#include <QAction>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include <cmath>
#include <functional>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {

const QStringList kRuns { QStringLiteral("pin 1"), QStringLiteral("pin 2"), QStringLiteral("pin 3"),
                          QStringLiteral("current") };

/// The sum of column `value` over the CSV rows of `run` that `keep` accepts (header skipped).
double sumOf(const QList<QStringList> &csv, const QString &run, int value,
             const std::function<bool(const QStringList &)> &keep = {})
{
    double sum = 0;
    for (qsizetype i = 1; i < csv.size(); ++i)
        if (csv[i].front() == run && (!keep || keep(csv[i])))
            sum += csv[i][value].toDouble();
    return sum;
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

QStringList legendNames(QCustomPlot *plot)
{
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot->legend->item(i)))
            names << item->plottable()->name();
    return names;
}

/// The drawn bars (a visible fill and data) whose data sits in category `category` (centre at
/// `category`, half a unit either side): key, width and fill.
struct DrawnBar {
    double key, width;
    QBrush brush;
};
QList<DrawnBar> barsIn(QCustomPlot *plot, double category, const QString &name)
{
    QList<DrawnBar> bars;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto *series = qobject_cast<QCPBars *>(plot->plottable(i));
        if (!series || series->brush().style() == Qt::NoBrush || !series->name().startsWith(name))
            continue;
        for (auto it = series->data()->constBegin(); it != series->data()->constEnd(); ++it)
            if (std::abs(it->key - category) < 0.5)
                bars.append({ it->key, series->width(), series->brush() });
    }
    return bars;
}

} // namespace

class tst_PinOverlays : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mHome;

private slots:
    void initTestCase() { QVERIFY(test::useTemporaryHome(mHome, QStringLiteral("tst_pinoverlays"))); }

    void everyChartOverlaysEveryPin()
    {
        const QStringList files {
            QStringLiteral(PRESETS_DIR "/scenarios/gpt4-moe-4096-h100-hbd8.gapstudio.json"),
            QStringLiteral(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json"),
            QStringLiteral(PRESETS_DIR "/scenarios/gpt3-175b-4096-a100.gapstudio.json"),
            QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json")
        };
        MainWindow window(QString {});
        auto *pin = window.findChild<QAction *>(QStringLiteral("pinForComparison"));
        QVERIFY(pin);
        QStringList names;
        for (qsizetype i = 0; i < files.size(); ++i) {
            window.openFile(files[i]);
            window.recalculator()->recalculateNow();
            names << window.document()->displayName();
            if (i < 3)
                pin->trigger();
        }

        // Each design's own result, run here: pins 1-3, then the current design.
        const auto library = loadStudioLibrary();
        std::vector<scenario::PipelineResult> own;
        for (const QString &file : files) {
            own.push_back(scenario::runScenario(io::loadScenario(file.toStdString()), library));
            QVERIFY2(own.back().ok() && own.back().cost, own.back().statusText.c_str());
        }

        auto *charts = window.findChild<ChartsPanel *>();
        auto *cost = window.findChild<CostPanel *>();
        QVERIFY(charts && cost);
        QList<ChartView *> all = charts->charts();
        all << cost->chart();
        QSet<QString> ids;
        for (ChartView *chart : all) {
            ids << chart->id();
            const QList<QStringList> csv = chart->csvRows();
            QSet<QString> runs;
            for (qsizetype i = 1; i < csv.size(); ++i)
                runs << csv[i].front();
            QCOMPARE(runs, QSet<QString>(kRuns.begin(), kRuns.end()));
            const QStringList legend = legendNames(chart->plot());
            for (int k = 0; k < 3; ++k)
                QVERIFY2(legend.contains(QStringLiteral("pin %1: %2").arg(k + 1).arg(names[k])),
                         qPrintable(chart->id() + QStringLiteral(": ") + legend.join(QStringLiteral(" | "))));

            for (int r = 0; r < kRuns.size(); ++r) {
                const model::Analysis &a = *own[std::size_t(r)].analysis;
                const QString &run = kRuns[r];
                double shown = 0, expected = 0;
                if (chart->id() == QLatin1String("step_time")) { // run, bar, key, component, time_ms
                    shown = sumOf(csv, run, 4,
                                  [](const QStringList &row) { return row[1] == QLatin1String("exposed"); });
                    expected = a.step.total_s * 1e3;
                } else if (chart->id()
                           == QLatin1String("efficiency_gap")) { // run, step_key, step, from, to, value
                    shown = sumOf(csv, run, 5,
                                  [](const QStringList &row) { return row[1] == QLatin1String("mfu"); });
                    expected = a.gap.mfu * 100;
                } else if (chart->id() == QLatin1String("memory")) { // run, tier, item_key, item, GiB
                    shown = sumOf(csv, run, 4, [](const QStringList &row) {
                        return row[1] == QLatin1String("1") && row[2] == QLatin1String("need");
                    });
                    expected = a.memory.tier1Need_B / double(1ull << 30);
                } else if (chart->id() == QLatin1String("bandwidth")) { // run, tier, ..., achieved_GBps
                    shown = sumOf(csv, run, 6);
                    for (const model::TierUsage &tier : a.tiers)
                        expected += tier.achieved_Bps / 1e9;
                } else if (chart->id()
                           == QLatin1String("cost_per_hour")) { // run, share_key, share, usd_per_hour
                    shown = sumOf(csv, run, 3);
                    expected = own[std::size_t(r)].cost->clusterUsdPerHour;
                }
                QVERIFY2(near(shown, expected), qPrintable(QStringLiteral("%1, %2: %3 shown, %4 expected")
                                                               .arg(chart->id(), run)
                                                               .arg(shown, 0, 'g', 12)
                                                               .arg(expected, 0, 'g', 12)));
            }
        }
        // The headlines name the first pin's numbers: at a report's chart width, each is wrapped
        // within the plot, not cut at its edges.
        for (ChartView *chart : all) {
            QCustomPlot *plot = chart->plot();
            (void)plot->toPixmap(820, 460); // lays the plot out at 820 px, as the report draws it
            auto *headline = qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0));
            QVERIFY(headline);
            const QFontMetrics metrics(headline->font());
            for (const QString &line : headline->text().split(QLatin1Char('\n')))
                QVERIFY2(metrics.horizontalAdvance(line) <= 820,
                         qPrintable(QStringLiteral("%1: \"%2\" is %3 px")
                                        .arg(chart->id(), line)
                                        .arg(metrics.horizontalAdvance(line))));
            QCOMPARE(headline->text().simplified(), chart->headline().simplified());
        }
        QCOMPARE(ids, (QSet<QString> { QStringLiteral("step_time"), QStringLiteral("efficiency_gap"),
                                       QStringLiteral("bandwidth"), QStringLiteral("memory"),
                                       QStringLiteral("cost_per_hour") }));

        // Side by side: in the gap chart's first category (the peak) and the bandwidth chart's
        // first tier, four bars apart from each other, each filled its own way.
        for (const auto &[id, series] :
             { std::pair { QStringLiteral("efficiency_gap"), QStringLiteral("Peak") },
               std::pair { QStringLiteral("bandwidth"), QStringLiteral("Achieved") } }) {
            const auto chart
                = std::find_if(all.begin(), all.end(), [&](ChartView *c) { return c->id() == id; });
            QVERIFY(chart != all.end());
            const QList<DrawnBar> bars = barsIn((*chart)->plot(), 1.0, series);
            QCOMPARE(bars.size(), 4);
            for (qsizetype i = 0; i < bars.size(); ++i)
                for (qsizetype j = i + 1; j < bars.size(); ++j) {
                    QVERIFY2(std::abs(bars[i].key - bars[j].key) >= (bars[i].width + bars[j].width) / 2,
                             qPrintable(QStringLiteral("%1: bars at %2 and %3 overlap")
                                            .arg(id)
                                            .arg(bars[i].key)
                                            .arg(bars[j].key)));
                    QVERIFY2(bars[i].brush != bars[j].brush,
                             qPrintable(QStringLiteral("%1: two runs filled alike").arg(id)));
                }
        }
        window.document()->undoStack()->setClean(); // no "save changes?" on close
    }
};

QTEST_MAIN(tst_PinOverlays)
#include "tst_pinoverlays.moc"
