// Every result view says which calibration produced it: the status bar, the Key
// results table, the charts' and Explore's tab bars, the PDF report's key results and each chart
// export's metadata carry the model's CompiledScenario::calibrationNote in words; the reference
// models' mode says it has no calibration. Key results also say how far to trust the numbers: the
// calibration's error on the published runs it was fitted to, or on families left out of the fit,
// and name the software stack the design runs on and its goodput under failures.
#include "shippedresults.h"

#include "charts/chartexport.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "explore/explorepanel.h"
#include "report/reportcontent.h"
#include "results/calibrationtext.h"
#include "results/goodputtext.h"
#include "results/resultstable.h"
#include "studio/statusline.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QImageReader>
#include <QLocale>
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

/// The name in the software preset the dense example names (megatron-core), read from its file.
QString softwareName()
{
    QFile file(QStringLiteral(PRESETS_DIR "/software/megatron-core.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the megatron-core software preset");
    return QString::fromStdString(
        nlohmann::json::parse(file.readAll().toStdString()).at("name").get<std::string>());
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
        // And the software stack it ran on, by the name its preset file gives.
        QVERIFY(tableHasRow(table, QStringLiteral("Software stack"), softwareName()));
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
        QVERIFY(table.rows.contains(QStringList { QStringLiteral("Software stack"), softwareName() }));
        // And how far to trust it, in the words of Key results.
        const QString accuracy = views::accuracyText(*mResults);
        QVERIFY(!accuracy.isEmpty());
        QVERIFY(table.rows.contains(QStringList { QStringLiteral("Typical error"), accuracy }));
    }

    void goodputInKeyResultsAndReport()
    {
        // The model's goodput (PipelineResult::goodput) in words, the same in both places.
        QVERIFY(mResults->goodput && mResults->goodput->valid);
        const QString text = views::goodputText(*mResults);
        const QString percent
            = QLocale().toString(100 * mResults->goodput->goodput, 'f', 1) + QStringLiteral(" %");
        QVERIFY2(text.startsWith(percent), qPrintable(text));
        views::ResultsTable table;
        table.showResults(*mResults);
        QVERIFY(tableHasRow(table, QStringLiteral("Goodput under failures"), text));
        QVERIFY(tableHasRow(table, QStringLiteral("Effective token rate"),
                            views::effectiveTokenRateText(*mResults)));
        const views::report::Table report = views::report::keyResultsTable(*mResults, 1e12);
        QVERIFY(report.rows.contains(QStringList { QStringLiteral("Goodput under failures"), text }));
        // A design that cannot run has none.
        scenario::PipelineResult none = *mResults;
        none.goodput.reset();
        QVERIFY(views::goodputText(none).isEmpty());
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

    void typicalError()
    {
        // The expected figures come from the shipped calibration file itself, read here as JSON.
        QFile file(QStringLiteral(PRESETS_DIR "/calibrations/shipped.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const nlohmann::json fit = nlohmann::json::parse(file.readAll().toStdString()).at("fit");
        const auto percent = [](double fraction) { return QString::number(100 * fraction, 'f', 0); };
        const QString fitted = percent(fit.at("mean_abs_error").get<double>());
        const QString leftOut = percent(fit.at("leave_one_family_out_mean_abs_error").get<double>());
        const QString runs = QString::number(fit.at("rows").get<int>());
        QVERIFY(fitted != leftOut);

        // GPT-3 on H100 (architecture hopper has an entry) with the default software stack
        // (megatron-core), which no published run used: the error on stacks left out of the fit.
        scenario::Scenario dense = test::shippedScenario(test::kDenseScenario);
        const views::ResultsPtr unseenStack = test::shippedResults(dense);
        QVERIFY2(unseenStack->compiled->calibrationNote.find("no entry for megatron-core") != std::string::npos,
                 unseenStack->compiled->calibrationNote.c_str());
        const QString stackText = views::accuracyText(*unseenStack);
        QVERIFY2(stackText.startsWith(QStringLiteral("The software stack is not in the calibration"))
                     && stackText.contains(QStringLiteral("±%1 %").arg(leftOut)),
                 qPrintable(stackText));
        views::ResultsTable table;
        table.showResults(*unseenStack);
        QVERIFY(tableHasRow(table, QStringLiteral("Typical error"), stackText));

        // The same design on NeMo 24.07, a stack the calibration was fitted to: the fitted error.
        dense.software.presetId = "nemo-24.07";
        const views::ResultsPtr seen = test::shippedResults(dense);
        QVERIFY2(seen->ok(), seen->statusText.c_str());
        QCOMPARE(views::accuracyText(*seen),
                 QStringLiteral("About ±%1 % (its mean error on the %2 published runs it was fitted to)")
                     .arg(fitted, runs));

        // A projected GPU (no entry, no architecture entry): no published run tells its error; the
        // worst error of a GPU generation predicted by a fit without its runs estimates it.
        dense.gpu.presetId = "future-gpu-tithi2026";
        const views::ResultsPtr unseenGpu = test::shippedResults(dense);
        QVERIFY2(unseenGpu->compiled, unseenGpu->statusText.c_str());
        std::string worst;
        double worstError = 0;
        for (const auto &[generation, error] : fit.at("leave_one_generation_out_mean_abs_error").items())
            if (error.get<double>() > worstError) {
                worstError = error.get<double>();
                worst = generation;
            }
        QCOMPARE(
            views::accuracyText(*unseenGpu),
            QStringLiteral("No published run on this GPU: about ±%1 % (the mean error on %2 GPUs of a fit "
                           "without their runs, the worst GPU generation)")
                .arg(percent(worstError), QString::fromStdString(worst)));
        // A calibration that recorded no generation fold says so.
        scenario::PresetLibrary older = test::shippedLibrary();
        older.calibrations.at(scenario::kDefaultCalibrationId).fit->leaveOneGenerationOutMeanAbsError.clear();
        const views::ResultsPtr unestimated = views::computeResults(dense, older);
        QVERIFY2(views::accuracyText(*unestimated)
                     .startsWith(QStringLiteral("Unknown: no published run on this GPU")),
                 qPrintable(views::accuracyText(*unestimated)));

        // The reference models have no calibration, so no error figure either.
        scenario::PipelineOptions quirks;
        quirks.referenceQuirks = true;
        const views::ScenarioResults reference
            = scenario::runScenario(test::shippedScenario(test::kDenseScenario), test::shippedLibrary(), quirks);
        QVERIFY(reference.ok());
        QVERIFY(views::accuracyText(reference).isEmpty());
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
