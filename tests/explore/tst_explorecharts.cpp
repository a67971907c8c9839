// The explore charts draw what the model's sweeps, sensitivity and search return: the tornado's
// first bar is the largest elasticity, the heatmap's best cell is the search's best TP/PP, the
// scaling curve's points are the best layouts per GPU count, infeasible domain sizes are gaps with
// a reason; the variants chart plots model::sweepVariants; the panel computes all of them on a
// worker thread.
// Every chart is laid out without a label over the title, over a bar or off the plot, and with one
// grid (checkCosmetics).
// With GAPSTUDIO_RENDER_DIR set, the charts and the panel are also written there as PNGs.
#include "exploredesigns.h"
#include "varianttexts.h"

#include "explore/domainsweepchart.h"
#include "explore/explorecompute.h"
#include "explore/explorepanel.h"
#include "explore/heatmapchart.h"
#include "explore/scalingchart.h"
#include "explore/searchdialog.h"
#include "explore/tornadochart.h"
#include "explore/variantschart.h"

#include <qcustomplot.h>

#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include <set>

#include <cmath>
#include <optional>

using namespace gapstudio;
namespace explore = views::explore;

namespace {

/// The small search design with its best layout as the execution (a feasible, realistic design).
model::Design bestSmallDesign()
{
    model::Design d = test::smallSearchDesign();
    model::SearchOptions options = explore::searchOptionsFor(explore::defaultEvaluateOptions(d), 1);
    const model::SearchResult r
        = model::searchLayouts(d.application, d.system, explore::searchSpaceFor(d), options);
    if (!r.top.empty())
        d.execution = r.top.front().execution;
    return d;
}

void render(QWidget *widget, const QString &name)
{
    const QByteArray dir = qgetenv("GAPSTUDIO_RENDER_DIR");
    widget->resize(widget->size().expandedTo(QSize(1000, 600)));
    widget->show();
    QCoreApplication::processEvents();
    for (QCustomPlot *plot : widget->findChildren<QCustomPlot *>())
        plot->replot(QCustomPlot::rpImmediateRefresh);
    const QImage image = widget->grab().toImage();
    QVERIFY(!image.isNull());
    if (!dir.isEmpty())
        QVERIFY(image.save(QDir(QString::fromLocal8Bit(dir)).filePath(name + QStringLiteral(".png"))));
}

/// A bar's rectangle in pixels (the key axis may be vertical: the tornado and variants charts).
QRectF barRect(const QCPBars *bars, double key, double value)
{
    const QPointF a = bars->coordsToPixels(key - bars->width() / 2, 0);
    const QPointF b = bars->coordsToPixels(key + bars->width() / 2, value);
    return QRectF(a, b).normalized();
}

/// The Explore charts' cosmetics (issue: an axis label over the title, labels overlapping bars,
/// doubled grid lines from three y-axes), read from the laid-out QCustomPlot at `size`:
/// - the title and subtitle sit above the axis rect with its tick and axis labels, the legend below;
/// - one grid per direction: at most one visible horizontal and one vertical axis draw grid lines,
///   and only a visible axis does;
/// - every value label beside a bar is inside the plot and overlaps no bar.
void checkCosmetics(views::ExploreChart &chart, QSize size)
{
    chart.resize(size);
    chart.show();
    QCoreApplication::processEvents();
    QCustomPlot *p = chart.plot();
    p->replot(QCustomPlot::rpImmediateRefresh);
    const QString where
        = QStringLiteral("%1 at %2 x %3: ").arg(chart.title()).arg(size.width()).arg(size.height());
    const QRect axes = p->axisRect()->outerRect(); // the plot with its tick labels and axis labels
    QList<QRect> titles; // where the title and the subtitle are drawn (inside their margins)
    for (int row : { 0, 1 }) {
        auto *text = qobject_cast<QCPTextElement *>(p->plotLayout()->element(row, 0));
        QVERIFY2(text, qPrintable(where + QStringLiteral("no title row %1").arg(row)));
        if (!text->visible() || text->text().isEmpty())
            continue;
        titles << text->rect();
        QVERIFY2(text->rect().bottom() <= axes.top() + 1,
                 qPrintable(where
                            + QStringLiteral("\"%1\" (bottom %2) runs into the axes (top %3)")
                                  .arg(text->text())
                                  .arg(text->rect().bottom())
                                  .arg(axes.top())));
    }
    for (int i = 0; i < p->itemCount(); ++i) // no label drawn over a title ("this design", values)
        if (auto *label = qobject_cast<QCPItemText *>(p->item(i)); label && label->visible())
            for (const QRect &title : std::as_const(titles))
                QVERIFY2(!QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
                              .normalized()
                              .intersects(title),
                         qPrintable(where + QStringLiteral("\"%1\" over the title").arg(label->text())));
    if (p->legend->visible())
        QVERIFY2(!p->legend->outerRect().intersects(axes),
                 qPrintable(where + QStringLiteral("legend on the axes")));

    int horizontalGrids = 0, verticalGrids = 0;
    for (QCPAxis *axis : p->axisRect()->axes()) {
        if (!axis->grid()->visible())
            continue;
        QVERIFY2(axis->visible(), qPrintable(where + QStringLiteral("a hidden axis draws a grid")));
        ++(axis->orientation() == Qt::Vertical ? horizontalGrids : verticalGrids);
    }
    QVERIFY2(horizontalGrids <= 1 && verticalGrids <= 1,
             qPrintable(where
                        + QStringLiteral("%1 sets of horizontal and %2 of vertical grid lines")
                              .arg(horizontalGrids)
                              .arg(verticalGrids)));

    QList<QRectF> barRects;
    for (int i = 0; i < p->plottableCount(); ++i)
        if (auto *bars = qobject_cast<QCPBars *>(p->plottable(i)))
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                barRects << barRect(bars, it->key, it->value);
    if (barRects.isEmpty())
        return;
    for (int i = 0; i < p->itemCount(); ++i) {
        auto *label = qobject_cast<QCPItemText *>(p->item(i));
        if (!label || !label->visible() || label->text().isEmpty())
            continue;
        const QRectF box
            = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
        const QString which = where
                              + QStringLiteral("label \"%1\" at (%2, %3, %4 x %5)")
                                    .arg(label->text())
                                    .arg(box.x())
                                    .arg(box.y())
                                    .arg(box.width())
                                    .arg(box.height());
        QVERIFY2(QRectF(p->rect()).contains(box), qPrintable(which + QStringLiteral(" is cut off")));
        // Padding aside (the box includes it), the text must not cover a bar.
        const QRectF text = box.marginsRemoved(QMarginsF(label->padding()));
        for (const QRectF &bar : std::as_const(barRects))
            QVERIFY2(!text.adjusted(1, 1, -1, -1).intersects(bar),
                     qPrintable(which + QStringLiteral(" covers a bar")));
    }
}

} // namespace

