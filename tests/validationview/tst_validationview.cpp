// The Validation view: every evaluated run with a prediction is one point at
// (measured, predicted); runs without a clean prediction are listed with their cause; the error
// per family is scenario::summarize()'s, and agrees with the points themselves; a click on a
// point opens that run as the design, under the open guard; the tooltip names the run.
// Set GAPSTUDIO_VALIDATION_SCREENSHOT=FILE.png to keep a picture of the view (README).
#include "shippedresults.h"

#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "validation/errortable.h"
#include "validation/generationtable.h"
#include "validation/parameterrangetable.h"
#include "validation/runproblemstable.h"
#include "validation/validationchart.h"
#include "validation/validationpanel.h"

#include "gapstudio/io/measurement_json.h"

#include <qcustomplot.h>

#include <QDirIterator>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>

using namespace gapstudio;
using views::ValidationPanel;

namespace {

/// Every measurement file of presets/measurements (the published runs the view shows).
int publishedRunFiles()
{
    int files = 0;
    QDirIterator it(QStringLiteral(PRESETS_DIR "/measurements"), { QStringLiteral("*.json") }, QDir::Files,
                    QDirIterator::Subdirectories);
    for (; it.hasNext(); it.next())
        ++files;
    return files;
}

io::Measurement shippedRun(const char *family, const char *id)
{
    return io::loadMeasurement(std::string(PRESETS_DIR "/measurements/") + family + "/" + id + ".json");
}

/// The family graphs' points, by family: (measured, predicted) as plotted.
std::map<std::string, QList<QPointF>> plottedPoints(QCustomPlot *plot)
{
    std::map<std::string, QList<QPointF>> out;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph *graph = plot->graph(i);
        if (!graph->objectName().startsWith(QStringLiteral("family:")))
            continue;
        const std::string family = graph->objectName().mid(7).toStdString();
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            out[family] << QPointF(it->key, it->value);
    }
    return out;
}

struct Studio {
    views::ScenarioDocument document { test::shippedLibrary() };
    views::Recalculator recalculator { &document };
    ValidationPanel panel { &document };

    Studio() { document.reset(test::shippedScenario(test::kDenseScenario)); }

    /// Shows the panel laid out, so that points have pixel positions.
    void show()
    {
        panel.resize(1400, 760);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.chart()->plot()->replot(QCustomPlot::rpImmediateRefresh);
    }

    /// The plotted row farthest from any other point (a click on it cannot hit another).
    int isolatedRow() const
    {
        int best = -1;
        double bestGap = 0;
        const auto &rows = panel.rows();
        for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
            const auto at = panel.chart()->pointPosition(i);
            if (!at)
                continue;
            double gap = 1e9;
            for (int j = 0; j < static_cast<int>(rows.size()); ++j)
                if (const auto other = panel.chart()->pointPosition(j); other && j != i)
                    gap = std::min(gap, std::hypot(other->x() - at->x(), other->y() - at->y()));
            if (gap > bestGap) {
                bestGap = gap;
                best = i;
            }
        }
        return best;
    }
};

} // namespace

class tst_ValidationView : public QObject {
    Q_OBJECT

private slots:
    void pointsPlottedAreTheRowsEvaluated()
    {
        Studio studio;
        studio.show();
        const std::vector<scenario::ValidationRow> &rows = studio.panel.rows();
        QCOMPARE(static_cast<int>(rows.size()), publishedRunFiles());
        std::map<std::string, QList<QPointF>> expected;
        int withPrediction = 0;
        for (const scenario::ValidationRow &row : rows)
            if (row.predicted_s) {
                ++withPrediction;
                expected[row.family] << QPointF(row.measured_s, *row.predicted_s);
            }
        QCOMPARE(studio.panel.chart()->pointCount(), withPrediction);
        // The plot itself: one point per run, at (measured, predicted), in its family's graph.
        std::map<std::string, QList<QPointF>> plotted = plottedPoints(studio.panel.chart()->plot());
        QCOMPARE(plotted.size(), expected.size());
        for (auto &[family, points] : expected) {
            const auto byKey = [](const QPointF &a, const QPointF &b) {
                return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
            };
            std::sort(points.begin(), points.end(), byKey);
            std::sort(plotted[family].begin(), plotted[family].end(), byKey);
            QCOMPARE(plotted[family], points);
        }
        if (const QByteArray picture = qgetenv("GAPSTUDIO_VALIDATION_SCREENSHOT"); !picture.isEmpty())
            QVERIFY(studio.panel.grab().save(QString::fromLocal8Bit(picture)));
    }

