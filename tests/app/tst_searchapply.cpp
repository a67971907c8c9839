// Explore lists what the design gives. In the main window, Explore > Search layouts, Start, then
// each row's "Apply this layout": the design's own results (the studio's pipeline) are the row's
// statistics, bit for bit; the same for the scaling curve's best point at each GPU count and for
// every cell of the TP x PP heatmap. On the studio's corrected model (the MoE default design and a
// shipped dense example), and on a bare design with the reference's semantics. One best layout
// everywhere: Explore's first row, the Best layout tab and `gapstudio-cli rank --by sample_rate`
// name the same layout at the same rate, and the shipped best-layout roadmap's steps are at it.
#include "mainwindow.h"

#include "calculon_cases.h"
#include "designspace/bestlayoutpanel.h"
#include "designspace/bestlayoutsearch.h"
#include "explore/explorecompute.h"
#include "explore/explorepanel.h"
#include "explore/heatmapchart.h"
#include "explore/scalingchart.h"
#include "explore/searchdialog.h"
#include "explore/searchresultsmodel.h"
#include "settle.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "studio/studioengine.h"
#include "test_home.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/roadmap_json.h"
#include "gapstudio/scenario/pipeline.h"

#include <QAction>
#include <QCheckBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {

constexpr int kRows = 6; // rows of each search applied

/// Every statistic equal, bit for bit (NaN equal to NaN).
bool sameStats(const model::Stats &a, const model::Stats &b, QString *first = nullptr)
{
    std::vector<std::pair<std::string, double>> x;
    std::vector<double> y;
    a.forEachMoe([&x](std::string_view name, double v) { x.emplace_back(std::string(name), v); });
    b.forEachMoe([&y](std::string_view, double v) { y.push_back(v); });
    for (std::size_t i = 0; i < x.size(); ++i)
        if (!(x[i].second == y[i] || (std::isnan(x[i].second) && std::isnan(y[i])))) {
            if (first)
                *first = QStringLiteral("%1: %2 against %3")
                             .arg(QString::fromStdString(x[i].first))
                             .arg(x[i].second, 0, 'g', 17)
                             .arg(y[i], 0, 'g', 17);
            return false;
        }
    return true;
}

QAction *actionNamed(QWidget &window, const QString &text)
{
    for (QAction *action : window.findChildren<QAction *>())
        if (action->text() == text)
            return action;
    return nullptr;
}

/// Starts the dialog's search (top kRows) and waits for it to end.
bool runSearch(SearchDialog &dialog)
{
    dialog.findChild<QSpinBox *>(QStringLiteral("topNSpin"))->setValue(kRows);
    QSignalSpy finished(&dialog, &SearchDialog::searchFinished);
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("startButton")), Qt::LeftButton);
    return finished.count() == 1 || finished.wait(3'600'000); // a hang guard, not a time limit
}

/// The hit shown in the table's `row` (the table sorts through a proxy).
const model::SearchHit &shownHit(SearchDialog &dialog, int row)
{
    auto *proxy = dialog.findChild<QSortFilterProxyModel *>(QStringLiteral("searchResultsProxy"));
    auto *model = dialog.findChild<SearchResultsModel *>(QStringLiteral("searchResultsModel"));
    return model->hit(proxy->mapToSource(proxy->index(row, 0, {})).row());
}

/// "rows a and b read the same" for the first two rows of `table` that differ in no shown column
/// besides rank and statistics, nor in their tool tips; empty when every row can be told apart.
QString sameReadingRows(const QTableView &table)
{
    const QList<int> statistics { SearchResultsModel::Rank, SearchResultsModel::SampleRate,
                                  SearchResultsModel::Mfu, SearchResultsModel::StepTime,
                                  SearchResultsModel::HbmGiB };
    const QAbstractItemModel *model = table.model();
    const auto shown = [model](int row, int column) { return model->index(row, column).data().toString(); };
    for (int a = 0; a < model->rowCount(); ++a)
        for (int b = a + 1; b < model->rowCount(); ++b) {
            bool differ = false;
            for (int column = 0; column < SearchResultsModel::ColumnCount && !differ; ++column)
                differ = !statistics.contains(column) && !table.isColumnHidden(column)
                         && shown(a, column) != shown(b, column);
            if (!differ
                || model->index(a, 0).data(Qt::ToolTipRole) == model->index(b, 0).data(Qt::ToolTipRole))
                return QStringLiteral("rows %1 and %2 read the same").arg(a + 1).arg(b + 1);
        }
    return {};
}

