#include "explore/searchdialog.h"

#include "explore/backgroundjob.h"
#include "explore/explorecompute.h"
#include "explore/searchresultsmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace gapstudio::views {

namespace {

/// What the worker hands back: the search and its wall time.
struct Outcome {
    model::SearchResult result;
    double seconds = 0;
};

QSpinBox *spinBox(const QString &name, int minimum, int maximum, qint64 value)
{
    auto *box = new QSpinBox;
    box->setObjectName(name);
    box->setRange(minimum, maximum);
    box->setValue(static_cast<int>(std::clamp<qint64>(value, minimum, maximum)));
    box->setGroupSeparatorShown(true);
    return box;
}

QComboBox *comboBox(const QString &name, const QList<QPair<QString, int>> &items, int current)
{
    auto *box = new QComboBox;
    box->setObjectName(name);
    for (const auto &[text, value] : items)
        box->addItem(text, value);
    box->setCurrentIndex(std::max(0, box->findData(current)));
    return box;
}

} // namespace

SearchDialog::SearchDialog(const model::Design &current, QWidget *parent)
    : SearchDialog(current, explore::defaultEvaluateOptions(current), parent)
{
}

SearchDialog::SearchDialog(const model::Design &current, const model::EvaluateOptions &options,
                           QWidget *parent)
    : QDialog(parent)
    , mApplication(current.application)
    , mSystem(current.system)
    , mDesignSpace(explore::searchSpaceFor(current))
    , mOptions(options)
    , mSearchFunction(&model::searchLayouts)
    , mJob(new BackgroundJob(this))
    , mModel(new SearchResultsModel(this))
    , mProxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("searchDialog"));
    setWindowTitle(tr("Search layouts"));
    mJob->setObjectName(QStringLiteral("searchJob"));
    mModel->setObjectName(QStringLiteral("searchResultsModel"));
    mProxy->setObjectName(QStringLiteral("searchResultsProxy"));
    mProxy->setSourceModel(mModel);
    mProxy->setSortRole(SearchResultsModel::SortRole);
    buildForm(current);
    resize(1180, 640);
}

SearchDialog::~SearchDialog() = default; // mJob (a child) cancels and joins the search

