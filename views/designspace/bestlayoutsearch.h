#pragma once
/**
 * @file bestlayoutsearch.h
 * The studio's "judge at best layout" mode: after every change of the design, a background,
 * cancellable layout search (scenario::findBestLayout on a worker thread, explore/backgroundjob.h)
 * finds the best layout for the design's hardware and LLM, keeping the layout choices the user
 * pinned at the design's values. A newer change cancels a running search (its result is dropped)
 * and starts one for the new design after a short settle time, so the GUI never waits for a search.
 */

#include "results/scenarioresults.h"

#include "gapstudio/scenario/best_layout.h"

#include <QObject>
#include <QTimer>

namespace gapstudio::views {

class BackgroundJob;

/// Which layout choices the search keeps at the design's own values.
struct LayoutPinChoice {
    bool tensorPar = false, pipelinePar = false, dataPar = false, pipelineInterleaving = false,
         microbatchSize = false, recompute = false, optimizerSharding = false;
};

/// The pins of `choice` at the values of `execution` (e.g. "keep TP" of a TP-8 design: TP = 8).
[[nodiscard]] model::LayoutPins layoutPins(const LayoutPinChoice &choice, const model::Execution &execution);

class BestLayoutSearch final : public QObject {
    Q_OBJECT

public:
    static constexpr int kSettleMs = 120; ///< a drag's later steps restart the wait, not a search

    explicit BestLayoutSearch(QObject *parent = nullptr);
    ~BestLayoutSearch() override;

    /// Turns the mode on (searches for the latest design) or off (cancels, clears the best layout).
    void setEnabled(bool enabled);
    [[nodiscard]] bool isEnabled() const { return mEnabled; }
    void setPinChoice(const LayoutPinChoice &choice);
    [[nodiscard]] const LayoutPinChoice &pinChoice() const { return mPins; }
    /// Search threads (default: all hardware threads but one, at least one).
    void setThreads(unsigned threads) { mThreads = threads; }
    /// What runs on the worker thread (default: scenario::findBestLayout; tests substitute one that
    /// waits for the cancel flag).
    using SearchFunction = std::function<scenario::BestLayoutResult(const scenario::CompiledScenario &,
                                                                    const scenario::BestLayoutOptions &)>;
    void setSearchFunction(SearchFunction search) { mSearchFunction = std::move(search); }

    /// The design's results after a change: cancels a stale search and schedules a new one.
    void setResults(ResultsPtr own);

    [[nodiscard]] ResultsPtr own() const { return mOwn; }
    /// The design at its best layout, for own(); nullptr while searching, when off, or when no
    /// layout is valid.
    [[nodiscard]] ResultsPtr best() const { return mBest; }
    [[nodiscard]] bool isSearching() const;
    /// One line for the user: searching, the outcome, or why there is no best layout.
    [[nodiscard]] QString stateText() const { return mState; }

signals:
    /// The best layout for `own` (nullptr: none, or cleared by a change); also emitted with
    /// nullptr when a change makes the previous best layout stale.
    void bestLayoutChanged(gapstudio::views::ResultsPtr own, gapstudio::views::ResultsPtr best);
    void stateChanged(const QString &text);

private:
    void start();
    void setState(const QString &text);
    void clearBest();

    BackgroundJob *mJob;
    QTimer mSettle;
    bool mEnabled = false;
    LayoutPinChoice mPins;
    unsigned mThreads = 0;
    SearchFunction mSearchFunction;
    ResultsPtr mOwn, mBest;
    QString mState;
};

} // namespace gapstudio::views