    void runsWithoutAPredictionAreListedWithTheirCause()
    {
        Studio studio;
        io::Measurement good = shippedRun("nemo-24.07-h100-fp8-dense", "nemo2407-h100-llama2-13b-16gpu");
        io::Measurement missing = good;
        missing.id = "missing-gpu";
        missing.scenario.gpu = { "no-such-gpu", std::nullopt };
        io::Measurement over = good; // GPT-3 175B weights alone need far more than 16 x 80 GiB
        over.id = "over-capacity";
        over.scenario = test::overCapacityScenario();
        studio.panel.setMyRuns({ good, missing, over });
        studio.panel.showRuns(ValidationPanel::Runs::Mine);
        const auto &rows = studio.panel.rows();
        QCOMPARE(rows.size(), std::size_t(3));
        QCOMPARE(rows[1].status, scenario::RunStatus::Invalid);
        QCOMPARE(rows[2].status, scenario::RunStatus::OverCapacity);
        // Over capacity in the model still has a prediction (the run did fit): plotted and listed.
        QCOMPARE(studio.panel.chart()->pointCount(), 2);
        const views::RunProblemsTable *problems = studio.panel.problemsTable();
        QCOMPARE(problems->rowCount(), 2);
        QCOMPARE(problems->item(0, 0)->text(), QStringLiteral("missing-gpu"));
        QVERIFY2(problems->item(0, 2)->text().contains(QStringLiteral("no-such-gpu")),
                 qPrintable(problems->item(0, 2)->text()));
        QCOMPARE(problems->item(1, 0)->text(), QStringLiteral("over-capacity"));
        QVERIFY2(problems->item(1, 1)->text().contains(QStringLiteral("memory capacity")),
                 qPrintable(problems->item(1, 1)->text()));
        QVERIFY(!problems->item(1, 2)->text().isEmpty());
    }

    void errorPerFamilyIsSummarize()
    {
        Studio studio;
        studio.panel.refresh();
        const scenario::ValidationSummary summary = scenario::summarize(studio.panel.rows());
        const views::ErrorTable *table = studio.panel.errorTable();
        QCOMPARE(table->rowCount(), static_cast<int>(summary.families.size()) + 1);
        const auto cell = [&](const QString &family, int column) {
            const int row = table->rowOf(family);
            return row < 0 || !table->item(row, column)
                       ? -1.0
                       : table->item(row, column)->data(views::ErrorTable::kValueRole).toDouble();
        };
        QCOMPARE(cell(QString(), 1), static_cast<double>(summary.all.rows));
        QCOMPARE(cell(QString(), 2), summary.all.meanAbsError);
        QCOMPARE(cell(QString(), 3), summary.all.maxAbsError);
        // And the same numbers from the points as plotted: |measured / predicted - 1|.
        const std::map<std::string, QList<QPointF>> plotted = plottedPoints(studio.panel.chart()->plot());
        for (const auto &[family, stats] : summary.families) {
            const QString name = QString::fromStdString(family);
            QCOMPARE(cell(name, 1), static_cast<double>(stats.rows));
            QCOMPARE(cell(name, 2), stats.meanAbsError);
            QCOMPARE(cell(name, 3), stats.maxAbsError);
            double sum = 0, largest = 0;
            for (const QPointF &p : plotted.at(family)) {
                const double error = std::fabs(p.x() / p.y() - 1);
                sum += error;
                largest = std::max(largest, error);
            }
            const double mean = sum / plotted.at(family).size();
            QVERIFY2(std::fabs(mean - cell(name, 2)) <= 1e-12, qPrintable(name));
            QCOMPARE(largest, cell(name, 3));
        }
    }