QGroupBox *SearchDialog::buildSpaceGroup(const model::Design &current)
{
    const model::Execution &e = current.execution;
    constexpr int kMaxInt = std::numeric_limits<int>::max();

    // 1. The search space, prefilled from the design (calculon-model.md §9 options).
    mGpus = spinBox(QStringLiteral("gpusSpin"), 1, kMaxInt, e.numProcs);
    if (contextPar() > 1) {
        mGpus->setSingleStep(static_cast<int>(contextPar()));
        mGpus->setToolTip(tr("All GPUs: context parallelism %1 stays as designed").arg(contextPar()));
    }
    mMaxBatch = spinBox(QStringLiteral("maxBatchSpin"), 1, kMaxInt, e.batchSize);
    QList<QPair<QString, int>> datatypes;
    for (std::size_t i = 0; i < model::kDatatypeCount; ++i)
        if (current.system.matrix[i] && current.system.vector[i])
            datatypes.append({ QString::fromLatin1(model::datatypeName(static_cast<model::Datatype>(i))),
                               static_cast<int>(i) });
    mDatatype = comboBox(QStringLiteral("datatypeCombo"), datatypes, static_cast<int>(e.datatype));
    mExperts = spinBox(QStringLiteral("expertsSpin"), 0, 1 << 16, e.modelMoE ? e.numExperts : 0);
    mExperts->setSpecialValueText(tr("dense (no MoE)"));
    mExperts->setToolTip(
        tr("E > 0: the MoE search (EP = E, ES = TP, expert DP), calculon-MoE's legacy space"));
    mTopN = spinBox(QStringLiteral("topNSpin"), 1, 100000, 20);
    mMbsBreak = new QCheckBox(tr("Stop growing the microbatch once a size gives no valid layout (faster)"));
    mMbsBreak->setObjectName(QStringLiteral("mbsBreakCheck"));
    mMbsBreak->setChecked(true);
    // The design's own settings by default; each box widens the search beyond them.
    static constexpr const char *kOverlap[] = { "none", "ring", "pipe" };
    static constexpr const char *kCommType[]
        = { "all-reduce", "p2p reduce-scatter/all-gather", "reduce-scatter/all-gather" };
    mTpOverlap = new QCheckBox(tr("Try every TP overlap (none, ring, pipe); unchecked: the design's (%1)")
                                   .arg(QLatin1String(kOverlap[static_cast<int>(e.tensorParOverlap)])));
    mTpOverlap->setObjectName(QStringLiteral("tpOverlapCheck"));
    mTpOverlap->setChecked(false);
    mTpComm = new QCheckBox(tr("Try every TP communication; unchecked: the design's (%1)")
                                .arg(QLatin1String(kCommType[static_cast<int>(e.tensorParCommType)])));
    mTpComm->setObjectName(QStringLiteral("tpCommCheck"));
    mTpComm->setChecked(false);
    mDpOverlap = comboBox(QStringLiteral("dpOverlapCombo"),
                          { { tr("both (on and off)"), int(model::OverlapChoice::Both) },
                            { tr("on only"), int(model::OverlapChoice::On) },
                            { tr("off only"), int(model::OverlapChoice::Off) } },
                          int(mDesignSpace.dpOverlap));
    mFused = comboBox(QStringLiteral("fusedCombo"),
                      { { tr("fused"), int(model::FusedActivationChoice::True) },
                        { tr("not fused"), int(model::FusedActivationChoice::False) },
                        { tr("both"), int(model::FusedActivationChoice::Both) } },
                      int(mDesignSpace.fused));
    mRankBy = comboBox(QStringLiteral("rankByCombo"),
                       { { tr("sample rate (samples/s)"), int(model::RankBy::SampleRate) },
                         { tr("MFU"), int(model::RankBy::Mfu) } },
                       int(model::RankBy::SampleRate));

    auto *left = new QFormLayout;
    left->addRow(tr("GPUs:"), mGpus);
    left->addRow(tr("Max batch (samples):"), mMaxBatch);
    left->addRow(tr("Datatype:"), mDatatype);
    left->addRow(tr("MoE experts:"), mExperts);
    left->addRow(tr("Keep top:"), mTopN);
    auto *right = new QFormLayout;
    right->addRow(mMbsBreak);
    right->addRow(mTpOverlap);
    right->addRow(mTpComm);
    right->addRow(tr("DP overlap:"), mDpOverlap);
    right->addRow(tr("Activation:"), mFused);
    right->addRow(tr("Rank by:"), mRankBy);
    auto *space = new QGroupBox(tr("Search space"));
    space->setObjectName(QStringLiteral("searchSpaceGroup"));
    auto *spaceLayout = new QHBoxLayout(space);
    spaceLayout->addLayout(left, 1);
    spaceLayout->addSpacing(24);
    spaceLayout->addLayout(right, 1);
    return space;
}

QLayout *SearchDialog::buildRunRow()
{
    // 2. Start / Cancel / progress and the status line.
    mStart = new QPushButton(tr("Start"));
    mStart->setObjectName(QStringLiteral("startButton"));
    mStart->setDefault(true);
    mCancel = new QPushButton(tr("Cancel search"));
    mCancel->setObjectName(QStringLiteral("cancelButton"));
    mCancel->setEnabled(false);
    mProgress = new QProgressBar;
    mProgress->setObjectName(QStringLiteral("progressBar"));
    mProgress->setRange(0, 100);
    mProgress->setValue(0);
    mStatus = new QLabel(tr("Set the search space and press Start."));
    mStatus->setObjectName(QStringLiteral("statusLabel"));
    mStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *run = new QHBoxLayout;
    run->addWidget(mStart);
    run->addWidget(mCancel);
    run->addWidget(mProgress, 1);
    return run;
}

