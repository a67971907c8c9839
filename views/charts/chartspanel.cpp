#include "charts/chartspanel.h"

#include "charts/bandwidthchart.h"
#include "charts/efficiencygapchart.h"
#include "charts/memorychart.h"
#include "charts/steptimechart.h"
#include "common/cornernote.h"
#include "results/calibrationtext.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace gapstudio::views {

namespace {

/// The charts' ids in tab order.
const QStringList kChartIds = { QStringLiteral("step_time"), QStringLiteral("bandwidth"),
                                QStringLiteral("efficiency_gap"), QStringLiteral("memory") };

} // namespace

ChartsPanel::ChartsPanel(QWidget *parent)
    : QWidget(parent)
    , mTabs(new QTabWidget(this))
    , mCalibration(new CornerNote(this))
{
    setObjectName(QStringLiteral("charts_panel"));
    mTabs->setObjectName(QStringLiteral("charts_tabs"));
    mTabs->setDocumentMode(true);
    mCalibration->setObjectName(QStringLiteral("charts_calibration"));
    // The corner: the efficiency gap in dollars of a training run (a toggle), Enlarge, then the
    // calibration.
    auto *corner = new QWidget(this);
    auto *cornerLayout = new QHBoxLayout(corner);
    cornerLayout->setContentsMargins(0, 0, 0, 0);
    auto *dollars = new QCheckBox(tr("Gap in $ per training run"), corner);
    mDollars = dollars;
    dollars->setObjectName(QStringLiteral("gap_in_dollars"));
    dollars->setToolTip(tr("Show the efficiency gap as what each loss costs in one training run of the token "
                           "budget (set in Cost and power)"));
    cornerLayout->addWidget(dollars);
    auto *enlarge = new QToolButton(corner);
    enlarge->setObjectName(QStringLiteral("enlarge_chart"));
    enlarge->setText(tr("Enlarge"));
    enlarge->setAutoRaise(true);
    enlarge->setToolTip(tr("Open the chart shown in a window of its own, which you can maximise; it follows "
                           "every change of the design (the chart stays here too)"));
    connect(enlarge, &QToolButton::clicked, this, [this] { enlargeCurrentChart(); });
    mEnlarge = enlarge;
    cornerLayout->addWidget(enlarge);
    cornerLayout->addWidget(mCalibration);
    mTabs->setCornerWidget(corner, Qt::TopRightCorner);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mTabs);

    for (const QString &id : kChartIds) {
        ChartView *chart = makeChart(id, mTabs);
        mCharts << chart;
        mTabs->addTab(chart, chart->title());
    }
}

ChartView *ChartsPanel::makeChart(const QString &id, QWidget *parent)
{
    ChartView *chart = nullptr;
    if (id == QLatin1String("step_time"))
        chart = new StepTimeChart(parent);
    else if (id == QLatin1String("bandwidth"))
        chart = new BandwidthChart(parent);
    else if (id == QLatin1String("memory"))
        chart = new MemoryChart(parent);
    else {
        auto *gap = new EfficiencyGapChart(parent);
        auto *dollars = static_cast<QCheckBox *>(mDollars);
        gap->setInDollars(dollars->isChecked());
        connect(dollars, &QCheckBox::toggled, gap, &EfficiencyGapChart::setInDollars);
        chart = gap;
    }
    return chart;
}

ChartView *ChartsPanel::enlargeCurrentChart()
{
    const ChartView *shown = currentChart();
    if (!shown)
        return nullptr;
    auto *window = new QWidget(this, Qt::Window);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setObjectName(QStringLiteral("enlarged_chart"));
    window->setWindowTitle(tr("%1 - GapStudio").arg(shown->title()));
    ChartView *chart = makeChart(shown->id(), window);
    auto *layout = new QVBoxLayout(window);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(chart);
    chart->setResults(mResults);
    chart->setPins(mPins);
    if (auto *gap = qobject_cast<EfficiencyGapChart *>(chart))
        gap->setBestLayout(mBestOwn, mBestLayout);
    mEnlarged << chart;
    // Over the studio's window, at its size: the whole window for one chart.
    window->setGeometry(this->window()->geometry());
    window->show();
    return chart;
}

void ChartsPanel::setResults(ResultsPtr results)
{
    mCalibration->setWholeText(results ? calibrationText(*results) : QString());
    fitCorner();
    mResults = results;
    for (ChartView *chart : allCharts())
        chart->setResults(results);
}

QList<ChartView *> ChartsPanel::allCharts() const
{
    QList<ChartView *> charts = mCharts;
    for (const QPointer<ChartView> &chart : mEnlarged)
        if (chart)
            charts << chart;
    return charts;
}

void ChartsPanel::setPins(const QList<PinnedScenario> &pins)
{
    mPins = pins;
    for (ChartView *chart : allCharts())
        chart->setPins(pins);
}

void ChartsPanel::setBaseline(ResultsPtr baseline)
{
    setPins(baselinePin(std::move(baseline)));
}

void ChartsPanel::setBestLayout(ResultsPtr own, ResultsPtr best)
{
    mBestOwn = own;
    mBestLayout = best;
    for (ChartView *chart : allCharts())
        if (auto *gap = qobject_cast<EfficiencyGapChart *>(chart))
            gap->setBestLayout(own, best);
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
    return mCalibration->wholeText();
}

void ChartsPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitCorner();
}

void ChartsPanel::fitCorner()
{
    mCalibration->fitBeside(mTabs, mDollars->sizeHint().width() + mEnlarge->sizeHint().width());
}

ChartView *ChartsPanel::currentChart() const
{
    return qobject_cast<ChartView *>(mTabs->currentWidget());
}

} // namespace gapstudio::views
