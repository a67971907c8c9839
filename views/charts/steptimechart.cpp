#include "charts/steptimechart.h"

#include "charts/chartformat.h"
#include "charts/likelyrange.h"
#include "results/calibrationtext.h"

#include <qcustomplot.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

constexpr double kZero_s = 1e-15; // components below this are not drawn (and not in the legend)

/// One bar of the chart: a run's exposed or hidden components, drawn at `position`.
struct Row {
    ChartRun run;
    QString kind; // "exposed" or "hidden"
    QString label;
    double position;
    const model::StepBreakdown *step;
    const std::vector<model::TimeComponent> *components;
};

/// The exposed bars of every pin and the current run (1, 2, ...), then their hidden bars.
std::vector<Row> rowsOf(const ChartRun &current, const std::vector<ChartRun> &pins)
{
    std::vector<ChartRun> runs = pins;
    runs.push_back(current);
    const bool compared = !pins.empty();
    std::vector<Row> rows;
    double position = 1.0;
    for (const bool hidden : { false, true }) {
        for (const ChartRun &run : runs) {
            const model::StepBreakdown &step = run.analysis->step;
            QString label = !hidden    ? QObject::tr("Step time")
                            : compared ? QObject::tr("Hidden comm.")
                                       : QObject::tr("Hidden (overlapped)\ncommunication");
            if (compared)
                label += QStringLiteral("\n(%1)").arg(run.run);
            rows.push_back({ run, hidden ? QStringLiteral("hidden") : QStringLiteral("exposed"), label,
                             position, &step, hidden ? &step.hidden : &step.exposed });
            position += 1.0;
        }
        position += compared ? 0.4 : 0.0;
    }
    return rows;
}

const model::TimeComponent *findComponent(const std::vector<model::TimeComponent> &components, const std::string &key)
{
    const auto it = std::find_if(components.begin(), components.end(),
                                 [&](const model::TimeComponent &c) { return c.key == key; });
    return it == components.end() ? nullptr : &*it;
}

/// Components present in any row of `kind`, in the order they first appear.
std::vector<const model::TimeComponent *> seriesOf(const std::vector<Row> &rows, const QString &kind)
{
    std::vector<const model::TimeComponent *> series;
    for (const Row &row : rows) {
        if (row.kind != kind)
            continue;
        for (const model::TimeComponent &component : *row.components) {
            const bool known = std::any_of(series.begin(), series.end(),
                                           [&](const model::TimeComponent *c) { return c->key == component.key; });
            if (!known && std::abs(component.seconds) > kZero_s)
                series.push_back(&component);
        }
    }
    return series;
}

double share(double seconds, const model::StepBreakdown &step)
{
    return step.total_s > 0 ? seconds / step.total_s : 0.0;
}

double secondsOf(const std::vector<model::TimeComponent> &components, const std::string &key)
{
    const model::TimeComponent *found = findComponent(components, key);
    return found ? found->seconds : 0.0;
}

/// A component's tool tip in `row`; for the current run, its difference from every pin.
QString componentTip(const QString &name, const std::string &key, const Row &row,
                     const std::vector<ChartRun> &pins)
{
    const double seconds = secondsOf(*row.components, key);
    QString text
        = QStringLiteral("%1 (%2)\n%3 \u2014 %4 of the step")
              .arg(name, row.run.longName(), cf::ms(seconds), cf::percent(share(seconds, *row.step)));
    if (row.run.isPin())
        return text;
    for (const ChartRun &pin : pins) {
        const model::StepBreakdown &step = pin.analysis->step;
        const double pin_s = secondsOf(row.kind == QLatin1String("hidden") ? step.hidden : step.exposed, key);
        const double difference_ms = (seconds - pin_s) * cf::kMsPerSecond;
        text += QObject::tr("\n%1 %2, difference %3 ms")
                    .arg(pin.run, cf::ms(pin_s),
                         cf::signedNumber(difference_ms, cf::msDecimals(difference_ms)));
    }
    return text;
}

/// The likely range of a step-time bar's total (s): the run's prediction interval, on its exposed
/// bar only.
std::optional<std::pair<double, double>> likelyRangeOf(const Row &row)
{
    if (row.kind != QLatin1String("exposed") || !row.run.results || !row.run.results->interval)
        return std::nullopt;
    return row.run.results->interval->range(row.step->total_s);
}

/// Each bar's end: its total, and for the current run the difference from the first pin. Returns
/// the longest bar (ms).
double labelBarEnds(const std::vector<Row> &rows, const std::vector<ChartRun> &pins,
                    const std::function<void(double, double, const QString &)> &addEndLabel)
{
    double maxEnd_ms = 0;
    for (const Row &row : rows) {
        double end_s = 0;
        for (const model::TimeComponent &component : *row.components)
            end_s += component.seconds;
        const bool exposed = row.kind == QLatin1String("exposed");
        if (exposed)
            end_s = row.step->total_s; // the step time itself (the exposed parts add up to it)
        // Past the likely range's whisker, if the bar has one.
        const auto range = likelyRangeOf(row);
        const double labelAt_s = range ? std::max(end_s, range->second) : end_s;
        maxEnd_ms = std::max(maxEnd_ms, labelAt_s * cf::kMsPerSecond);
        QString text = cf::ms(end_s);
        if (!pins.empty() && !row.run.isPin() && exposed)
            text += QStringLiteral("  (%1 ms)")
                        .arg(cf::signedNumber((row.step->total_s - pins.front().analysis->step.total_s)
                                              * cf::kMsPerSecond));
        addEndLabel(labelAt_s * cf::kMsPerSecond, row.position, text);
    }
    return maxEnd_ms;
}