QWidget *SearchDialog::buildResultsAndButtons()
{
    // 3. The results table, sortable by any column (numerically).
    mTable = new QTableView;
    mTable->setObjectName(QStringLiteral("resultsTable"));
    mTable->setModel(mProxy);
    mTable->setSortingEnabled(true);
    mTable->sortByColumn(SearchResultsModel::Rank, Qt::AscendingOrder);
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::SingleSelection);
    mTable->setAlternatingRowColors(true);
    mTable->verticalHeader()->setVisible(false);
    mTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mTable->horizontalHeader()->setStretchLastSection(true);
    connect(mTable, &QTableView::doubleClicked, this, &SearchDialog::applySelected);

    mApply = new QPushButton(tr("Apply this layout"));
    mApply->setObjectName(QStringLiteral("applyButton"));
    mApply->setEnabled(false);
    mApply->setToolTip(tr("Use the selected layout (the best one if none is selected) in the design"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->setObjectName(QStringLiteral("dialogButtons"));
    buttons->addButton(mApply, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &SearchDialog::reject);
    return buttons;
}

void SearchDialog::buildForm(const model::Design &current)
{
    QGroupBox *space = buildSpaceGroup(current);
    QLayout *run = buildRunRow();
    QWidget *buttons = buildResultsAndButtons();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(space);
    layout->addLayout(run);
    layout->addWidget(mStatus);
    layout->addWidget(mTable, 1);
    layout->addWidget(buttons);

    connect(mStart, &QPushButton::clicked, this, &SearchDialog::start);
    connect(mCancel, &QPushButton::clicked, this, &SearchDialog::cancel);
    connect(mApply, &QPushButton::clicked, this, &SearchDialog::applySelected);
}

model::SearchSpace SearchDialog::searchSpace() const
{
    model::SearchSpace s = mDesignSpace; // what the form does not show stays the design's
    s.numProcs = mGpus->value() / contextPar(); // the GPUs the search lays out beside CP
    s.maxBatchSize = mMaxBatch->value();
    s.datatype = static_cast<model::Datatype>(mDatatype->currentData().toInt());
    s.mbsBreak = mMbsBreak->isChecked();
    if (mTpOverlap->isChecked()) {
        s.tpOverlap.reset();
        s.tpOverlapVariants = true;
    }
    if (mTpComm->isChecked())
        s.tpCommTypes = { model::TpCommType::Ar, model::TpCommType::P2pRsAg, model::TpCommType::RsAg };
    s.dpOverlap = static_cast<model::OverlapChoice>(mDpOverlap->currentData().toInt());
    s.moeExperts = mExperts->value();
    if (s.moeExperts != mDesignSpace.moeExperts) {
        s.topKExperts.reset(); // another expert count: the reference's top-k
        const model::Execution dense;
        s.base->modelMoE = dense.modelMoE; // a dense search evaluates dense layouts
        s.base->numExperts = dense.numExperts;
        s.base->topKExperts = dense.topKExperts;
        s.base->expertPar = dense.expertPar;
        s.base->expertSlice = dense.expertSlice;
        s.base->dataParExp = dense.dataParExp;
    }
    s.fused = static_cast<model::FusedActivationChoice>(mFused->currentData().toInt());
    s.rankBy = static_cast<model::RankBy>(mRankBy->currentData().toInt());
    return s;
}

std::size_t SearchDialog::topN() const
{
    return static_cast<std::size_t>(mTopN->value());
}

model::SearchOptions SearchDialog::searchOptions() const
{
    return explore::searchOptionsFor(mOptions, topN());
}

bool SearchDialog::isSearching() const
{
    return mJob->isRunning();
}

void SearchDialog::setSearching(bool searching)
{
    mStart->setEnabled(!searching);
    mCancel->setEnabled(searching);
    for (QWidget *w :
         std::initializer_list<QWidget *> { mGpus, mMaxBatch, mDatatype, mExperts, mTopN, mMbsBreak,
                                            mTpOverlap, mTpComm, mDpOverlap, mFused, mRankBy })
        w->setEnabled(!searching);
    mApply->setEnabled(!searching && mModel->rowCount() > 0);
}

std::int64_t SearchDialog::contextPar() const
{
    return mDesignSpace.base ? std::max<std::int64_t>(1, mDesignSpace.base->contextPar) : 1;
}

void SearchDialog::start()
{
    if (isSearching())
        return;
    if (mGpus->value() % contextPar() != 0) {
        mStatus->setText(tr("GPUs must be a multiple of the design's context parallelism (%1): the "
                            "search lays out the GPUs beside it.")
                             .arg(contextPar()));
        return;
    }
    const model::Application app = mApplication;
    const model::System sys = mSystem;
    const model::SearchSpace space = searchSpace();
    model::SearchOptions options = searchOptions();
    // Progress comes from the search's worker threads: hand it to the GUI thread.
    options.progress = [job = mJob, this](std::size_t done, std::size_t total) {
        job->post([this, done, total] { onProgress(done, total); });
    };
    mProgressDone = 0;
    mProgress->setValue(0);
    mStatus->setText(tr("Searching %1 GPUs…").arg(mGpus->value()));
    setSearching(true);
    mJob->start<Outcome>(
        [app, sys, space, options, search = mSearchFunction](const std::atomic<bool> &cancel) mutable {
            options.cancel = &cancel;
            QElapsedTimer timer;
            timer.start();
            Outcome out;
            out.result = search(app, sys, space, options);
            out.seconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
            return out;
        },
        [this](Outcome out) { onFinished(std::move(out.result), out.seconds); });
}

void SearchDialog::onProgress(std::size_t done, std::size_t total)
{
    // Callbacks from several threads may arrive out of order: keep the largest.
    if (done <= mProgressDone || total == 0)
        return;
    mProgressDone = done;
    mProgress->setValue(static_cast<int>(100 * done / total));
}

void SearchDialog::onFinished(model::SearchResult result, double seconds)
{
    mResult = std::move(result);
    mModel->setHits(mResult.top);
    const QLocale c = QLocale::c();
    const double rate = seconds > 0 ? static_cast<double>(mResult.configurations) / seconds : 0;
    QString status = tr("configurations: %1, valid: %2, seconds: %3, configurations/s: %4")
                         .arg(c.toString(static_cast<qulonglong>(mResult.configurations)),
                              c.toString(static_cast<qulonglong>(mResult.valid)), c.toString(seconds, 'f', 3),
                              c.toString(rate, 'f', 0));
    if (mResult.cancelled)
        status += tr(" — cancelled: the table shows the best of the layouts evaluated so far");
    else
        mProgress->setValue(100);
    if (!mResult.cancelled && mResult.top.empty())
        status += tr(" — no valid layout in this space");
    mStatus->setText(status);
    setSearching(false);
    const bool moe = std::any_of(mResult.top.begin(), mResult.top.end(),
                                 [](const model::SearchHit &h) { return h.execution.modelMoE; });
    mTable->setColumnHidden(SearchResultsModel::Ep, !moe); // always 1 in a dense search
    mTable->setColumnHidden(SearchResultsModel::Es, !moe);
    if (mModel->rowCount() > 0) {
        mTable->sortByColumn(SearchResultsModel::Rank, Qt::AscendingOrder);
        mTable->selectRow(0);
    }
    emit searchFinished();
}

void SearchDialog::cancel()
{
    if (!isSearching())
        return;
    mStatus->setText(tr("Cancelling…"));
    mJob->requestCancel(); // the search stops after its current task and reports what it found
}

void SearchDialog::applySelected()
{
    if (mModel->rowCount() == 0)
        return;
    int row = 0;
    const QModelIndexList selected = mTable->selectionModel()->selectedRows();
    if (!selected.isEmpty())
        row = mProxy->mapToSource(selected.front()).row();
    emit layoutApplied(mModel->hit(row).execution);
}

void SearchDialog::reject()
{
    mJob->cancel(); // closing drops a running search
    setSearching(false);
    QDialog::reject();
}

} // namespace gapstudio::views
