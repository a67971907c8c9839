#include "roadmap/roadmaptable.h"

#include "charts/chartformat.h"

#include <QHeaderView>

namespace gapstudio::views {

namespace {

QString shown(std::optional<double> value, RoadmapMetric metric)
{
    if (!value)
        return QStringLiteral("\u2014");
    return metric == RoadmapMetric::Mfu ? chartformat::percent(*value) : chartformat::significant(*value);
}

QString ratio(std::optional<double> value)
{
    return value ? QStringLiteral("\u00d7") + chartformat::number(*value, 2) : QStringLiteral("\u2014");
}

} // namespace

RoadmapTable::RoadmapTable(QWidget *parent)
    : QTableWidget(parent)
{
    setObjectName(QStringLiteral("roadmap_table"));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    verticalHeader()->setVisible(false);
    horizontalHeader()->setStretchLastSection(true);
    setToolTip(tr("Double-click a step to open it as the current design"));
    connect(this, &QTableWidget::cellActivated, this, [this](int row, int) { emit stepActivated(row); });
}

QList<QStringList> RoadmapTable::rowsOf(const RoadmapData &roadmap)
{
    // Short headers: the report prints this table across an A4 page (metricTitle() says more).
    // "Eff.": with failures, checkpoints and restarts (the goodput, model/goodput.h).
    const QStringList header { tr("Step"),     tr("Design"),     tr("Status"),       tr("Samples/s"),
                               tr("MFU"),      tr("$/M tokens"), tr("J/token"),      tr("MW"),
                               tr("Speedup"),  tr("Cost ratio"), tr("Energy ratio"), tr("Goodput"),
                               tr("Eff. $/M"), tr("Eff. ratio"), tr("MFU range") };
    QList<QStringList> rows { header };
    for (std::size_t i = 0; i < roadmap.steps.size(); ++i) {
        const scenario::PipelineResult &r = roadmap.steps[i].result;
        QStringList row { QString::number(i + 1), QString::fromStdString(roadmap.roadmap.steps[i].name),
                          r.ok() ? tr("runs") : QString::fromStdString(r.statusText) };
        for (const RoadmapMetric metric : kRoadmapMetrics)
            row << shown(roadmap.value(i, metric), metric);
        row << (r.ok() && r.cost ? chartformat::significant(r.cost->megawatts) : QStringLiteral("\u2014"));
        for (const RoadmapMetric metric :
             { RoadmapMetric::Throughput, RoadmapMetric::UsdPerMillionTokens, RoadmapMetric::JoulesPerToken })
            row << ratio(roadmap.gain(i, metric));
        const std::optional<double> goodput = roadmap.goodput(i),
                                    usd = roadmap.effectiveUsdPerMillionTokens(i);
        row << (goodput ? chartformat::percent(*goodput) : QStringLiteral("\u2014"))
            << (usd ? chartformat::significant(*usd) : QStringLiteral("\u2014"))
            << ratio(roadmap.effectiveCostRatio(i));
        // The MFU's likely range: one standard deviation of the model's error.
        const auto range = roadmap.likelyRange(i, RoadmapMetric::Mfu);
        row << (range ? QStringLiteral("%1 \u2013 %2")
                            .arg(chartformat::percent(range->first), chartformat::percent(range->second))
                      : QStringLiteral("\u2014"));
        rows << row;
    }
    return rows;
}

void RoadmapTable::setRoadmap(const RoadmapPtr &roadmap)
{
    clear();
    const QList<QStringList> rows = roadmap ? rowsOf(*roadmap) : QList<QStringList>();
    if (rows.isEmpty()) {
        setRowCount(0);
        setColumnCount(0);
        return;
    }
    setColumnCount(int(rows.first().size()));
    setHorizontalHeaderLabels(rows.first());
    setRowCount(int(rows.size() - 1));
    for (int r = 1; r < rows.size(); ++r)
        for (int c = 0; c < rows[r].size(); ++c) {
            auto *item = new QTableWidgetItem(rows[r][c]);
            if (c >= 3)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == 1)
                item->setToolTip(QString::fromStdString(roadmap->roadmap.steps[std::size_t(r - 1)].source));
            setItem(r - 1, c, item);
        }
    resizeColumnsToContents();
}

} // namespace gapstudio::views