/// `compiled` with `layout`, through the studio's pipeline.
scenario::PipelineResult withLayout(const scenario::CompiledScenario &compiled,
                                    const model::Execution &layout)
{
    scenario::CompiledScenario design = compiled;
    design.execution = layout;
    return scenario::runCompiled(design);
}

/// A layout as its preset file, without the preset's name and source.
nlohmann::ordered_json layoutJson(const model::Execution &execution)
{
    scenario::Layout layout;
    layout.execution = execution;
    return io::toJson(layout);
}

struct RankedFirst {
    double sampleRate = 0;
    model::Execution execution;
};

/// `gapstudio-cli rank FILE --by sample_rate --top 1`: the first layout it prints.
std::optional<RankedFirst> rankFirst(const QString &file, QString *error)
{
    QProcess process;
    process.start(QStringLiteral(GAPSTUDIO_CLI), { QStringLiteral("rank"), file, QStringLiteral("--by"),
                                                   QStringLiteral("sample_rate"), QStringLiteral("--top"),
                                                   QStringLiteral("1") });
    if (!process.waitForFinished(3'600'000) || process.exitCode() != 0) { // a hang guard
        *error = QString::fromUtf8(process.readAllStandardError());
        return std::nullopt;
    }
    const nlohmann::json out = nlohmann::json::parse(process.readAllStandardOutput().toStdString());
    const nlohmann::json &first = out.at("layouts").at(0);
    const auto preset = io::parsePresetFile(first.at("layout"), "rank output");
    return RankedFirst { first.at("sample_rate").get<double>(), std::get<scenario::Layout>(preset).execution };
}

} // namespace

class tst_SearchApply : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mHome; // settings, autosave and user presets of this test only