class tst_ExploreCharts : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void tornadoLargestElasticityFirst();
    void heatmapBestCellIsSearchBest();
    void domainSweepGapsCarryDiagnostics();
    void scalingPointsAreBestLayouts();
    void variantsAreSweepVariants();
    void panelRunsSweepsOnWorkerThread();
    void panelOpensSearchDialogAndForwardsApply();

private:
    model::Design mDesign;
    model::EvaluateOptions mOptions;
};

void tst_ExploreCharts::initTestCase()
{
    mDesign = bestSmallDesign();
    mOptions = explore::defaultEvaluateOptions(mDesign);
    QVERIFY(model::evaluate(mDesign.application, mDesign.execution, mDesign.system, mOptions).ok);
}

void tst_ExploreCharts::tornadoLargestElasticityFirst()
{
    const std::vector<model::Elasticity> elasticities = model::sensitivity(mDesign, mOptions);
    const auto largest
        = std::max_element(elasticities.begin(), elasticities.end(), [](const auto &a, const auto &b) {
              return std::fabs(a.stepTime) < std::fabs(b.stepTime);
          });
    views::TornadoChart chart;
    // Shuffled input: the chart orders the bars itself.
    std::vector<model::Elasticity> reversed(elasticities.rbegin(), elasticities.rend());
    chart.setData(reversed, mDesign);
    QVERIFY(chart.message().isEmpty());
    QCOMPARE(chart.bars().size(), elasticities.size());
    QCOMPARE(chart.bars().front().parameter, largest->parameter);
    QCOMPARE(chart.bars().front().stepTime, largest->stepTime);
    for (std::size_t i = 1; i < chart.bars().size(); ++i)
        if (chart.bars()[i].valid)
            QVERIFY(std::fabs(chart.bars()[i].stepTime) <= std::fabs(chart.bars()[i - 1].stepTime));
    // The top bar (key 1) plots that elasticity.
    bool found = false;
    for (int i = 0; i < chart.plot()->plottableCount(); ++i)
        if (auto *bars = qobject_cast<QCPBars *>(chart.plot()->plottable(i)))
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                if (it->key == 1.0) {
                    QCOMPARE(it->value, largest->stepTime);
                    found = true;
                }
    QVERIFY(found);
    QCOMPARE(chart.csvRows().size(), static_cast<int>(elasticities.size()) + 1);
    QCOMPARE(chart.csvRows().at(1).at(0), QString::fromLatin1(model::parameterKey(largest->parameter)));
    render(&chart, QStringLiteral("tornado"));
    for (const QSize size : { QSize(1000, 600), QSize(640, 300) })
        checkCosmetics(chart, size);
}

