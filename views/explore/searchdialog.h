#pragma once
/**
 * @file searchdialog.h
 * The fastest-layout search (model::searchLayouts, the reference's `llm-optimal-execution`
 * space) for the current design: the search space is prefilled from the design, with the design's
 * own settings (TP and DP overlap, TP communication, activation; explore::searchSpaceFor) unless
 * the user widens them; Start runs the
 * search on a worker thread (the window stays responsive, progress per search task, Cancel stops
 * it within one task); the top N layouts then fill a sortable table, and "Apply this layout"
 * emits the selected one (by default the best).
 */

#include "gapstudio/model/search.h"
#include "gapstudio/model/sweep.h"

#include <QDialog>

#include <functional>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLayout;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace gapstudio::views {

class BackgroundJob;
class SearchResultsModel;

class SearchDialog final : public QDialog {
    Q_OBJECT

public:
    /// Prefills the search space from `current` and evaluates with its reference semantics
    /// (explore::defaultEvaluateOptions).
    explicit SearchDialog(const model::Design &current, QWidget *parent = nullptr);
    /// The same with explicit evaluation options (their quirks are used by the search).
    SearchDialog(const model::Design &current, const model::EvaluateOptions &options,
                 QWidget *parent = nullptr);
    ~SearchDialog() override;

    /// The search space and options as set in the form.
    [[nodiscard]] model::SearchSpace searchSpace() const;
    [[nodiscard]] std::size_t topN() const;
    [[nodiscard]] model::SearchOptions searchOptions() const;

    [[nodiscard]] bool isSearching() const;
    /// The last finished search (empty before the first).
    [[nodiscard]] const model::SearchResult &result() const { return mResult; }
    [[nodiscard]] SearchResultsModel *resultsModel() const { return mModel; }
    [[nodiscard]] QTableView *resultsView() const { return mTable; }

    /// What Start runs on the worker thread (default model::searchLayouts). A seam for tests:
    /// one that waits on the cancel flag makes a search that cannot end before Cancel.
    using SearchFunction
        = std::function<model::SearchResult(const model::Application &, const model::System &,
                                            const model::SearchSpace &, const model::SearchOptions &)>;
    void setSearchFunction(SearchFunction search) { mSearchFunction = std::move(search); }

public slots:
    void start();
    void cancel();
    /// Emits layoutApplied with the selected row's layout (the best one if none is selected).
    void applySelected();

signals:
    void layoutApplied(const gapstudio::model::Execution &execution);
    /// A search ended (finished or cancelled); result() holds it.
    void searchFinished();

protected:
    void reject() override;

private:
    /// The dialog's three parts, top to bottom, laid out by buildForm().
    void buildForm(const model::Design &current);
    /// The search space's fields, prefilled from `current`.
    QGroupBox *buildSpaceGroup(const model::Design &current);
    /// Start, Cancel, the progress bar (and the status line below them).
    QLayout *buildRunRow();
    /// The results table and the dialog's buttons (Apply this layout, Close); returns the buttons.
    QWidget *buildResultsAndButtons();
    /// The design's context parallelism, which every layout of the search keeps.
    [[nodiscard]] std::int64_t contextPar() const;
    void setSearching(bool searching);
    void onProgress(std::size_t done, std::size_t total);
    void onFinished(model::SearchResult result, double seconds);

    model::Application mApplication;
    model::System mSystem;
    model::SearchSpace mDesignSpace; ///< explore::searchSpaceFor(the design): the form's defaults
    model::EvaluateOptions mOptions;
    model::SearchResult mResult;
    SearchFunction mSearchFunction;
    BackgroundJob *mJob = nullptr;
    SearchResultsModel *mModel = nullptr;
    QSortFilterProxyModel *mProxy = nullptr;

    QSpinBox *mGpus = nullptr;
    QSpinBox *mMaxBatch = nullptr;
    QComboBox *mDatatype = nullptr;
    QSpinBox *mExperts = nullptr;
    QSpinBox *mTopN = nullptr;
    QCheckBox *mMbsBreak = nullptr;
    QCheckBox *mTpOverlap = nullptr;
    QCheckBox *mTpComm = nullptr;
    QComboBox *mDpOverlap = nullptr;
    QComboBox *mFused = nullptr;
    QComboBox *mRankBy = nullptr;
    QPushButton *mStart = nullptr;
    QPushButton *mCancel = nullptr;
    QPushButton *mApply = nullptr;
    QProgressBar *mProgress = nullptr;
    QLabel *mStatus = nullptr;
    QTableView *mTable = nullptr;
    std::size_t mProgressDone = 0;
};

} // namespace gapstudio::views