private slots:
    void initTestCase() { QVERIFY(test::useTemporaryHome(mHome, QStringLiteral("tst_searchapply"))); }

    void appliedRowIsTheRow_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("moe default, corrected") << QStringLiteral("default.gapstudio.json");
        QTest::newRow("dense gpt3-175b a100, corrected")
            << QStringLiteral("gpt3-175b-4096-a100.gapstudio.json");
    }

    // The user's path: open the design, Explore > Search layouts, Start, select a row, Apply.
    void appliedRowIsTheRow()
    {
        QFETCH(QString, file);
        MainWindow window(QStringLiteral(PRESETS_DIR "/scenarios/") + file);
        window.recalculator()->recalculateNow();
        QVERIFY(window.recalculator()->latest()->ok());

        QAction *search = actionNamed(window, QStringLiteral("&Search layouts…"));
        QVERIFY(search);
        search->trigger();
        auto *dialog = window.findChild<SearchDialog *>(QStringLiteral("searchDialog"));
        QVERIFY(dialog);
        QVERIFY(runSearch(*dialog));
        auto *table = dialog->findChild<QTableView *>(QStringLiteral("resultsTable"));
        QCOMPARE(table->model()->rowCount(), kRows);
        // Rows can be told apart: any two differ in a shown column besides rank and statistics.
        const QString same = sameReadingRows(*table);
        QVERIFY2(same.isEmpty(), qPrintable(same));

        for (int row = 0; row < kRows; ++row) {
            const model::SearchHit hit = shownHit(*dialog, row);
            table->selectRow(row);
            QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("applyButton")),
                              Qt::LeftButton);
            test::settle();
            window.recalculator()->recalculateNow();
            const ResultsPtr applied = window.recalculator()->latest();
            QVERIFY2(applied->ok(), applied->statusText.c_str());
            QCOMPARE(applied->compiled->execution.tensorPar, hit.execution.tensorPar);
            QString differs;
            QVERIFY2(sameStats(applied->evaluation.stats, hit.stats, &differs),
                     qPrintable(QStringLiteral("row %1, %2").arg(row + 1).arg(differs)));
        }
    }

    void oneBestLayoutEverywhere_data() { appliedRowIsTheRow_data(); }

    // The same design searched three ways, each as the user starts it: Explore > Search layouts
    // (its first row, by sample rate), the Best layout tab's toggle, and the CLI's rank by sample
    // rate. All three search the design's own space with its own model, so they name one layout.
    void oneBestLayoutEverywhere()
    {
        QFETCH(QString, file);
        const QString path = QStringLiteral(PRESETS_DIR "/scenarios/") + file;
        QString error;
        const std::optional<RankedFirst> ranked = rankFirst(path, &error);
        QVERIFY2(ranked, qPrintable(error));

        MainWindow window(path);
        window.recalculator()->recalculateNow();
        QVERIFY(window.recalculator()->latest()->ok());
        actionNamed(window, QStringLiteral("&Search layouts…"))->trigger();
        auto *dialog = window.findChild<SearchDialog *>(QStringLiteral("searchDialog"));
        QVERIFY(dialog);
        QVERIFY(runSearch(*dialog));
        const model::SearchHit explored = shownHit(*dialog, 0);
        dialog->close();

        auto *panel = window.findChild<BestLayoutPanel *>();
        QVERIFY(panel);
        panel->toggle()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(panel->search()->best(), 3'600'000); // a hang guard
        const ResultsPtr best = panel->search()->best();

        QCOMPARE(layoutJson(explored.execution).dump(), layoutJson(ranked->execution).dump());
        QCOMPARE(layoutJson(best->compiled->execution).dump(), layoutJson(ranked->execution).dump());
        QCOMPARE(explored.stats.sample_rate, ranked->sampleRate);
        QCOMPARE(best->evaluation.stats.sample_rate, ranked->sampleRate);
    }

    // The shipped roadmap of the paper's designs "each at its best layout" (File > Example
    // roadmaps) names, for every step, the layout `gapstudio-cli rank --by sample_rate` ranks first
    // for that step's design: the roadmap agrees with rank, and so with Explore and Best layout
    // (oneBestLayoutEverywhere).
    void roadmapStepsAreAtTheRankedBestLayout()
    {
        const io::Roadmap roadmap = io::loadRoadmap(
            PRESETS_DIR "/roadmaps/paper-walk-gpt4-moe-4096-best-layouts.gapstudio-roadmap.json");
        QVERIFY(roadmap.steps.size() >= 2);
        const scenario::PresetLibrary library = loadStudioLibrary();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (std::size_t i = 0; i < roadmap.steps.size(); ++i) {
            const scenario::Scenario &design = roadmap.steps[i].scenario;
            const QString file = dir.filePath(QStringLiteral("step%1.gapstudio.json").arg(i + 1));
            QVERIFY(writeScenarioFile(design, file, nullptr));
            QString error;
            const std::optional<RankedFirst> ranked = rankFirst(file, &error);
            QVERIFY2(ranked, qPrintable(error));
            const scenario::PipelineResult own = scenario::runScenario(design, library);
            QVERIFY2(own.ok(), own.statusText.c_str());
            QVERIFY2(layoutJson(own.compiled->execution) == layoutJson(ranked->execution),
                     qPrintable(QStringLiteral("step %1 (%2): the roadmap has %3, rank gives %4")
                                    .arg(i + 1)
                                    .arg(QString::fromStdString(roadmap.steps[i].name),
                                         QString::fromStdString(layoutJson(own.compiled->execution).dump()),
                                         QString::fromStdString(layoutJson(ranked->execution).dump()))));
            QCOMPARE(own.evaluation.stats.sample_rate, ranked->sampleRate);
        }
    }

    // Explore > Run sweeps on the default design: the best layout at each GPU count and each
    // heatmap cell, given to the pipeline, evaluate to what the chart plots.
    void sweepPointsAreDesigns()
    {
        MainWindow window(QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json"));
        window.recalculator()->recalculateNow();
        const ResultsPtr design = window.recalculator()->latest();
        QVERIFY(design->ok());
        auto *panel = window.findChild<ExplorePanel *>();
        QVERIFY(panel);
        test::settle();
        QSignalSpy finished(panel, &ExplorePanel::sweepsFinished);
        panel->runSweeps();
        QVERIFY(finished.count() == 1 || finished.wait(3'600'000)); // a hang guard

        int compared = 0;
        for (const model::SweepPoint &point : panel->scalingChart()->points()) {
            if (!point.evaluation.ok || point.label == "this design")
                continue;
            const scenario::PipelineResult own = withLayout(*design->compiled, *point.layout);
            QVERIFY2(own.ok(), qPrintable(QStringLiteral("%1 GPUs").arg(point.x)));
            QString differs;
            QVERIFY2(sameStats(own.evaluation.stats, point.evaluation.stats, &differs),
                     qPrintable(QStringLiteral("%1 GPUs, %2").arg(point.x).arg(differs)));
            ++compared;
        }
        QVERIFY(compared >= 3);

        const explore::HeatmapData &heatmap = panel->heatmapChart()->data();
        int cells = 0;
        for (const auto &cell : heatmap.cells)
            if (cell) {
                const scenario::PipelineResult own = withLayout(*design->compiled, cell->execution);
                QVERIFY(own.ok());
                QString differs;
                QVERIFY2(sameStats(own.evaluation.stats, cell->stats, &differs),
                         qPrintable(QStringLiteral("TP %1 PP %2, %3")
                                        .arg(cell->execution.tensorPar)
                                        .arg(cell->execution.pipelinePar)
                                        .arg(differs)));
                ++cells;
            }
        QVERIFY(cells >= 3);
    }

    // A bare design (Calculon's three files, case 18) is explored with the reference's semantics:
    // an applied row evaluates, with those semantics, to the row.
    void referenceRowIsTheRow()
    {
        const QString name = QStringLiteral("18_gpt3-175B_4096_h100_fp8");
        const io::CalculonInputs in = io::loadCalculonInputs(test::caseFile(name, "model.json"),
                                                             test::caseFile(name, "execution.json"),
                                                             test::caseFile(name, "system.json"));
        const model::Design design { in.application, in.execution, in.system };
        ExplorePanel panel;
        panel.setDesign(design);
        model::Execution applied;
        connect(&panel, &ExplorePanel::layoutApplied, this,
                [&applied](const model::Execution &e) { applied = e; });
        panel.openSearchDialog();
        auto *dialog = panel.findChild<SearchDialog *>(QStringLiteral("searchDialog"));
        QVERIFY(dialog);
        QVERIFY(runSearch(*dialog));
        auto *table = dialog->findChild<QTableView *>(QStringLiteral("resultsTable"));
        QCOMPARE(table->model()->rowCount(), kRows);
        // Rows can be told apart: any two differ in a shown column besides rank and statistics.
        const QString same = sameReadingRows(*table);
        QVERIFY2(same.isEmpty(), qPrintable(same));
        const model::EvaluateOptions reference = explore::defaultEvaluateOptions(design);
        for (int row = 0; row < kRows; ++row) {
            table->selectRow(row);
            QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("applyButton")),
                              Qt::LeftButton);
            const model::Evaluation own
                = model::evaluate(design.application, applied, design.system, reference);
            QVERIFY(own.ok);
            QString differs;
            QVERIFY2(sameStats(own.stats, shownHit(*dialog, row).stats, &differs),
                     qPrintable(QStringLiteral("row %1, %2").arg(row + 1).arg(differs)));
        }
    }
};

QTEST_MAIN(tst_SearchApply)
#include "tst_searchapply.moc"