void tst_ExploreCharts::heatmapBestCellIsSearchBest()
{
    const model::SearchSpace space = explore::searchSpaceFor(mDesign);
    const model::SearchOptions options = explore::searchOptionsFor(mOptions, 1);
    const model::SearchResult search
        = model::searchLayouts(mDesign.application, mDesign.system, space, options);
    QVERIFY(!search.top.empty());
    explore::HeatmapData data = explore::computeHeatmap(mDesign.application, mDesign.system, space, options);
    QCOMPARE(data.configurations, search.configurations);
    QCOMPARE(data.valid, search.valid);

    views::HeatmapChart chart;
    chart.setData(data);
    QVERIFY(chart.message().isEmpty());
    const auto best = chart.bestTpPp();
    QVERIFY(best.has_value());
    QCOMPARE(best->first, search.top.front().execution.tensorPar);
    QCOMPARE(best->second, search.top.front().execution.pipelinePar);
    // Every filled cell is that cell's best: no hit with the same TP and PP beats it.
    const auto cell = data.bestCell();
    QCOMPARE(data.cell(cell->first, cell->second)->stats.sample_rate, search.top.front().stats.sample_rate);
    // The colour map holds the cells' sample rates, NaN (blank) where there is none.
    QCPColorMap *map = nullptr;
    for (int i = 0; i < chart.plot()->plottableCount() && !map; ++i)
        map = qobject_cast<QCPColorMap *>(chart.plot()->plottable(i));
    QVERIFY(map);
    // Every cell: the best sample rate of its (TP, PP), or NaN (blank) where it has no layout.
    int blank = 0;
    int withLayout = 0;
    for (std::size_t r = 0; r < data.pps.size(); ++r)
        for (std::size_t c = 0; c < data.tps.size(); ++c) {
            const double v = map->data()->cell(static_cast<int>(c), static_cast<int>(r));
            if (data.cell(r, c)) {
                QCOMPARE(v, data.cell(r, c)->stats.sample_rate);
                ++withLayout;
            } else {
                QVERIFY2(std::isnan(v), "a cell without a layout must be blank");
                ++blank;
            }
        }
    // The cells with a layout are exactly the (TP, PP) pairs the search found a valid layout for.
    // Found independently of the heatmap: every valid layout of the space, by (TP, PP).
    const model::SearchResult all = model::searchLayouts(mDesign.application, mDesign.system, space,
                                                         explore::searchOptionsFor(mOptions, search.valid));
    QCOMPARE(all.top.size(), static_cast<std::size_t>(search.valid));
    std::set<std::pair<std::int64_t, std::int64_t>> found;
    for (const model::SearchHit &hit : all.top)
        found.emplace(hit.execution.tensorPar, hit.execution.pipelinePar);
    QCOMPARE(withLayout, static_cast<int>(found.size()));
    QCOMPARE(blank + withLayout, static_cast<int>(data.tps.size() * data.pps.size()));
    QCOMPARE(chart.csvRows().size(), static_cast<int>(data.tps.size() * data.pps.size()) + 1);
    render(&chart, QStringLiteral("heatmap"));
    for (const QSize size : { QSize(1000, 600), QSize(640, 300) })
        checkCosmetics(chart, size);
}

