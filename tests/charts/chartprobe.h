#pragma once
// Reading back what a chart drew (QCustomPlot's plottables, items and the CSV rows), for the
// chart tests.

#include "charts/bandwidthchart.h"
#include "charts/efficiencygapchart.h"
#include "charts/memorychart.h"
#include "charts/steptimechart.h"

#include <qcustomplot.h>

#include <QList>
#include <QStringList>

#include <memory>
#include <optional>

namespace gapstudio::test {

inline QCPAbstractPlottable *plottableNamed(QCustomPlot *plot, const QString &name)
{
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (plot->plottable(i)->name() == name)
            return plot->plottable(i);
    return nullptr;
}

/// The value plotted at `key` by `plottable`, if any.
inline std::optional<double> valueAt(const QCPAbstractPlottable *plottable, double key)
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
inline QStringList itemTexts(QCustomPlot *plot)
{
    QStringList texts;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (const auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            texts << text->text();
    return texts;
}

inline int column(const QList<QStringList> &csv, const QString &name)
{
    return int(csv.front().indexOf(name));
}

/// CSV rows of `run` whose column `keyColumn` equals `key`.
inline QList<QStringList> csvMatching(const QList<QStringList> &csv, const QString &run,
                                      const QString &keyColumn, const QString &key)
{
    QList<QStringList> rows;
    const int runCol = column(csv, QStringLiteral("run")), keyCol = column(csv, keyColumn);
    for (qsizetype i = 1; i < csv.size(); ++i)
        if (csv[i][runCol] == run && csv[i][keyCol] == key)
            rows << csv[i];
    return rows;
}

/// A chart of each kind by its id.
inline std::unique_ptr<views::ChartView> makeChart(const QString &id)
{
    if (id == QLatin1String("step_time"))
        return std::make_unique<views::StepTimeChart>();
    if (id == QLatin1String("bandwidth"))
        return std::make_unique<views::BandwidthChart>();
    if (id == QLatin1String("efficiency_gap"))
        return std::make_unique<views::EfficiencyGapChart>();
    return std::make_unique<views::MemoryChart>();
}

/// The charts' ids, in the order the charts panel shows them.
inline const QStringList kChartIds { QStringLiteral("step_time"), QStringLiteral("bandwidth"),
                                     QStringLiteral("efficiency_gap"), QStringLiteral("memory") };

} // namespace gapstudio::test
