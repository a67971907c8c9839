// Every reference case (tests/data/calculon/cases/*) reproduced by the model: valid cases
// stat by stat within the acceptance rule, error cases with the reference's cause.
#include "calculon_cases.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/model/evaluate.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>

using namespace gapstudio;

class tst_CalculonParity : public QObject
{
    Q_OBJECT

private slots:
    void casesFound();
    void reproducesCase_data();
    void reproducesCase();
};

void tst_CalculonParity::casesFound()
{
    const QStringList cases = test::caseNames();
    if (cases.isEmpty())
        QFAIL(qPrintable(QStringLiteral("no case folders under ") + test::casesDir()));
    QVERIFY2(cases.size() >= 31, qPrintable(QStringLiteral("only %1 cases found").arg(cases.size())));
}

void tst_CalculonParity::reproducesCase_data()
{
    QTest::addColumn<QString>("caseName");
    for (const QString &name : test::caseNames())
        QTest::newRow(qPrintable(name)) << name;
}

void tst_CalculonParity::reproducesCase()
{
    QFETCH(QString, caseName);
    const QByteArray rc = test::readAll(QString::fromStdString(test::caseFile(caseName, "rc.txt"))).trimmed();
    QVERIFY2(!rc.isEmpty(), "rc.txt missing");

    io::CalculonInputs in;
    try {
        in = io::loadCalculonInputs(test::caseFile(caseName, "model.json"), test::caseFile(caseName, "execution.json"),
                                    test::caseFile(caseName, "system.json"));
    } catch (const io::InputError &error) {
        QFAIL(error.what()); // every reference input is well formed, including the error cases
    }
    const model::Evaluation evaluation = model::evaluate(in.application, in.execution, in.system);

    if (rc != "0") {
        // Error case: rejected with the reference's cause, "ERROR: <cause>" in cli_stdout.txt.
        QString expected = QString::fromUtf8(
            test::readAll(QString::fromStdString(test::caseFile(caseName, "cli_stdout.txt"))).trimmed());
        expected.remove(QRegularExpression(QStringLiteral("^ERROR: ")));
        QVERIFY2(!evaluation.ok, "the reference rejects this configuration, the model accepted it");
        QVERIFY2(!evaluation.diagnostics.empty(), "rejected without a diagnostic");
        const model::Diagnostic &cause = evaluation.diagnostics.front();
        QVERIFY2(!cause.isMalformedInput(), qPrintable(QString::fromStdString(cause.message)));
        // The reference's text comes first; GapStudio may add the numbers behind it.
        const QString actual = QString::fromStdString(cause.message);
        QVERIFY2(actual.startsWith(expected),
                 qPrintable(QStringLiteral("expected a message starting with \"%1\", got \"%2\"").arg(expected, actual)));
        return;
    }

    QVERIFY2(evaluation.ok, evaluation.diagnostics.empty()
                                ? "evaluation failed without a diagnostic"
                                : evaluation.diagnostics.front().message.c_str());
    const nlohmann::json expected = test::readJson(test::caseFile(caseName, "output.json"));
    const auto actual = test::statsByName(evaluation.stats);
    std::string worstName;
    double worstError = -1;
    int failures = 0;
    int compared = 0;
    for (const auto &[name, value] : expected.items()) {
        if (name == "layers")
            continue;
        const auto it = actual.find(name);
        QVERIFY2(it != actual.end(), qPrintable(QStringLiteral("unknown stat %1").arg(QString::fromStdString(name))));
        ++compared;
        if (value.is_null()) {
            // The reference prints None (JSON null) where a stat does not apply, e.g.
            // act_checkpoint_size_with_offload in inference; the model's counterpart is NaN
            // (which the CLI writes as null too).
            if (!std::isnan(it->second)) {
                ++failures;
                worstError = INFINITY;
                worstName = name;
            }
            continue;
        }
        const double want = value.get<double>();
        if (!test::withinTolerance(it->second, want))
            ++failures;
        if (const double error = test::errorOf(it->second, want); error > worstError) {
            worstError = error;
            worstName = name;
        }
    }
    QCOMPARE(compared, static_cast<int>(model::kStatCount));
    if (failures > 0) {
        const double got = actual.at(worstName);
        const nlohmann::json &wantJson = expected.at(worstName);
        const double want = wantJson.is_null() ? NAN : wantJson.get<double>();
        QFAIL(qPrintable(QStringLiteral("%1 of %2 stats out of tolerance; worst %3: got %4, expected %5 (error %6)")
                             .arg(failures)
                             .arg(compared)
                             .arg(QString::fromStdString(worstName))
                             .arg(got, 0, 'g', 17)
                             .arg(want, 0, 'g', 17)
                             .arg(worstError, 0, 'g', 3)));
    }
}

QTEST_GUILESS_MAIN(tst_CalculonParity)
#include "tst_calculon_parity.moc"
