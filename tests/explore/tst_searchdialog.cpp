// The layout search dialog: prefilled from the design, searches on a worker
// thread with progress, cancels a long search and stays usable, shows the same top layouts as
// model::searchLayouts in a sortable table, and "Apply this layout" emits the chosen layout.
#include "exploredesigns.h"

#include "explore/searchdialog.h"
#include "explore/searchresultsmodel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

#include <atomic>
#include <chrono>
#include <thread>

using namespace gapstudio;
using views::SearchDialog;
using views::SearchResultsModel;

namespace {

constexpr int kSearchTimeoutMs = 120000;

template <typename T> T *child(QObject *parent, const char *name)
{
    T *w = parent->findChild<T *>(QLatin1String(name));
    if (!w)
        qWarning("no child %s", name);
    return w;
}

bool sameLayout(const model::Execution &a, const model::Execution &b)
{
    return a.numProcs == b.numProcs && a.tensorPar == b.tensorPar && a.pipelinePar == b.pipelinePar
           && a.dataPar == b.dataPar && a.batchSize == b.batchSize && a.microbatchSize == b.microbatchSize
           && a.pipelineInterleaving == b.pipelineInterleaving
           && a.activationRecompute == b.activationRecompute && a.tensorParCommType == b.tensorParCommType
           && a.tensorParOverlap == b.tensorParOverlap && a.dataParOverlap == b.dataParOverlap
           && a.optimizerSharding == b.optimizerSharding && a.seqParAgRedo == b.seqParAgRedo
           && a.weightOffload == b.weightOffload && a.activationsOffload == b.activationsOffload
           && a.optimizerOffload == b.optimizerOffload && a.tensorParNet == b.tensorParNet
           && a.pipelineParNet == b.pipelineParNet && a.dataParNet == b.dataParNet && a.datatype == b.datatype
           && a.fusedActivation == b.fusedActivation;
}

/// Clicks Start and waits for the search to end.
bool runSearch(SearchDialog &dialog)
{
    QSignalSpy finished(&dialog, &SearchDialog::searchFinished);
    QTest::mouseClick(child<QPushButton>(&dialog, "startButton"), Qt::LeftButton);
    return finished.wait(kSearchTimeoutMs) || finished.count() > 0;
}

} // namespace

class tst_SearchDialog : public QObject {
    Q_OBJECT

private slots:
    void prefilledFromDesign();
    void searchShowsProgressAndResults();
    void applyEmitsTopLayout();
    void applyEmitsSelectedRowAfterSorting();
    void cancelStopsLongSearch();
    void resultsTableInWords();
};

void tst_SearchDialog::prefilledFromDesign()
{
    model::Design design = test::smallSearchDesign();
    design.execution.modelMoE = true;
    design.execution.numExperts = 16;
    SearchDialog dialog(design);
    QCOMPARE(child<QSpinBox>(&dialog, "gpusSpin")->value(), 5128);
    QCOMPARE(child<QSpinBox>(&dialog, "maxBatchSpin")->value(), 2520);
    QCOMPARE(child<QComboBox>(&dialog, "datatypeCombo")->currentText(), QStringLiteral("float8"));
    QCOMPARE(child<QSpinBox>(&dialog, "expertsSpin")->value(), 16);
    const model::SearchSpace space = dialog.searchSpace();
    QCOMPARE(space.numProcs, 5128);
    QCOMPARE(space.maxBatchSize, 2520);
    QCOMPARE(space.datatype, model::Datatype::Float8);
    QCOMPARE(space.moeExperts, 16);
    QVERIFY(space.mbsBreak);
    QVERIFY(!child<QPushButton>(&dialog, "applyButton")->isEnabled());
}

