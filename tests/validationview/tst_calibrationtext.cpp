// Every result view says which calibration produced it: the status bar, the Key
// results table, the charts' and Explore's tab bars, the PDF report's key results and each chart
// export's metadata carry the model's CompiledScenario::calibrationNote in words; the reference
// models' mode says it has no calibration.
#include "shippedresults.h"

#include "charts/chartexport.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "explore/explorepanel.h"
#include "report/reportcontent.h"
#include "results/calibrationtext.h"
#include "results/resultstable.h"
#include "studio/statusline.h"

#include <QFile>
#include <QImageReader>
#include <QTemporaryDir>
#include <QTest>

using namespace gapstudio;

namespace {

bool tableHasRow(const QTableWidget &table, const QString &quantity, const QString &value)
{
    for (int row = 0; row < table.rowCount(); ++row)
        if (table.item(row, 0) && table.item(row, 1) && table.item(row, 0)->text() == quantity
            && table.item(row, 1)->text() == value)
            return true;
    return false;
}

} // namespace

class tst_CalibrationText : public QObject {
    Q_OBJECT

    views::ResultsPtr mResults;
    QString mText;

private slots:
    void initTestCase()
    {
        mResults = test::shippedResults(test::shippedScenario(test::kDenseScenario));
        QVERIFY2(mResults->ok(), mResults->statusText.c_str());
        // The words are the model's: the calibration preset and the entries it used.
        const std::string &note = mResults->compiled->calibrationNote;
        QVERIFY2(note.find(scenario::kDefaultCalibrationId) != std::string::npos, note.c_str());
        mText = views::calibrationText(*mResults);
        QCOMPARE(mText.mid(1), QString::fromStdString(note).mid(1));
        QVERIFY(mText.front().isUpper());
    }

    void statusBarAndKeyResults()
    {
        QVERIFY2(views::statusLine(*mResults).endsWith(mText), qPrintable(views::statusLine(*mResults)));
        views::ResultsTable table;
        table.showResults(*mResults);
        QVERIFY(tableHasRow(table, QStringLiteral("Calibration"), mText));
    }

    void chartsAndExploreSayIt()
    {
        views::ChartsPanel charts;
        QVERIFY(charts.calibrationNote().isEmpty());
        charts.setResults(mResults);
        QCOMPARE(charts.calibrationNote(), mText);
        views::ExplorePanel explore;
        explore.setResults(mResults);
        QCOMPARE(explore.calibrationNote(), mText);
        charts.setResults(nullptr);
        QVERIFY(charts.calibrationNote().isEmpty());
    }

    void report()
    {
        const views::report::Table table = views::report::keyResultsTable(*mResults, 1e12);
        QVERIFY(table.rows.contains(QStringList { QStringLiteral("Calibration"), mText }));
    }

    void chartExports_data()
    {
        QTest::addColumn<QString>("suffix");
        for (const char *suffix : { "png", "pdf", "svg", "csv" })
            QTest::newRow(suffix) << QString::fromLatin1(suffix);
    }
    void chartExports()
    {
        QFETCH(QString, suffix);
        QTemporaryDir dir;
        views::ChartsPanel panel;
        panel.setResults(mResults);
        const QString path = dir.filePath(QStringLiteral("step_time.") + suffix);
        QString error;
        QVERIFY2(views::exportChart(*panel.chart(QStringLiteral("step_time")), path, QStringLiteral("{}"),
                                    1.0, &error),
                 qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray content = file.readAll();
        if (suffix == QLatin1String("png")) {
            QCOMPARE(QImageReader(path, "png").text(QStringLiteral("gapstudio.calibration")), mText);
        } else if (suffix == QLatin1String("pdf")) {
            QVERIFY(content.contains("<gapstudio:calibration>" + mText.toHtmlEscaped().toUtf8()
                                     + "</gapstudio:calibration>"));
        } else if (suffix == QLatin1String("svg")) {
            const qsizetype title = content.indexOf("<title>");
            QVERIFY(title >= 0);
            QVERIFY(content.mid(title, content.indexOf("</title>") - title)
                        .contains(mText.toHtmlEscaped().toUtf8()));
        } else {
            QCOMPARE(content.split('\n').value(1), "# calibration: " + mText.toUtf8());
        }
    }

    void referenceModelHasNoCalibration()
    {
        scenario::PipelineOptions options;
        options.referenceQuirks = true;
        const auto reference = std::make_shared<const views::ScenarioResults>(scenario::runScenario(
            test::shippedScenario(test::kDenseScenario), test::shippedLibrary(), options));
        QVERIFY(reference->ok());
        QCOMPARE(views::calibrationText(*reference), QStringLiteral("Reference model (no calibration)"));
        QVERIFY(views::statusLine(*reference).endsWith(QStringLiteral("Reference model (no calibration)")));
        views::ExplorePanel explore;
        explore.setResults(reference);
        QCOMPARE(explore.calibrationNote(), QStringLiteral("Reference model (no calibration)"));
        // A design that did not compile was not evaluated: it names no calibration.
        scenario::Scenario broken = test::shippedScenario(test::kDenseScenario);
        broken.gpu = { "no-such-gpu", std::nullopt };
        QVERIFY(views::calibrationText(*test::shippedResults(broken)).isEmpty());
    }
};

QTEST_MAIN(tst_CalibrationText)
#include "tst_calibrationtext.moc"
