// Every chart exports to PNG, PDF, SVG and CSV with the scenario embedded, and readProvenance
// gets it back. Set GAPSTUDIO_CHART_EXPORT_DIR to keep the files (e.g. to look at them).
#include "chartresults.h"
#include "full_disk.h"

#include "charts/chartexport.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "results/calibrationtext.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QImageReader>
#include <QJsonDocument>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

using namespace gapstudio;

namespace {

// Quotes, markup and non-ASCII: everything an embedding could get wrong.
const QString kProvenance = QStringLiteral("{\"fileType\":\"gapstudio.scenario\",\"version\":1,"
                                           "\"name\":\"GPT-3 <175B> & \\\"MoE\\\" \u00b5-test\",\"gpuCount\":4096}");

/// Splits one RFC 4180 CSV line (no embedded line breaks).
QStringList parseCsvLine(const QString &line)
{
    QStringList fields;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted && c == u'"' && i + 1 < line.size() && line[i + 1] == u'"') {
            field += u'"';
            ++i;
        } else if (c == u'"') {
            quoted = !quoted;
        } else if (c == u',' && !quoted) {
            fields << field;
            field.clear();
        } else {
            field += c;
        }
    }
    fields << field;
    return fields;
}

} // namespace

class tst_ChartExport : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mTemp;
    QString mDir;
    views::ResultsPtr mDense, mMoe, mOver, mNone;
    std::unique_ptr<views::ChartsPanel> mPanel;