void tst_ExploreCharts::domainSweepGapsCarryDiagnostics()
{
    const std::vector<model::SweepPoint> points = explore::sweepDomainSize(mDesign, mOptions);
    const std::vector<std::int64_t> sizes = explore::domainSizes(mDesign.system.networks.front().size);
    QCOMPARE(points.size(), sizes.size());
    for (std::size_t i = 0; i < points.size(); ++i)
        QCOMPARE(points[i].x, static_cast<double>(sizes[i]));
    views::DomainSweepChart chart;
    chart.setData(points, mDesign.system.networks.front().size);
    QVERIFY(chart.message().isEmpty());
    QCPGraph *step = chart.plot()->graph(0);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const double plotted = step->data()->at(static_cast<int>(i))->value;
        if (points[i].evaluation.ok)
            QCOMPARE(plotted, points[i].evaluation.stats.total_time * 1e3);
        else
            QVERIFY(std::isnan(plotted)); // a gap
    }
    // A point equals a single evaluation of that design.
    const model::Design at64
        = model::scaled(mDesign, model::HardwareParameter::ScaleUpDomainSize,
                        64.0 / static_cast<double>(mDesign.system.networks.front().size));
    const model::Evaluation direct = model::evaluate(at64.application, at64.execution, at64.system, mOptions);
    QVERIFY(direct.ok); // a domain of 64 fits this design: the comparison below always runs
    QVERIFY(points[3].evaluation.ok);
    QCOMPARE(points[3].evaluation.stats.total_time, direct.stats.total_time);
    render(&chart, QStringLiteral("domain_sweep"));
    for (const QSize size : { QSize(1000, 600), QSize(640, 300) })
        checkCosmetics(chart, size);
}

void tst_ExploreCharts::scalingPointsAreBestLayouts()
{
    const model::SearchSpace space = explore::searchSpaceFor(mDesign);
    const model::SearchOptions options = explore::searchOptionsFor(mOptions, 1);
    const std::vector<std::int64_t> counts { 1024, 2048, 5128 };
    const std::vector<model::SweepPoint> points
        = model::sweepGpuCount(mDesign.application, mDesign.system, space, counts, options);
    views::ScalingChart chart;
    chart.setData(points, mDesign.application.seqSize, {},
                  QString::fromStdString(explore::searchNote(space)));
    QVERIFY(chart.message().isEmpty());
    QCOMPARE(chart.points().size(), counts.size());
    // The design's own count: the search's best sample rate.
    model::SearchSpace at = space;
    at.numProcs = 5128;
    const model::SearchResult best = model::searchLayouts(mDesign.application, mDesign.system, at, options);
    QVERIFY(!best.top.empty());
    QCPGraph *throughput = chart.plot()->graph(0);
    QCOMPARE(throughput->data()->at(2)->value, best.top.front().stats.sample_rate);
    QCOMPARE(chart.csvRows().size(), 4);
    render(&chart, QStringLiteral("scaling"));
    for (const QSize size : { QSize(1000, 600), QSize(640, 300) })
        checkCosmetics(chart, size);
}

