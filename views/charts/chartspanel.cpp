#include "charts/chartspanel.h"

#include "charts/bandwidthchart.h"
#include "charts/efficiencygapchart.h"
#include "charts/memorychart.h"
#include "charts/steptimechart.h"
#include "results/calibrationtext.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace gapstudio::views {

ChartsPanel::ChartsPanel(QWidget *parent)
    : QWidget(parent)
    , mTabs(new QTabWidget(this))
    , mCalibration(new QLabel(this))
{
    setObjectName(QStringLiteral("charts_panel"));
    mTabs->setObjectName(QStringLiteral("charts_tabs"));
    mTabs->setDocumentMode(true);
    mCalibration->setObjectName(QStringLiteral("charts_calibration"));
    mCalibration->setContentsMargins(6, 0, 6, 0);
    // The corner: the efficiency gap in dollars of a training run (a toggle), then the calibration.
    auto *corner = new QWidget(this);
    auto *cornerLayout = new QHBoxLayout(corner);
    cornerLayout->setContentsMargins(0, 0, 0, 0);
    auto *dollars = new QCheckBox(tr("Gap in $ per training run"), corner);
    mDollars = dollars;
    dollars->setObjectName(QStringLiteral("gap_in_dollars"));
    dollars->setToolTip(tr("Show the efficiency gap as what each loss costs in one training run of the token "
                           "budget (set in Cost and power)"));
    cornerLayout->addWidget(dollars);
    cornerLayout->addWidget(mCalibration);
    mTabs->setCornerWidget(corner, Qt::TopRightCorner);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mTabs);

    mCharts = {new StepTimeChart(mTabs), new BandwidthChart(mTabs), new EfficiencyGapChart(mTabs),
               new MemoryChart(mTabs)};
    for (ChartView *chart : std::as_const(mCharts))
        mTabs->addTab(chart, chart->title());
    auto *gap = static_cast<EfficiencyGapChart *>(mCharts[2]);
    connect(dollars, &QCheckBox::toggled, gap, &EfficiencyGapChart::setInDollars);
}

void ChartsPanel::setResults(ResultsPtr results)
{
    mCalibrationText = results ? calibrationText(*results) : QString();
    fitCorner();
    for (ChartView *chart : std::as_const(mCharts))
        chart->setResults(results);
}

void ChartsPanel::setBaseline(ResultsPtr baseline)
{
    for (ChartView *chart : std::as_const(mCharts))
        chart->setBaseline(baseline);
}

void ChartsPanel::setBestLayout(ResultsPtr own, ResultsPtr best)
{
    if (auto *gap = qobject_cast<EfficiencyGapChart *>(chart(QStringLiteral("efficiency_gap"))))
        gap->setBestLayout(std::move(own), std::move(best));
}

ChartView *ChartsPanel::chart(const QString &id) const
{
    for (ChartView *chart : mCharts)
        if (chart->id() == id)
            return chart;
    return nullptr;
}

QString ChartsPanel::calibrationNote() const
{
    return mCalibrationText;
}

void ChartsPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitCorner();
}

void ChartsPanel::fitCorner()
{
    const QMargins margins = mCalibration->contentsMargins();
    const int room = mTabs->width() - mTabs->tabBar()->sizeHint().width() - mDollars->sizeHint().width()
                     - margins.left() - margins.right() - 12;
    const QString shown
        = mCalibration->fontMetrics().elidedText(mCalibrationText, Qt::ElideRight, std::max(0, room));
    mCalibration->setText(shown);
    mCalibration->setToolTip(shown == mCalibrationText ? QString() : mCalibrationText);
}

ChartView *ChartsPanel::currentChart() const
{
    return qobject_cast<ChartView *>(mTabs->currentWidget());
}

} // namespace gapstudio::views
