#include "charts/steptimechart.h"

#include "charts/chartformat.h"

#include <qcustomplot.h>

#include <algorithm>
#include <vector>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

constexpr double kZero_s = 1e-15; // components below this are not drawn (and not in the legend)

/// One bar of the chart: a run's exposed or hidden components, drawn at `position`.
struct Row {
    QString run;  // "current" or "baseline"
    QString kind; // "exposed" or "hidden"
    QString label;
    double position;
    const model::StepBreakdown *step;
    const std::vector<model::TimeComponent> *components;
};

std::vector<Row> rowsOf(const model::Analysis &current, const model::Analysis *baseline)
{
    std::vector<Row> rows;
    if (baseline) {
        rows.push_back({QStringLiteral("baseline"), QStringLiteral("exposed"), QObject::tr("Step time\n(baseline)"),
                        1.0, &baseline->step, &baseline->step.exposed});
        rows.push_back({QStringLiteral("current"), QStringLiteral("exposed"), QObject::tr("Step time\n(current)"),
                        2.0, &current.step, &current.step.exposed});
        rows.push_back({QStringLiteral("baseline"), QStringLiteral("hidden"),
                        QObject::tr("Hidden comm.\n(baseline)"), 3.4, &baseline->step, &baseline->step.hidden});
        rows.push_back({QStringLiteral("current"), QStringLiteral("hidden"), QObject::tr("Hidden comm.\n(current)"),
                        4.4, &current.step, &current.step.hidden});
    } else {
        rows.push_back({QStringLiteral("current"), QStringLiteral("exposed"), QObject::tr("Step time"), 1.0,
                        &current.step, &current.step.exposed});
        rows.push_back({QStringLiteral("current"), QStringLiteral("hidden"),
                        QObject::tr("Hidden (overlapped)\ncommunication"), 2.0, &current.step, &current.step.hidden});
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

} // namespace

StepTimeChart::StepTimeChart(QWidget *parent)
    : ChartView(QStringLiteral("step_time"), tr("Step time"), parent)
{
}

void StepTimeChart::rebuild(const model::Analysis &current, const model::Analysis *baseline)
{
    QCustomPlot *p = plot();
    const std::vector<Row> rows = rowsOf(current, baseline);

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
    double maxEnd_ms = 0;
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
                const model::TimeComponent *value = findComponent(*row.components, component->key);
                const double seconds = value ? value->seconds : 0.0;
                bars->addData(row.position, seconds * cf::kMsPerSecond);
                QString text = QStringLiteral("%1 (%2)\n%3 — %4 of the step")
                                   .arg(bars->name(), row.run, cf::ms(seconds), cf::percent(share(seconds, *row.step)));
                if (baseline && row.run == QLatin1String("current")) {
                    const model::TimeComponent *base = findComponent(kind == QLatin1String("hidden") ? baseline->step.hidden
                                                                                            : baseline->step.exposed,
                                                            component->key);
                    const double base_s = base ? base->seconds : 0.0;
                    text += tr("\nbaseline %1, difference %2 ms")
                                .arg(cf::ms(base_s),
                                     cf::signedNumber((seconds - base_s) * cf::kMsPerSecond,
                                                      cf::msDecimals((seconds - base_s) * cf::kMsPerSecond)));
                }
                setToolTip(bars, row.position, text);
            }
        }
    }

    // Each bar's end: its total, and for the current run the difference from the baseline.
    for (const Row &row : rows) {
        double end_s = 0;
        for (const model::TimeComponent &component : *row.components)
            end_s += component.seconds;
        if (row.kind == QLatin1String("exposed"))
            end_s = row.step->total_s; // the step time itself (the exposed parts add up to it)
        maxEnd_ms = std::max(maxEnd_ms, end_s * cf::kMsPerSecond);
        QString text = cf::ms(end_s);
        if (baseline && row.run == QLatin1String("current") && row.kind == QLatin1String("exposed"))
            text += QStringLiteral("  (%1 ms)").arg(cf::signedNumber((row.step->total_s - baseline->step.total_s) *
                                                                     cf::kMsPerSecond));
        addLabel(end_s * cf::kMsPerSecond, row.position, text, Qt::AlignLeft | Qt::AlignVCenter);
    }
    p->xAxis->setRange(0, std::max(maxEnd_ms, 1e-3) * (baseline ? 1.3 : 1.18));

    QString headline = tr("Step time: %1").arg(cf::ms(current.step.total_s));
    if (baseline)
        headline += tr("  (baseline %1, %2 ms)")
                        .arg(cf::ms(baseline->step.total_s),
                             cf::signedNumber((current.step.total_s - baseline->step.total_s) * cf::kMsPerSecond));
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
    for (const Row &row : rowsOf(*current, baselineAnalysis()))
        for (const model::TimeComponent &c : *row.components)
            csv.append({row.run, row.kind, cf::qs(c.key), cf::qs(c.label), cf::exact(c.seconds * cf::kMsPerSecond),
                        cf::exact(share(c.seconds, *row.step) * cf::kPercent)});
    return csv;
}

} // namespace gapstudio::views