    void errorPerGpuGeneration()
    {
        // Each GPU generation's runs as shown, and what the shipped calibration's fit recorded for
        // the generation predicted without its runs (read here from the shipped file itself).
        Studio studio;
        studio.panel.refresh();
        const std::vector<scenario::ValidationRow> &rows = studio.panel.rows();
        const std::vector<io::Measurement> &runs = studio.panel.measurements();
        QCOMPARE(rows.size(), runs.size());
        std::map<QString, std::pair<int, double>> expected; // runs, sum of |error|
        for (std::size_t i = 0; i < rows.size(); ++i) {
            // The generation by the GPU's datasheet: A100 Ampere, H100 Hopper, B200/GB200 Blackwell.
            const QString gpu = QString::fromStdString(runs[i].scenario.gpu.presetId);
            const QString generation = gpu.contains(QStringLiteral("a100"))   ? QStringLiteral("ampere")
                                       : gpu.contains(QStringLiteral("h100")) ? QStringLiteral("hopper")
                                       : gpu.contains(QStringLiteral("b200")) ? QStringLiteral("blackwell")
                                                                              : gpu;
            QVERIFY2(rows[i].error, rows[i].id.c_str());
            expected[generation].first += 1;
            expected[generation].second += std::fabs(*rows[i].error);
        }
        QCOMPARE(expected.size(), std::size_t { 3 });
        std::ifstream file(PRESETS_DIR "/calibrations/shipped.json");
        const nlohmann::json unseen
            = nlohmann::json::parse(file).at("fit").at("leave_one_generation_out_mean_abs_error");
        const views::GenerationTable *table = studio.panel.generationTable();
        QCOMPARE(table->rowCount(), 3);
        const auto cell = [&](const QString &generation, int column) {
            const int row = table->rowOf(generation);
            return row < 0 || !table->item(row, column)
                       ? -1.0
                       : table->item(row, column)->data(views::GenerationTable::kValueRole).toDouble();
        };
        for (const auto &[generation, counts] : expected) {
            QCOMPARE(cell(generation, views::GenerationTable::Runs), static_cast<double>(counts.first));
            QVERIFY2(
                std::fabs(cell(generation, views::GenerationTable::MeanError) - counts.second / counts.first)
                    < 1e-12,
                qPrintable(generation));
            QCOMPARE(cell(generation, views::GenerationTable::UnseenError),
                     unseen.at(generation.toStdString()).get<double>());
        }
        // The column says what it is.
        QVERIFY(table->horizontalHeaderItem(views::GenerationTable::UnseenError)
                    ->toolTip()
                    .contains(QStringLiteral("fitted without")));
    }

