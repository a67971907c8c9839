#include "designspace/bestlayoutsearch.h"

#include "explore/backgroundjob.h"

#include <algorithm>
#include <thread>

namespace gapstudio::views {

model::LayoutPins layoutPins(const LayoutPinChoice &choice, const model::Execution &e)
{
    model::LayoutPins pins;
    if (choice.tensorPar)
        pins.tensorPar = e.tensorPar;
    if (choice.pipelinePar)
        pins.pipelinePar = e.pipelinePar;
    if (choice.dataPar)
        pins.dataPar = e.dataPar;
    if (choice.pipelineInterleaving)
        pins.pipelineInterleaving = e.pipelineInterleaving;
    if (choice.microbatchSize)
        pins.microbatchSize = e.microbatchSize;
    if (choice.recompute)
        pins.recompute = e.activationRecompute;
    if (choice.optimizerSharding)
        pins.optimizerSharding = e.optimizerSharding;
    return pins;
}

BestLayoutSearch::BestLayoutSearch(QObject *parent)
    : QObject(parent)
    , mJob(new BackgroundJob(this))
    , mThreads(std::max(1u, std::thread::hardware_concurrency() - 1)) // one core stays with the GUI
{
    mSearchFunction
        = [](const scenario::CompiledScenario &compiled, const scenario::BestLayoutOptions &options) {
              return scenario::findBestLayout(compiled, options);
          };
    mSettle.setSingleShot(true);
    connect(&mSettle, &QTimer::timeout, this, &BestLayoutSearch::start);
}

BestLayoutSearch::~BestLayoutSearch() = default; // the job (a child) cancels and joins its run

bool BestLayoutSearch::isSearching() const
{
    return mSettle.isActive() || mJob->isRunning();
}

void BestLayoutSearch::setEnabled(bool enabled)
{
    if (enabled == mEnabled)
        return;
    mEnabled = enabled;
    if (enabled)
        return setResults(mOwn);
    mSettle.stop();
    mJob->cancel();
    clearBest();
    setState(tr("Off: the design is judged at its own layout"));
}

void BestLayoutSearch::setPinChoice(const LayoutPinChoice &choice)
{
    mPins = choice;
    if (mEnabled)
        setResults(mOwn);
}

void BestLayoutSearch::setResults(ResultsPtr own)
{
    mOwn = std::move(own);
    if (!mEnabled)
        return;
    mJob->cancel(); // a stale search stops within one search task; its result is dropped
    clearBest();
    if (!mOwn || !mOwn->compiled) {
        mSettle.stop();
        return setState(tr("No best layout: the design does not compile"));
    }
    setState(tr("Searching for the best layout…"));
    mSettle.start(kSettleMs);
}

void BestLayoutSearch::start()
{
    if (!mEnabled || !mOwn || !mOwn->compiled)
        return;
    scenario::BestLayoutOptions options;
    options.pins = layoutPins(mPins, mOwn->compiled->execution);
    options.threads = mThreads;
    const scenario::CompiledScenario compiled = *mOwn->compiled;
    const ResultsPtr own = mOwn;
    mJob->start<scenario::BestLayoutResult>(
        [compiled, options, search = mSearchFunction](const std::atomic<bool> &cancel) mutable {
            options.cancel = &cancel;
            return search(compiled, options);
        },
        [this, own](scenario::BestLayoutResult found) {
            if (own != mOwn)
                return; // superseded (a change arrived while the result was queued)
            if (!found.found) {
                setState(found.cancelled ? tr("Search cancelled")
                                         : tr("No valid layout with the pinned choices (%1 searched)")
                                               .arg(found.configurations));
                return;
            }
            mBest = std::make_shared<const ScenarioResults>(std::move(found.result));
            setState(tr("Best of %1 layouts (%2 evaluated, the rest provably slower)")
                         .arg(found.configurations)
                         .arg(found.evaluated));
            emit bestLayoutChanged(mOwn, mBest);
        });
}

void BestLayoutSearch::clearBest()
{
    if (!mBest)
        return;
    mBest = nullptr;
    emit bestLayoutChanged(mOwn, nullptr);
}

void BestLayoutSearch::setState(const QString &text)
{
    mState = text;
    emit stateChanged(text);
}

} // namespace gapstudio::views