/// Case 18 (gpt3-175B on 4096 H100s, float8): the chart's rows are model::sweepVariants' results,
/// and the full-flat fabric is faster than the two-tier system as designed.
void tst_ExploreCharts::variantsAreSweepVariants()
{
    const model::Design design = test::largeSearchDesign();
    const model::EvaluateOptions options = explore::defaultEvaluateOptions(design);
    const std::vector<model::SweepPoint> points = model::sweepVariants(design, options);
    QVERIFY(points.size() >= 6);
    views::VariantsChart chart;
    chart.setData(points, design.system);
    QVERIFY(chart.message().isEmpty());
    QCOMPARE(chart.title(), QStringLiteral("Design variants (same GPUs, LLM and layout)"));
    const QList<QStringList> rows = chart.csvRows();
    QCOMPARE(rows.size(), static_cast<int>(points.size()) + 1);
    QCOMPARE(rows.front(), (QStringList { QStringLiteral("label"), QStringLiteral("samples_per_s"),
                                          QStringLiteral("step_time_s"), QStringLiteral("mfu"),
                                          QStringLiteral("ok") }));
    for (std::size_t i = 0; i < points.size(); ++i) {
        const QStringList &row = rows.at(static_cast<int>(i) + 1);
        const model::Evaluation &e = points[i].evaluation;
        QCOMPARE(row.at(0), QString::fromStdString(points[i].label));
        QCOMPARE(row.at(4), e.ok ? QStringLiteral("1") : QStringLiteral("0"));
        if (e.ok) {
            QCOMPARE(row.at(1).toDouble(), e.stats.sample_rate);
            QCOMPARE(row.at(2).toDouble(), e.stats.total_time);
            QCOMPARE(row.at(3).toDouble(), e.stats.total_efficiency);
        }
    }
    // The plotted bar of each feasible variant is its sample rate; full-flat beats as designed.
    const auto barValue = [&](const QString &label) -> std::optional<double> {
        const std::optional<double> key = chart.keyOf(label);
        if (!key)
            return std::nullopt;
        for (int i = 0; i < chart.plot()->plottableCount(); ++i)
            if (auto *bars = qobject_cast<QCPBars *>(chart.plot()->plottable(i)))
                for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                    if (it->key == *key)
                        return it->value;
        return std::nullopt;
    };
    for (const model::SweepPoint &point : points) {
        const std::optional<double> value = barValue(QString::fromStdString(point.label));
        QCOMPARE(value.has_value(), point.evaluation.ok);
        if (value)
            QCOMPARE(*value, point.evaluation.stats.sample_rate);
    }
    const std::optional<double> designed = barValue(QStringLiteral("as designed"));
    const std::optional<double> flat = barValue(QStringLiteral("full-flat fabric"));
    QVERIFY(designed && flat);
    QVERIFY2(*flat > *designed, qPrintable(QStringLiteral("%1 <= %2").arg(*flat).arg(*designed)));
    const QStringList texts = test::categoryTexts(chart); // case 18's system has two tiers, not flat
    QVERIFY2(texts.contains(QStringLiteral("two-tier (as designed)")), qPrintable(texts.join(u'|')));
    QVERIFY(texts.contains(QStringLiteral("Fabric: two-tier (as designed) vs full-flat")));
    render(&chart, QStringLiteral("variants"));
    for (const QSize size : { QSize(1000, 600), QSize(640, 300) })
        checkCosmetics(chart, size);
    chart.setMetric(views::VariantsChart::Metric::StepTime);
    QVERIFY(chart.message().isEmpty());
    QCOMPARE(chart.csvRows(), rows);
    render(&chart, QStringLiteral("variants_step_time"));
    for (const QSize size : { QSize(1000, 600), QSize(640, 300) })
        checkCosmetics(chart, size);
}