    void parametersBeyondTheirRanges()
    {
        // The shipped calibration's parameters that its file marks at or beyond an end of their
        // documented range (read here from the file itself), each with its value and range.
        Studio studio;
        studio.panel.refresh();
        std::ifstream file(PRESETS_DIR "/calibrations/shipped.json");
        const nlohmann::json parameters = nlohmann::json::parse(file).at("fit").at("parameters");
        const views::ParameterRangeTable *table = studio.panel.parameterRangeTable();
        int marked = 0;
        for (const nlohmann::json &p : parameters) {
            const QString name = QString::fromStdString(p.at("name").get<std::string>());
            const int row = table->rowOf(name);
            QCOMPARE(row >= 0, p.value("at_bound", false));
            if (row < 0)
                continue;
            ++marked;
            const auto cell = [&](int column) {
                return table->item(row, column)->data(views::ParameterRangeTable::kValueRole).toDouble();
            };
            QCOMPARE(cell(views::ParameterRangeTable::Value), p.at("value").get<double>());
            QCOMPARE(cell(views::ParameterRangeTable::Low), p.at("range")[0].get<double>());
            QCOMPARE(cell(views::ParameterRangeTable::High), p.at("range")[1].get<double>());
        }
        QVERIFY(marked > 0); // Ampere's 16-bit GEMM efficiency, held at the range's 0.9
        QCOMPARE(table->rowCount(), marked);
        QVERIFY(table->rowOf(QStringLiteral("ampere/gemm_efficiency/16-bit")) >= 0);
    }

    void clickOpensTheRun()
    {
        Studio studio;
        studio.show();
        const int index = studio.isolatedRow();
        QVERIFY(index >= 0);
        const QPoint at = studio.panel.chart()->pointPosition(index)->toPoint();
        const scenario::Scenario before = studio.document.scenario();
        int asked = 0;
        bool allow = false;
        studio.panel.setOpenGuard([&] {
            ++asked;
            return allow;
        });
        // The guard refuses (the user cancels "save changes?"): the design stays.
        QTest::mouseClick(studio.panel.chart()->plot(), Qt::LeftButton, {}, at);
        QCOMPARE(asked, 1);
        QVERIFY(studio.document.scenario() == before);

        allow = true;
        QTest::mouseClick(studio.panel.chart()->plot(), Qt::LeftButton, {}, at);
        QCOMPARE(asked, 2);
        const io::Measurement &run = studio.panel.measurements()[static_cast<std::size_t>(index)];
        QVERIFY(studio.document.scenario() == run.scenario);
        QVERIFY(studio.document.fileName().isEmpty()); // a new, untitled document
        // The studio predicts what the point shows.
        studio.recalculator.recalculateNow();
        const double predicted = *studio.panel.rows()[static_cast<std::size_t>(index)].predicted_s;
        QVERIFY(studio.recalculator.latest()->hasStats());
        QCOMPARE(studio.recalculator.latest()->evaluation.stats.total_time, predicted);

        // Off every point: nothing opens.
        studio.document.reset(before);
        QTest::mouseClick(studio.panel.chart()->plot(), Qt::LeftButton, {}, QPoint(2, 2));
        QCOMPARE(asked, 2);
    }

    void aChosenCalibrationIsNamedByTheOpenedRun()
    {
        Studio studio;
        studio.show();
        QVERIFY(studio.panel.selectCalibration(QString::fromLatin1(scenario::kDefaultCalibrationId)));
        studio.panel.chart()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        const int index = studio.isolatedRow();
        QTest::mouseClick(studio.panel.chart()->plot(), Qt::LeftButton, {},
                          studio.panel.chart()->pointPosition(index)->toPoint());
        QCOMPARE(studio.document.scenario().calibration.presetId,
                 std::string(scenario::kDefaultCalibrationId));
        QVERIFY(!studio.panel.selectCalibration(QStringLiteral("no-such-calibration")));
    }

    void toolTipNamesTheRun()
    {
        Studio studio;
        studio.show();
        const int index = studio.isolatedRow();
        const QString tip = studio.panel.chart()->toolTipAt(*studio.panel.chart()->pointPosition(index));
        const io::Measurement &run = studio.panel.measurements()[static_cast<std::size_t>(index)];
        for (const std::string &text : { run.id, run.name, run.source, run.notes })
            QVERIFY2(tip.contains(QString::fromStdString(text).toHtmlEscaped()), qPrintable(tip));
        QVERIFY(studio.panel.chart()->toolTipAt(QPointF(2, 2)).isEmpty());
    }
};

QTEST_MAIN(tst_ValidationView)
#include "tst_validationview.moc"
