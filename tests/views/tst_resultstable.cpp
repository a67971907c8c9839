// Key results: what the table shows goes by the design's status, and for a design that runs it
// lists every component of the step, which sum to the step time.
#include "results/resultstable.h"
#include "shippedresults.h"

#include <QTableWidget>
#include <QTest>

#include <cmath>

using namespace gapstudio;

namespace {

bool tableContains(const QTableWidget &table, const QString &text)
{
    for (int row = 0; row < table.rowCount(); ++row)
        for (int column = 0; column < table.columnCount(); ++column)
            if (const QTableWidgetItem *item = table.item(row, column); item && item->text().contains(text))
                return true;
    return false;
}

} // namespace

class tst_ResultsTable : public QObject {
    Q_OBJECT

private slots:
    void rowsSumToTheStepTime_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::newRow("dense gpt3-175b") << QString::fromLatin1(test::kDenseScenario);
        QTest::newRow("moe default") << QString::fromLatin1(test::kMoeScenario);
    }
    void rowsSumToTheStepTime()
    {
        QFETCH(QString, scenario);
        const views::ResultsPtr results = test::shippedResults(test::shippedScenario(scenario.toStdString()));
        QVERIFY2(results->ok(), results->statusText.c_str());
        views::ResultsTable table;
        table.showResults(*results);
        // The step-component rows carry their seconds; their sum is the model's own total
        // (Stats::total_time, the reference's sum, not the table's).
        double sum = 0;
        QStringList components;
        for (int row = 0; row < table.rowCount(); ++row)
            if (const QTableWidgetItem *value = table.item(row, 1);
                value && value->data(views::ResultsTable::kSecondsRole).isValid()) {
                sum += value->data(views::ResultsTable::kSecondsRole).toDouble();
                components << table.item(row, 0)->text();
            }
        const double total = results->evaluation.stats.total_time;
        QVERIFY2(std::fabs(sum - total) <= 1e-12 * total,
                 qPrintable(QStringLiteral("rows %1 s, step %2 s: %3")
                                .arg(sum, 0, 'g', 17)
                                .arg(total, 0, 'g', 17)
                                .arg(components.join(QStringLiteral(", ")))));
        QVERIFY(components.contains(QStringLiteral("Forward compute")));
        QVERIFY(tableContains(table, QStringLiteral("Total efficiency (MFU)")));
        if (results->compiled->execution.modelMoE) // the MoE all-to-all is part of its step
            QVERIFY2(components.contains(QStringLiteral("EP all-to-all")), qPrintable(components.join(u',')));
    }

    // The default design's likely range: t e^-sigma .. t e^sigma and MFU the same, sigma the
    // model's interval; the tool tip names its sources. The reference model has none.
    void showsTheLikelyRange()
    {
        const views::ResultsPtr results = test::shippedResults(test::shippedScenario(test::kMoeScenario));
        QVERIFY(results->ok() && results->interval);
        views::ResultsTable table;
        table.showResults(*results);
        const double sigma = results->interval->sigma;
        const double t = results->evaluation.stats.total_time;
        const double mfu = results->evaluation.stats.total_efficiency;
        const QLocale locale;
        const auto s = [&](double v) { return locale.toString(v, 'f', 4) + QStringLiteral(" s"); };
        const auto p = [&](double v) { return locale.toString(100 * v, 'f', 2) + QStringLiteral(" %"); };
        int found = 0;
        for (int row = 0; row < table.rowCount(); ++row) {
            const QString name = table.item(row, 0)->text();
            const QTableWidgetItem *value = table.item(row, 1);
            if (name == QStringLiteral("Step time, likely range")) {
                QCOMPARE(value->text(),
                         s(t * std::exp(-sigma)) + QStringLiteral(" – ") + s(t * std::exp(sigma)));
                QVERIFY2(value->toolTip().contains(QStringLiteral("68 %")), qPrintable(value->toolTip()));
                ++found;
            } else if (name == QStringLiteral("MFU, likely range")) {
                QCOMPARE(value->text(),
                         p(mfu * std::exp(-sigma)) + QStringLiteral(" – ") + p(mfu * std::exp(sigma)));
                ++found;
            }
        }
        QCOMPARE(found, 2);

        // A pinned design's column holds its own range (its own sigma and step time).
        const views::ResultsPtr pinned = test::shippedResults(test::shippedScenario(test::kDenseScenario));
        QVERIFY(pinned->interval && std::abs(pinned->interval->sigma - sigma) > 0.01);
        table.setPinned({ { QStringLiteral("GPT-3 175B"), pinned } });
        const double pinSigma = pinned->interval->sigma, pinT = pinned->evaluation.stats.total_time;
        bool pinRange = false;
        for (int row = 0; row < table.rowCount(); ++row)
            if (table.item(row, 0)->text() == QStringLiteral("Step time, likely range")) {
                QCOMPARE(table.item(row, 2)->text(),
                         s(pinT * std::exp(-pinSigma)) + QStringLiteral(" – ") + s(pinT * std::exp(pinSigma)));
                pinRange = true;
            }
        QVERIFY(pinRange);
        table.setPinned({});

        scenario::PipelineOptions reference;
        reference.referenceQuirks = true;
        const scenario::PipelineResult plain = scenario::runScenario(
            test::shippedScenario(test::kMoeScenario), test::shippedLibrary(), reference);
        table.showResults(plain);
        QVERIFY(!tableContains(table, QStringLiteral("likely range")));
    }

    void overCapacityShowsTheMemoryNotPerformance()
    {
        const views::ResultsPtr results = test::shippedResults(test::overCapacityScenario());
        QCOMPARE(results->status, scenario::EvaluationStatus::OverCapacity);
        views::ResultsTable table;
        table.showResults(*results);
        QVERIFY(tableContains(table, QStringLiteral("Does not fit in GPU memory")));
        QVERIFY(tableContains(table, QStringLiteral("HBM per GPU (needed)")));
        QVERIFY(
            tableContains(table, QLocale().toString(80.0, 'f', 3) + QStringLiteral(" GiB"))); // H100: 80 GiB
        QVERIFY(!tableContains(table, QStringLiteral("MFU")));
        QVERIFY(!tableContains(table, QStringLiteral("Step time")));
        QVERIFY(!tableContains(table, QStringLiteral("samples/s")));
    }

    void malformedShowsTheDiagnostics()
    {
        scenario::Scenario s = test::shippedScenario(test::kDenseScenario);
        s.overrides["layout.tensor_par"] = 7; // divides neither the 96 heads nor the 4096 GPUs
        const views::ResultsPtr results = test::shippedResults(s);
        QCOMPARE(results->status, scenario::EvaluationStatus::Malformed);
        views::ResultsTable table;
        table.showResults(*results);
        QVERIFY(tableContains(table, QStringLiteral("cannot be evaluated")));
        QVERIFY(tableContains(table, QString::fromStdString(results->cause()->message)));
        QVERIFY(!tableContains(table, QStringLiteral("Step time")));
        QVERIFY(!tableContains(table, QStringLiteral("MFU")));
    }
};

QTEST_MAIN(tst_ResultsTable)
#include "tst_resultstable.moc"