void tst_ExploreCharts::panelRunsSweepsOnWorkerThread()
{
    views::ExplorePanel panel;
    panel.setDesign(mDesign);
    // The fast charts follow setDesign at once.
    QVERIFY(panel.tornadoChart()->message().isEmpty());
    QVERIFY(panel.domainSweepChart()->message().isEmpty());
    QVERIFY(!panel.scalingChart()->message().isEmpty()); // needs Run sweeps

    QSignalSpy finished(&panel, &views::ExplorePanel::sweepsFinished);
    panel.runSweeps();
    QVERIFY(panel.isRunning());
    QVERIFY(finished.wait(240000) || finished.count() == 1);
    QVERIFY(!panel.isRunning());
    QVERIFY2(panel.scalingChart()->message().isEmpty(), qPrintable(panel.scalingChart()->message()));
    QVERIFY2(panel.heatmapChart()->message().isEmpty(), qPrintable(panel.heatmapChart()->message()));
    QCOMPARE(panel.scalingChart()->points().size(),
             explore::scalingGpuCounts(mDesign.execution.numProcs).size());
    QVERIFY(panel.variantsChart()->message().isEmpty());
    QCOMPARE(panel.charts().size(), 5);
    QCOMPARE(panel.charts().at(3), panel.variantsChart());
    auto *tabs = panel.findChild<QTabWidget *>(QStringLiteral("exploreTabs"));
    QVERIFY(tabs);
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        render(&panel, QStringLiteral("panel_%1").arg(panel.currentChart()->id()));
    }

    // A cancelled run discarded the charts' earlier results; now they stay.
    const auto points = panel.scalingChart()->points().size();
    panel.runSweeps();
    panel.cancelSweeps();
    QVERIFY(finished.wait(240000) || finished.count() == 2);
    QVERIFY2(panel.scalingChart()->message().isEmpty(), qPrintable(panel.scalingChart()->message()));
    QVERIFY2(panel.heatmapChart()->message().isEmpty(), qPrintable(panel.heatmapChart()->message()));
    QCOMPARE(panel.scalingChart()->points().size(), points);
    auto *status = panel.findChild<QLabel *>(QStringLiteral("sweepsStatus"));
    QVERIFY(status);
    QVERIFY2(status->text().contains(QStringLiteral("earlier results")), qPrintable(status->text()));

    // A new design cancels nothing when idle and marks the sweeps out of date.
    model::Design other = mDesign;
    other.system.mem1.bandwidth_Bps *= 2;
    panel.setDesign(other);
    QVERIFY(!panel.isRunning());
    // Cancelling a run delivers a cancelled result.
    panel.runSweeps();
    panel.cancelSweeps();
    QVERIFY(finished.wait(240000) || finished.count() == 3);
    QVERIFY(!panel.isRunning());
}

void tst_ExploreCharts::panelOpensSearchDialogAndForwardsApply()
{
    views::ExplorePanel panel;
    panel.setDesign(mDesign);
    panel.openSearchDialog();
    views::SearchDialog *dialog = panel.searchDialog();
    QVERIFY(dialog);
    QSignalSpy finished(dialog, &views::SearchDialog::searchFinished);
    dialog->start();
    QVERIFY(finished.wait(120000) || finished.count() == 1);
    render(dialog, QStringLiteral("search_dialog"));
    QSignalSpy applied(&panel, &views::ExplorePanel::layoutApplied);
    dialog->applySelected();
    QCOMPARE(applied.count(), 1);
    dialog->close();
}

QTEST_MAIN(tst_ExploreCharts)
#include "tst_explorecharts.moc"