/// The error bars of the exposed bars that have a likely range, and their tool tips.
std::pair<std::vector<LikelyRange>, std::vector<QString>> likelyRangesOf(const std::vector<Row> &rows)
{
    std::pair<std::vector<LikelyRange>, std::vector<QString>> out;
    for (const Row &row : rows) {
        const auto range = likelyRangeOf(row);
        if (!range)
            continue;
        out.first.push_back({ row.position, row.step->total_s * cf::kMsPerSecond,
                              range->first * cf::kMsPerSecond, range->second * cf::kMsPerSecond });
        out.second.push_back(QObject::tr("Step time, likely range (%1)\n%2 \u2013 %3\n%4")
                                 .arg(row.run.longName(), cf::ms(range->first), cf::ms(range->second),
                                      intervalText(*row.run.results)));
    }
    return out;
}

} // namespace

StepTimeChart::StepTimeChart(QWidget *parent)
    : ChartView(QStringLiteral("step_time"), tr("Step time"), parent)
{
}

void StepTimeChart::rebuild(const model::Analysis &current, const std::vector<ChartRun> &pins)
{
    QCustomPlot *p = plot();
    const std::vector<Row> rows = rowsOf(currentRun(), pins);

    // Axes: categories on the left (first row on top), milliseconds along the bottom.
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (const Row &row : rows)
        ticker->addTick(row.position, row.label);
    p->yAxis->setTicker(ticker);
    p->yAxis->setRangeReversed(true);
    p->yAxis->setRange(0.4, rows.back().position + 0.6);
    p->yAxis->grid()->setVisible(false);
    p->xAxis->setLabel(tr("Time per training step (ms)"));

    // One stacked series per component; exposed and hidden components are separate series.
    int colorIndex = 0;
    for (const QString &kind : {QStringLiteral("exposed"), QStringLiteral("hidden")}) {
        QCPBars *below = nullptr;
        for (const model::TimeComponent *component : seriesOf(rows, kind)) {
            auto *bars = new QCPBars(p->yAxis, p->xAxis);
            const bool hidden = kind == QLatin1String("hidden");
            bars->setName(cf::qs(component->label));
            bars->setWidth(0.6);
            const QColor color = cf::componentColor(component->key, colorIndex++);
            bars->setPen(QPen(color.darker(125), 0.8));
            bars->setBrush(hidden ? QBrush(color, Qt::BDiagPattern) : QBrush(color));
            if (below)
                bars->moveAbove(below);
            below = bars;
            for (const Row &row : rows) {
                if (row.kind != kind)
                    continue;
                bars->addData(row.position, secondsOf(*row.components, component->key) * cf::kMsPerSecond);
                setToolTip(bars, row.position, componentTip(bars->name(), component->key, row, pins));
            }
        }
    }
    const auto [ranges, rangeTips] = likelyRangesOf(rows);
    QCPErrorBars *rangeBars
        = addLikelyRanges(p->yAxis, p->xAxis, ranges, tr("Likely range of the step time (\u00b11\u03c3)"));
    for (std::size_t i = 0; i < ranges.size(); ++i)
        setToolTip(rangeBars, ranges[i].key, rangeTips[i]);
    addPinKeys(pins); // the axis names the runs

    const double maxEnd_ms = labelBarEnds(rows, pins, [this](double x, double y, const QString &text) {
        addLabel(x, y, text, Qt::AlignLeft | Qt::AlignVCenter);
    });
    p->xAxis->setRange(0, std::max(maxEnd_ms, 1e-3) * (pins.empty() ? 1.18 : 1.3));

    QString headline = tr("Step time: %1").arg(cf::ms(current.step.total_s));
    if (const ScenarioResults *results = currentRun().results; results && results->interval) {
        const auto [low, high] = results->interval->range(current.step.total_s);
        headline += tr(" (likely %1 \u2013 %2)").arg(cf::ms(low), cf::ms(high));
    }
    if (!pins.empty()) {
        const model::Analysis &first = *pins.front().analysis;
        headline
            += tr("  (%1 %2, %3 ms)")
                   .arg(pins.front().run, cf::ms(first.step.total_s),
                        cf::signedNumber((current.step.total_s - first.step.total_s) * cf::kMsPerSecond));
    }
    setHeadline(headline);
}

QList<QStringList> StepTimeChart::csvRows() const
{
    QList<QStringList> csv{{QStringLiteral("run"), QStringLiteral("bar"), QStringLiteral("component_key"),
                            QStringLiteral("component"), QStringLiteral("time_ms"),
                            QStringLiteral("share_of_step_percent")}};
    const model::Analysis *current = currentAnalysis();
    if (!current)
        return csv;
    for (const Row &row : rowsOf(currentRun(), pinRuns()))
        for (const model::TimeComponent &c : *row.components)
            csv.append({ row.run.run, row.kind, cf::qs(c.key), cf::qs(c.label),
                         cf::exact(c.seconds * cf::kMsPerSecond),
                         cf::exact(share(c.seconds, *row.step) * cf::kPercent) });
    // The likely range of each run's step time, after every bar's components.
    for (const Row &row : rowsOf(currentRun(), pinRuns()))
        if (const auto range = likelyRangeOf(row))
            for (const auto &[key, name, seconds] :
                 { std::tuple { "step_time_low", tr("Step time, likely range (low)"), range->first },
                   std::tuple { "step_time_high", tr("Step time, likely range (high)"), range->second } })
                csv.append({ row.run.run, QStringLiteral("likely_range"), QString::fromLatin1(key), name,
                             cf::exact(seconds * cf::kMsPerSecond),
                             cf::exact(share(seconds, *row.step) * cf::kPercent) });
    return csv;
}

} // namespace gapstudio::views
