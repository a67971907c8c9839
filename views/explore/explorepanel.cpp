#include "explore/explorepanel.h"

#include "common/cornernote.h"
#include "common/whenseen.h"
#include "explore/backgroundjob.h"
#include "explore/domainsweepchart.h"
#include "explore/explorecompute.h"
#include "explore/heatmapchart.h"
#include "explore/scalingchart.h"
#include "explore/searchdialog.h"
#include "explore/tornadochart.h"
#include "explore/variantschart.h"
#include "results/calibrationtext.h"

#include "gapstudio/scenario/cost.h"

#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>

namespace gapstudio::views {

ExplorePanel::ExplorePanel(QWidget *parent)
    : QWidget(parent)
    , mJob(new BackgroundJob(this))
    , mTabs(new QTabWidget(this))
    , mScaling(new ScalingChart)
    , mDomain(new DomainSweepChart)
    , mTornado(new TornadoChart)
    , mVariants(new VariantsChart)
    , mHeatmap(new HeatmapChart)
{
    setObjectName(QStringLiteral("explorePanel"));
    mJob->setObjectName(QStringLiteral("exploreJob"));
    mTabs->setObjectName(QStringLiteral("exploreTabs"));
    mTabs->addTab(mScaling, tr("Scaling"));
    mTabs->addTab(mDomain, tr("Domain size"));
    mTabs->addTab(mTornado, tr("Sensitivity"));
    mTabs->addTab(mVariants, tr("Variants"));
    mTabs->addTab(mHeatmap, tr("TP x PP"));
    for (ExploreChart *chart : fastCharts())
        chart->setDataUpdater([this] { updateFastChartsIfStale(); });
    mCalibration = new CornerNote;
    mCalibration->setObjectName(QStringLiteral("exploreCalibration"));
    mTabs->setCornerWidget(mCalibration, Qt::TopRightCorner);

    mSearchButton = new QPushButton(tr("Search layouts…"));
    mSearchButton->setObjectName(QStringLiteral("searchLayoutsButton"));
    mSearchButton->setToolTip(tr("Find the fastest parallel layout for this model, system and GPU count"));
    mSweepsButton = new QPushButton(tr("Run sweeps"));
    mSweepsButton->setObjectName(QStringLiteral("runSweepsButton"));
    mSweepsButton->setToolTip(
        tr("Compute the scaling curve and the TP x PP heatmap (one layout search per point)"));
    mCancelButton = new QPushButton(tr("Cancel"));
    mCancelButton->setObjectName(QStringLiteral("cancelSweepsButton"));
    mProgress = new QProgressBar;
    mProgress->setObjectName(QStringLiteral("sweepsProgress"));
    mProgress->setRange(0, 100);
    // Hidden when idle, but its place is kept: the buttons never move (Cancel does not jump).
    QSizePolicy keep = mProgress->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    mProgress->setSizePolicy(keep);
    mStatus = new QLabel;
    mStatus->setObjectName(QStringLiteral("sweepsStatus"));
    auto *bar = new QHBoxLayout;
    bar->addWidget(mSearchButton);
    bar->addWidget(mSweepsButton);
    bar->addWidget(mCancelButton);
    bar->addWidget(mProgress, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(mStatus);
    layout->addWidget(mTabs, 1);

    connect(mSearchButton, &QPushButton::clicked, this, &ExplorePanel::openSearchDialog);
    connect(mSweepsButton, &QPushButton::clicked, this, &ExplorePanel::runSweeps);
    connect(mCancelButton, &QPushButton::clicked, this, &ExplorePanel::cancelSweeps);
    setRunning(false);
    mStatus->setText(tr("No design yet."));
}

ExplorePanel::~ExplorePanel()
{
    // The search dialog is a child, deleted by ~QWidget after this destructor: its destroyed()
    // must not reach the half-destroyed panel. mJob (a child) cancels and joins a running sweep.
    if (mDialog)
        disconnect(mDialog, nullptr, this, nullptr);
}

QList<ExploreChart *> ExplorePanel::charts() const
{
    return { mScaling, mDomain, mTornado, mVariants, mHeatmap };
}

QString ExplorePanel::calibrationNote() const
{
    return mCalibration->wholeText();
}

void ExplorePanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitCorner();
}

void ExplorePanel::setCalibrationNote(const QString &text)
{
    mCalibration->setWholeText(text);
    fitCorner();
}

void ExplorePanel::fitCorner()
{
    mCalibration->fitBeside(mTabs);
}

ExploreChart *ExplorePanel::currentChart() const
{
    return qobject_cast<ExploreChart *>(mTabs->currentWidget());
}

bool ExplorePanel::isRunning() const
{
    return mJob->isRunning();
}

void ExplorePanel::setResults(const ResultsPtr &results)
{
    if (results && results->compiled) {
        explore(*results->design(), results);
        return;
    }
    if (isRunning())
        mJob->cancel();
    mDesign.reset();
    mBase = results;
    setCalibrationNote(results ? calibrationText(*results) : QString());
    const QString why = results ? QString::fromStdString(results->statusText) : tr("No design yet.");
    mFastStale = false;
    for (ExploreChart *chart : charts())
        chart->showMessage(tr("Nothing to explore: %1").arg(why));
    setRunning(false);
    mStatus->setText(why);
    mSweepsCurrent = false;
}

void ExplorePanel::setDesign(const model::Design &design)
{
    setDesign(design, explore::defaultEvaluateOptions(design));
}

void ExplorePanel::setDesign(const model::Design &design, const model::EvaluateOptions &options)
{
    explore(design, std::make_shared<const ScenarioResults>(scenario::runDesign(design, options)));
}

void ExplorePanel::explore(const model::Design &design, ResultsPtr base)
{
    mDesign = design;
    mBase = std::move(base);
    setCalibrationNote(calibrationText(*mBase)); // every what-if runs with the design's options
    mOptions = mBase->evaluateOptions;
    mOptions.withLayers = false;
    if (isRunning()) {
        mJob->cancel(); // its results would belong to the previous design
        mScaling->showMessage(tr("The design changed: press Run sweeps"));
        mHeatmap->showMessage(tr("The design changed: press Run sweeps"));
    }
    setRunning(false);
    // The sensitivity, variants and domain-size sweeps are computed when one of their charts is
    // seen (shown, read or exported): a hidden Explore dock costs nothing per change.
    mFastStale = true;
    if (isSeen(this))
        updateFastChartsIfStale();
    else
        for (ExploreChart *chart : fastCharts())
            chart->markDataStale();
    mStatus->setText(mSweepsCurrent ? tr(
                         "The design changed: press Run sweeps to update the scaling curve and the heatmap.")
                                    : tr("Press Run sweeps for the scaling curve and the heatmap."));
    mSweepsCurrent = false;
}

model::SweepPoint ExplorePanel::designPoint() const
{
    model::SweepPoint point;
    point.x = static_cast<double>(mDesign->execution.numProcs);
    point.label = "this design";
    point.evaluation = mBase->evaluation;
    point.layout = mDesign->execution;
    return point;
}

QList<ExploreChart *> ExplorePanel::fastCharts() const
{
    return { mTornado, mVariants, mDomain };
}

void ExplorePanel::updateFastChartsIfStale()
{
    if (!mFastStale || !mDesign)
        return;
    mFastStale = false;
    ++mFastUpdates;
    updateFastCharts();
}

void ExplorePanel::updateFastCharts()
{
    const model::Design &d = *mDesign;
    if (mBase->ok())
        mTornado->setData(model::sensitivity(d, mOptions), d, mBase->evaluation.stats);
    else
        mTornado->showMessage(tr("No sensitivity: %1").arg(QString::fromStdString(mBase->statusText)));
    mVariants->setData(model::sweepVariants(d, mOptions), d.system);
    mDomain->setData(
        explore::sweepDomainSize(d, mOptions),
        static_cast<std::int64_t>(model::parameterValue(d, model::HardwareParameter::ScaleUpDomainSize)));
}

void ExplorePanel::openSearchDialog()
{
    if (!mDesign)
        return;
    if (mDialog && !mDialog->isSearching()) {
        mDialog->deleteLater(); // a new dialog for the current design
        mDialog = nullptr;
    }
    if (!mDialog) {
        mDialog = new SearchDialog(*mDesign, mOptions, this);
        mDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(mDialog, &SearchDialog::layoutApplied, this, &ExplorePanel::layoutApplied);
        connect(mDialog, &QObject::destroyed, this, [this](QObject *dialog) {
            if (dialog == mDialog)
                mDialog = nullptr;
        });
    }
    mDialog->show();
    mDialog->raise();
    mDialog->activateWindow();
}

void ExplorePanel::runSweeps()
{
    if (!mDesign || isRunning())
        return;
    const model::Design design = *mDesign;
    const model::EvaluateOptions options = mOptions;
    // Charts with results keep them until the new ones arrive (or the run is cancelled).
    for (ExploreChart *chart :
         { static_cast<ExploreChart *>(mScaling), static_cast<ExploreChart *>(mHeatmap) })
        if (!chart->hasData())
            chart->showMessage(tr("Computing…"));
    mProgress->setValue(0);
    mStatus->setText(tr("Searching the best layout at each GPU count…"));
    setRunning(true);
    struct Outcome {
        explore::ExploreResults results;
        double seconds = 0;
    };
    mJob->start<Outcome>(
        [design, options, job = mJob, this](const std::atomic<bool> &cancel) {
            QElapsedTimer timer;
            timer.start();
            Outcome out;
            out.results = explore::computeExplore(design, options, &cancel, [job, this](double fraction) {
                job->post([this, fraction] {
                    mProgress->setValue(
                        std::max(mProgress->value(), static_cast<int>(std::lround(fraction * 100))));
                });
            });
            out.seconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
            return out;
        },
        [this](Outcome out) {
            setRunning(false);
            showResults(out.results);
            if (!out.results.cancelled)
                mStatus->setText(tr("Sweeps done in %1 s.").arg(QLocale::c().toString(out.seconds, 'f', 1)));
            emit sweepsFinished();
        });
}

void ExplorePanel::showResults(const explore::ExploreResults &results)
{
    if (results.cancelled) { // earlier results stay; only empty charts say so
        bool kept = false;
        for (ExploreChart *chart :
             { static_cast<ExploreChart *>(mScaling), static_cast<ExploreChart *>(mHeatmap) }) {
            if (chart->hasData())
                kept = true;
            else
                chart->showMessage(tr("Cancelled: press Run sweeps again"));
        }
        mStatus->setText(kept ? tr("Sweeps cancelled: the charts keep their earlier results.")
                              : tr("Sweeps cancelled."));
        return;
    }
    const model::Design &d = *mDesign;
    const QString note = QString::fromStdString(explore::searchNote(explore::searchSpaceFor(d)));
    // Each GPU count's goodput under failures, for a design compiled from a scenario (its blocks
    // are what fails).
    std::vector<model::GoodputResult> goodput(results.scaling.size());
    if (mBase->compiled)
        for (std::size_t i = 0; i < results.scaling.size(); ++i) {
            const model::SweepPoint &point = results.scaling[i];
            if (point.evaluation.ok && point.layout)
                goodput[i] = scenario::scenarioGoodputAt(*mBase->compiled, *point.layout, point.evaluation);
        }
    const model::GoodputResult *designGoodput = mBase->shownGoodput();
    mScaling->setData(results.scaling, d.application.seqSize, designPoint(), note, std::move(goodput),
                      designGoodput ? *designGoodput : model::GoodputResult {});
    mHeatmap->setData(results.heatmap, designPoint());
    mSweepsCurrent = true;
}

void ExplorePanel::cancelSweeps()
{
    if (!isRunning())
        return;
    mStatus->setText(tr("Cancelling…"));
    mJob->requestCancel(); // stops within one search task; the results then say "cancelled"
}

void ExplorePanel::setRunning(bool running)
{
    mSearchButton->setEnabled(!running && mDesign.has_value());
    mSweepsButton->setEnabled(!running && mDesign.has_value());
    mCancelButton->setEnabled(running);
    mProgress->setVisible(running);
}

} // namespace gapstudio::views