void tst_SearchDialog::searchShowsProgressAndResults()
{
    const model::Design design = test::smallSearchDesign();
    SearchDialog dialog(design);
    auto *table = child<QTableView>(&dialog, "resultsTable");
    QAbstractItemModelTester sourceTester(dialog.resultsModel(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(table->model(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto *progress = child<QProgressBar>(&dialog, "progressBar");
    QCOMPARE(progress->value(), 0);

    QSignalSpy finished(&dialog, &SearchDialog::searchFinished);
    QTest::mouseClick(child<QPushButton>(&dialog, "startButton"), Qt::LeftButton);
    // Start returns at once: the search runs on a worker thread.
    QVERIFY(dialog.isSearching());
    QVERIFY(!child<QPushButton>(&dialog, "startButton")->isEnabled());
    QVERIFY(child<QPushButton>(&dialog, "cancelButton")->isEnabled());
    QVERIFY(finished.wait(kSearchTimeoutMs) || finished.count() == 1);
    QCOMPARE(finished.count(), 1);
    QTRY_COMPARE(progress->value(), 100);
    QVERIFY(!dialog.isSearching());

    // The same layouts, in the same order, as the model's search with the form's space.
    model::SearchOptions options = dialog.searchOptions();
    const model::SearchResult expected
        = model::searchLayouts(design.application, design.system, dialog.searchSpace(), options);
    const model::SearchResult &got = dialog.result();
    QVERIFY(!got.cancelled);
    QCOMPARE(got.configurations, expected.configurations);
    QCOMPARE(got.valid, expected.valid);
    QCOMPARE(got.top.size(), std::min<std::size_t>(dialog.topN(), expected.valid));
    QVERIFY(!got.top.empty());
    for (std::size_t i = 0; i < got.top.size(); ++i)
        QVERIFY2(sameLayout(got.top[i].execution, expected.top[i].execution), qPrintable(QString::number(i)));

    QCOMPARE(dialog.resultsModel()->rowCount(), static_cast<int>(got.top.size()));
    QCOMPARE(table->model()->rowCount(), static_cast<int>(got.top.size()));
    const QModelIndex tp = dialog.resultsModel()->index(0, SearchResultsModel::Tp);
    QCOMPARE(tp.data().toString(), QString::number(got.top[0].execution.tensorPar));
    const QString status = child<QLabel>(&dialog, "statusLabel")->text();
    QVERIFY2(status.contains(QStringLiteral("configurations: ")) && status.contains(QStringLiteral("valid: "))
                 && status.contains(QStringLiteral("seconds: "))
                 && status.contains(QStringLiteral("configurations/s: ")),
             qPrintable(status));
    QVERIFY(child<QPushButton>(&dialog, "applyButton")->isEnabled());
    QVERIFY(child<QPushButton>(&dialog, "startButton")->isEnabled());
}

void tst_SearchDialog::applyEmitsTopLayout()
{
    SearchDialog dialog(test::smallSearchDesign());
    QVERIFY(runSearch(dialog));
    QVERIFY(!dialog.result().top.empty());
    QSignalSpy applied(&dialog, &SearchDialog::layoutApplied);
    model::Execution emitted;
    connect(&dialog, &SearchDialog::layoutApplied, this, [&](const model::Execution &e) { emitted = e; });
    QTest::mouseClick(child<QPushButton>(&dialog, "applyButton"), Qt::LeftButton);
    QCOMPARE(applied.count(), 1);
    QVERIFY(sameLayout(emitted, dialog.result().top.front().execution));
}

void tst_SearchDialog::applyEmitsSelectedRowAfterSorting()
{
    SearchDialog dialog(test::smallSearchDesign());
    QVERIFY(runSearch(dialog));
    const std::vector<model::SearchHit> &hits = dialog.result().top;
    QVERIFY(hits.size() > 1);
    // Sort by step time, longest first, and apply the first row: the slowest of the top N.
    QTableView *table = dialog.resultsView();
    table->sortByColumn(SearchResultsModel::StepTime, Qt::DescendingOrder);
    table->selectRow(0);
    const auto slowest = std::max_element(hits.begin(), hits.end(), [](const auto &a, const auto &b) {
        return a.stats.total_time < b.stats.total_time;
    });
    model::Execution emitted;
    connect(&dialog, &SearchDialog::layoutApplied, this, [&](const model::Execution &e) { emitted = e; });
    QTest::mouseClick(child<QPushButton>(&dialog, "applyButton"), Qt::LeftButton);
    QVERIFY(sameLayout(emitted, slowest->execution));
}

void tst_SearchDialog::cancelStopsLongSearch()
{
    // The real search over "millions of layouts", held after each task until Cancel is pressed,
    // so it cannot end first however fast the machine is: every worker thread waits in the
    // progress callback for the cancel flag, and the tasks left are then skipped.
    SearchDialog dialog(test::largeSearchDesign());
    child<QCheckBox>(&dialog, "mbsBreakCheck")->setChecked(false); // millions of layouts
    std::atomic<int> held { 0 };
    dialog.setSearchFunction([&held](const model::Application &app, const model::System &sys,
                                     const model::SearchSpace &space, const model::SearchOptions &options) {
        model::SearchOptions holding = options;
        holding.progress = [&held, cancel = options.cancel](std::size_t, std::size_t) {
            ++held;
            while (!cancel->load())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        };
        return model::searchLayouts(app, sys, space, holding);
    });
    QSignalSpy finished(&dialog, &SearchDialog::searchFinished);
    QTest::mouseClick(child<QPushButton>(&dialog, "startButton"), Qt::LeftButton);
    QVERIFY(dialog.isSearching());
    // The event loop keeps running while the search does: wait for a finished task, not a clock.
    QTRY_VERIFY_WITH_TIMEOUT(held.load() > 0, kSearchTimeoutMs);
    QVERIFY(dialog.isSearching());
    QCOMPARE(finished.count(), 0);
    QTest::mouseClick(child<QPushButton>(&dialog, "cancelButton"), Qt::LeftButton);
    QVERIFY(finished.wait(kSearchTimeoutMs) || finished.count() == 1);
    QVERIFY(dialog.result().cancelled);
    QVERIFY(!dialog.isSearching());
    QVERIFY(child<QLabel>(&dialog, "statusLabel")->text().contains(QStringLiteral("cancelled")));
    dialog.setSearchFunction(&model::searchLayouts);

    // Usable afterwards: the form is enabled again and a new (small) search completes.
    QVERIFY(child<QPushButton>(&dialog, "startButton")->isEnabled());
    QVERIFY(!child<QPushButton>(&dialog, "cancelButton")->isEnabled());
    auto *gpus = child<QSpinBox>(&dialog, "gpusSpin");
    QVERIFY(gpus->isEnabled());
    gpus->setValue(64);
    child<QSpinBox>(&dialog, "maxBatchSpin")->setValue(64);
    child<QCheckBox>(&dialog, "mbsBreakCheck")->setChecked(true);
    QVERIFY(runSearch(dialog));
    QVERIFY(!dialog.result().cancelled);
    QCOMPARE(child<QProgressBar>(&dialog, "progressBar")->value(), 100);
}

QTEST_MAIN(tst_SearchDialog)
#include "tst_searchdialog.moc"

// The results table spoke the command line's shorthand: an "Offload" column of "w", "a", "o" or
// "-", headers such as "mbs" and "TP ovl", options as their JSON spellings ("attn_only",
// "p2p_rs_ag"). Every header and cell is now in words.
void tst_SearchDialog::resultsTableInWords()
{
    model::SearchHit offloading;
    offloading.execution.weightOffload = true;
    offloading.execution.activationsOffload = false;
    offloading.execution.optimizerOffload = true;
    offloading.execution.activationRecompute = model::Recompute::AttnOnly;
    offloading.execution.tensorParCommType = model::TpCommType::P2pRsAg;
    offloading.execution.tensorParOverlap = model::TpOverlap::Pipe;
    offloading.execution.dataParOverlap = true;
    offloading.execution.optimizerSharding = false;
    model::SearchHit plain;
    plain.execution.weightOffload = plain.execution.activationsOffload = plain.execution.optimizerOffload
        = false;
    SearchResultsModel model;
    model.setHits({ offloading, plain });
    const auto text = [&](int row, int column) { return model.index(row, column).data().toString(); };

    QCOMPARE(text(0, SearchResultsModel::Offload), QStringLiteral("weights, optimizer"));
    QCOMPARE(text(1, SearchResultsModel::Offload), QStringLiteral("none"));
    QCOMPARE(text(0, SearchResultsModel::Recompute), QStringLiteral("attention only"));
    QCOMPARE(text(0, SearchResultsModel::TpComm), QStringLiteral("p2p reduce-scatter + all-gather"));
    QCOMPARE(text(0, SearchResultsModel::TpOverlap), QStringLiteral("pipelined"));
    QCOMPARE(text(0, SearchResultsModel::DpOverlap), QStringLiteral("yes"));
    QCOMPARE(text(0, SearchResultsModel::Zero1), QStringLiteral("no"));

    // No cell is a lone letter or dash, or a JSON spelling; no header is an abbreviation.
    const QRegularExpression shorthand(QStringLiteral("^([A-Za-z]|-+|[wao]{1,3})$"));
    for (int row = 0; row < model.rowCount(); ++row)
        for (int column = 0; column < model.columnCount(); ++column) {
            const QString cell = text(row, column);
            QVERIFY2(!shorthand.match(cell).hasMatch() && !cell.contains(QLatin1Char('_')),
                     qPrintable(QStringLiteral("row %1, column %2: \"%3\"").arg(row).arg(column).arg(cell)));
        }
    const QStringList abbreviations { QStringLiteral("mbs"), QStringLiteral("Interl."),
                                      QStringLiteral("Recomp."), QStringLiteral("TP ovl"),
                                      QStringLiteral("DP ovl") };
    for (int column = 0; column < model.columnCount(); ++column) {
        const QString header = model.headerData(column, Qt::Horizontal).toString();
        QVERIFY2(!abbreviations.contains(header) && !header.contains(QLatin1Char('_')), qPrintable(header));
        QVERIFY2(!model.headerData(column, Qt::Horizontal, Qt::ToolTipRole)
                      .toString()
                      .contains(QStringLiteral("o = ")),
                 qPrintable(header));
    }
}
