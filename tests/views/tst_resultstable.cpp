#include "gapstudio/model/evaluate.h"
#include "results/resultstable.h"
#include "scenario/defaultscenario.h"

#include <QFile>
#include <QTableWidget>
#include <QTest>

using namespace gapstudio;

class tst_ResultsTable : public QObject {
    Q_OBJECT

private:
    static bool tableContains(const QTableWidget &table, const QString &text)
    {
        for (int row = 0; row < table.rowCount(); ++row)
            for (int column = 0; column < table.columnCount(); ++column)
                if (const QTableWidgetItem *item = table.item(row, column);
                    item && item->text().contains(text))
                    return true;
        return false;
    }

private slots:
    void defaultScenarioParses()
    {
        const io::CalculonInputs scenario = views::defaultScenario();
        QCOMPARE(scenario.application.hidden, std::int64_t(12288));
        QCOMPARE(scenario.application.numBlocks, std::int64_t(96));
        QCOMPARE(scenario.execution.numProcs, std::int64_t(4096));
        QCOMPARE(scenario.execution.tensorPar * scenario.execution.pipelinePar * scenario.execution.dataPar,
                 scenario.execution.numProcs);
        QCOMPARE(scenario.system.networks.size(), std::size_t(2));
    }

    // The embedded scenario is a copy of validation case 18; this keeps the copies identical.
    void defaultScenarioMatchesValidationCase_data()
    {
        QTest::addColumn<QString>("resource");
        QTest::addColumn<QString>("caseFile");
        const QString caseDir = QStringLiteral(TEST_DATA_DIR "/calculon/cases/18_gpt3-175B_4096_h100_fp8/");
        QTest::newRow("model") << QString::fromUtf8(views::kDefaultModelResource)
                               << caseDir + QStringLiteral("model.json");
        QTest::newRow("execution") << QString::fromUtf8(views::kDefaultExecutionResource)
                                   << caseDir + QStringLiteral("execution.json");
        QTest::newRow("system") << QString::fromUtf8(views::kDefaultSystemResource)
                                << caseDir + QStringLiteral("system.json");
    }

    void defaultScenarioMatchesValidationCase()
    {
        QFETCH(QString, resource);
        QFETCH(QString, caseFile);
        QFile embedded(resource);
        QFile validation(caseFile);
        QVERIFY2(embedded.open(QIODevice::ReadOnly), qPrintable(resource));
        QVERIFY2(validation.open(QIODevice::ReadOnly), qPrintable(caseFile));
        QCOMPARE(embedded.readAll(), validation.readAll());
    }

    void defaultScenarioShowsRows()
    {
        const io::CalculonInputs scenario = views::defaultScenario();
        views::ResultsTable table;
        const model::Evaluation evaluation
            = model::evaluate(scenario.application, scenario.execution, scenario.system);
        QVERIFY(evaluation.ok); // what the GUI shows at start-up is a feasible configuration
        table.showEvaluation(evaluation);
        QVERIFY(table.rowCount() > 0);
        QVERIFY(tableContains(table, QStringLiteral("Step time")));
        QVERIFY(tableContains(table, QStringLiteral("Pipeline bubble")));
    }

    void feasibleEvaluationShowsKeyResults()
    {
        model::Evaluation evaluation;
        evaluation.ok = true;
        evaluation.stats.total_time = 1.25;
        evaluation.stats.sample_rate = 1600;
        evaluation.stats.total_efficiency = 0.447;
        evaluation.stats.fw_time = 0.35;
        evaluation.stats.proc_mem_tier1_cap_req = 8.0 * 1024 * 1024 * 1024;

        views::ResultsTable table;
        table.show();
        table.showEvaluation(evaluation);
        QVERIFY(table.rowCount() >= 15);
        QVERIFY(tableContains(table, QStringLiteral("Step time")));
        QVERIFY(tableContains(table, QStringLiteral("Forward")));
        QVERIFY(tableContains(table, QStringLiteral("DP comm (exposed)")));
        const QLocale locale;
        QVERIFY(tableContains(table, locale.toString(1.25, 'f', 4)));  // step time in s
        QVERIFY(tableContains(table, locale.toString(350.0, 'f', 1))); // forward in ms
        QVERIFY(tableContains(table, locale.toString(44.7, 'f', 2)));  // efficiency in %
        QVERIFY(tableContains(table, locale.toString(8.0, 'f', 3) + QStringLiteral(" GiB")));
    }

    void infeasibleEvaluationShowsDiagnostics()
    {
        model::Evaluation evaluation;
        evaluation.ok = false;
        evaluation.stats.total_time = 123.0; // must not be shown
        evaluation.diagnostics.push_back({ model::DiagnosticCode::Tier1CapacityExceeded, "",
                                           "Mem tier1 needs 443.306 GiB but only has 80.000 GiB" });
        evaluation.diagnostics.push_back(
            { model::DiagnosticCode::MalformedExecution, "tensor_par", "tensor_par must divide attn_heads" });

        views::ResultsTable table;
        table.showEvaluation(evaluation);
        QVERIFY(tableContains(table, QStringLiteral("Mem tier1 needs 443.306 GiB but only has 80.000 GiB")));
        QVERIFY(tableContains(table, QStringLiteral("tensor_par must divide attn_heads")));
        QVERIFY(tableContains(table, QStringLiteral("tensor_par")));
        QVERIFY(!tableContains(table, QStringLiteral("Step time")));
    }
};

QTEST_MAIN(tst_ResultsTable)
#include "tst_resultstable.moc"