private slots:
    void initTestCase()
    {
        QVERIFY(mTemp.isValid());
        mDir = qEnvironmentVariable("GAPSTUDIO_CHART_EXPORT_DIR", mTemp.path());
        QVERIFY(QDir().mkpath(mDir));
        mDense = test::denseResults();
        mMoe = test::moeResults();
        mOver = test::overCapacityResults();
        mNone = test::resultsWithoutStats();
        mPanel = std::make_unique<views::ChartsPanel>();
    }

    void exportWritesFormatWithProvenance_data()
    {
        QTest::addColumn<QString>("chartId");
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("signature");
        const std::pair<const char *, QByteArray> formats[] = {
            {"png", QByteArrayLiteral("\x89PNG\r\n")}, {"pdf", QByteArrayLiteral("%PDF-")},
            {"svg", QByteArrayLiteral("<?xml")}, {"csv", QByteArrayLiteral("# gapstudio ")}};
        for (const char *chart : {"step_time", "bandwidth", "efficiency_gap", "memory"})
            for (const char *caseName : {"dense", "moe", "moe_vs_dense", "over_capacity", "no_results"})
                for (const auto &[suffix, signature] : formats)
                    QTest::addRow("%s %s %s", chart, caseName, suffix)
                        << QString::fromLatin1(chart) << QString::fromLatin1(caseName) << QString::fromLatin1(suffix)
                        << signature;
    }

    void exportWritesFormatWithProvenance()
    {
        QFETCH(QString, chartId);
        QFETCH(QString, caseName);
        QFETCH(QString, suffix);
        QFETCH(QByteArray, signature);
        views::ChartView *chart = mPanel->chart(chartId);
        QVERIFY(chart);
        const QMap<QString, views::ResultsPtr> results{{QStringLiteral("dense"), mDense},
                                                       {QStringLiteral("moe"), mMoe},
                                                       {QStringLiteral("moe_vs_dense"), mMoe},
                                                       {QStringLiteral("over_capacity"), mOver},
                                                       {QStringLiteral("no_results"), mNone}};
        mPanel->setResults(results.value(caseName));
        mPanel->setBaseline(caseName == QLatin1String("moe_vs_dense") ? mDense : nullptr);
        // Over capacity only the memory chart draws the design; the others say why not.
        const bool drawn
            = caseName != QLatin1String("no_results")
              && (caseName != QLatin1String("over_capacity") || chartId == QLatin1String("memory"));
        QCOMPARE(chart->message().isEmpty(), drawn);

        const QString path = mDir + QStringLiteral("/%1_%2.%3").arg(chartId, caseName, suffix);
        QFile::remove(path);
        QString error;
        QVERIFY2(views::exportChart(*chart, path, kProvenance, 1.0, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray content = file.readAll();
        QVERIFY2(content.startsWith(signature), content.left(16).constData());
        QCOMPARE(views::readProvenance(path), kProvenance);
        if (suffix == QLatin1String("csv")) {
            // The CSV is the chart's rows, as plotted, after the provenance line.
            // A second comment line names the calibration of the results, if the chart has any.
            const QStringList lines = QString::fromUtf8(content).split(u'\n', Qt::SkipEmptyParts);
            const QList<QStringList> rows = chart->csvRows();
            const QString calibration
                = chart->results() ? views::calibrationText(*chart->results()) : QString();
            const qsizetype comments = calibration.isEmpty() ? 1 : 2;
            QCOMPARE(lines.size(), rows.size() + comments);
            QVERIFY(lines[0].startsWith(QStringLiteral("# gapstudio %1 scenario: ").arg(views::gapstudioVersion())));
            if (comments == 2)
                QCOMPARE(lines[1], QStringLiteral("# calibration: ") + calibration);
            for (qsizetype i = 0; i < rows.size(); ++i)
                QCOMPARE(parseCsvLine(lines[i + comments]), rows[i]);
        }
        if (suffix == QLatin1String("svg"))
            QVERIFY(content.contains("<svg"));
    }

    void pngScaleAndVersion()
    {
        views::ChartView *chart = mPanel->chart(QStringLiteral("step_time"));
        mPanel->setResults(mDense);
        const QString path = mDir + QStringLiteral("/step_time_scale2.png");
        QVERIFY(views::exportChart(*chart, path, kProvenance, 2.0));
        QImageReader reader(path);
        QCOMPARE(reader.size(), chart->exportSize() * 2);
        QCOMPARE(reader.text(QStringLiteral("gapstudio.version")), views::gapstudioVersion());
        QVERIFY(!views::gapstudioVersion().isEmpty());
    }

    void pdfCarriesCreatorAndXmp()
    {
        views::ChartView *chart = mPanel->chart(QStringLiteral("memory"));
        mPanel->setResults(mMoe);
        const QString path = mDir + QStringLiteral("/memory_meta.pdf");
        QVERIFY(views::exportChart(*chart, path, kProvenance));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray pdf = file.readAll();
        QVERIFY(pdf.contains("/Type /Metadata"));
        QVERIFY(pdf.contains("<xmp:CreatorTool>GapStudio " + views::gapstudioVersion().toUtf8()));
        QVERIFY(pdf.contains("/Creator"));
    }

    void multiLineJsonIsOneCsvLine()
    {
        const QString pretty = QString::fromUtf8(QJsonDocument::fromJson(kProvenance.toUtf8()).toJson());
        QVERIFY(pretty.count(u'\n') > 2);
        const QString path = mDir + QStringLiteral("/multiline.csv");
        QVERIFY(views::exportChart(*mPanel->chart(QStringLiteral("bandwidth")), path, pretty));
        QCOMPARE(QJsonDocument::fromJson(views::readProvenance(path).toUtf8()),
                 QJsonDocument::fromJson(kProvenance.toUtf8()));
    }

    void noProvenanceReadsEmpty()
    {
        views::ChartView *chart = mPanel->chart(QStringLiteral("step_time"));
        const QString plain = mDir + QStringLiteral("/plain.png");
        QVERIFY(chart->plot()->savePng(plain, 400, 300));
        QVERIFY(views::readProvenance(plain).isEmpty());
        QVERIFY(views::readProvenance(mDir + QStringLiteral("/does-not-exist.png")).isEmpty());
    }

    void unknownSuffixFails()
    {
        QString error;
        QVERIFY(!views::exportChart(*mPanel->charts().front(), mDir + QStringLiteral("/chart.bmp"), kProvenance, 1.0,
                                    &error));
        QVERIFY(error.contains(QStringLiteral("bmp")));
        QVERIFY(!QFile::exists(mDir + QStringLiteral("/chart.bmp")));
    }

    // Exports wrote in place with truncation and never checked their writes: a full
    // disk left a truncated file with success, and /dev/full "wrote".
    void fullDiskKeepsThePreviousExport_data()
    {
        QTest::addColumn<QString>("suffix");
        for (const char *suffix : { "png", "pdf", "svg", "csv" })
            QTest::newRow(suffix) << QString::fromLatin1(suffix);
    }
    void fullDiskKeepsThePreviousExport()
    {
        QFETCH(QString, suffix);
        const QString file = mTemp.filePath(QStringLiteral("previous.") + suffix);
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("PREVIOUS EXPORT");
        }
        QString error;
        {
            test::FullDisk full(100);
            QVERIFY(!views::exportChart(*mPanel->charts().front(), file, kProvenance, 1.0, &error));
        }
        QVERIFY2(error.contains(file) && error.contains(QStringLiteral("File too large")), qPrintable(error));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("PREVIOUS EXPORT"));
    }

    void deviceErrorsGiveTheReason_data() { fullDiskKeepsThePreviousExport_data(); }
    void deviceErrorsGiveTheReason()
    {
        QFETCH(QString, suffix);
        const QString link = mTemp.filePath(QStringLiteral("full.") + suffix);
        QFile::remove(link);
        QVERIFY(QFile::link(QStringLiteral("/dev/full"), link));
        QString error;
        QVERIFY(!views::exportChart(*mPanel->charts().front(), link, kProvenance, 1.0, &error));
        QVERIFY2(error.contains(QStringLiteral("No space left on device")), qPrintable(error));
    }
};

QTEST_MAIN(tst_ChartExport)
#include "tst_chartexport.moc"
