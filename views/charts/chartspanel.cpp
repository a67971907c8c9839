#include "charts/chartspanel.h"

#include "charts/bandwidthchart.h"
#include "charts/efficiencygapchart.h"
#include "charts/memorychart.h"
#include "charts/steptimechart.h"

#include <QTabWidget>
#include <QVBoxLayout>

namespace gapstudio::views {

ChartsPanel::ChartsPanel(QWidget *parent) : QWidget(parent), mTabs(new QTabWidget(this))
{
    setObjectName(QStringLiteral("charts_panel"));
    mTabs->setObjectName(QStringLiteral("charts_tabs"));
    mTabs->setDocumentMode(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mTabs);

    mCharts = {new StepTimeChart(mTabs), new BandwidthChart(mTabs), new EfficiencyGapChart(mTabs),
               new MemoryChart(mTabs)};
    for (ChartView *chart : std::as_const(mCharts))
        mTabs->addTab(chart, chart->title());
}

void ChartsPanel::setResults(ResultsPtr results)
{
    for (ChartView *chart : std::as_const(mCharts))
        chart->setResults(results);
}

void ChartsPanel::setBaseline(ResultsPtr baseline)
{
    for (ChartView *chart : std::as_const(mCharts))
        chart->setBaseline(baseline);
}

ChartView *ChartsPanel::chart(const QString &id) const
{
    for (ChartView *chart : mCharts)
        if (chart->id() == id)
            return chart;
    return nullptr;
}

ChartView *ChartsPanel::currentChart() const
{
    return qobject_cast<ChartView *>(mTabs->currentWidget());
}

} // namespace gapstudio::views
