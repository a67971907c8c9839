// The studio's grid viewer on a grid made by the CLI in the test: `gapstudio-cli grid` over the
// 8-GPU validation design (2 HBM bandwidths x 3 scale-out bandwidths x GPU counts 8 and 16, at the
// design's own 8-GPU layout, so the 16-GPU points are malformed). The heatmap must plot the file's
// own numbers (read here independently with nlohmann::json), leave the points that were not
// evaluated empty, and bad files must name the file and the line.
#include "designspace/gridfile.h"
#include "designspace/gridheatmapchart.h"
#include "designspace/gridpanel.h"

#include "gapstudio/io/safe_file.h"

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <QComboBox>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace gapstudio::views;

namespace {

const QString kHbm = QStringLiteral("gpu.hbm_bandwidth_GBps");
const QString kScaleOut = QStringLiteral("scale_out.bandwidth_GBps");

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    const QString path = dir.filePath(name);
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

} // namespace

class TestGridHeatmap : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(mDir.isValid());
        QProcess cli;
        cli.start(QStringLiteral(GAPSTUDIO_CLI),
                  { QStringLiteral("grid"),
                    QStringLiteral(PRESETS_DIR "/scenarios/val01-megatron-22b-a100.gapstudio.json"),
                    QStringLiteral("--vary"), kHbm + QStringLiteral("=1000,2000"), QStringLiteral("--vary"),
                    kScaleOut + QStringLiteral("=25,50,100"), QStringLiteral("--vary"),
                    QStringLiteral("gpu_count=8,16"), QStringLiteral("--threads"), QStringLiteral("1") });
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        mText = cli.readAllStandardOutput();
        mPath = writeFile(mDir, QStringLiteral("grid.jsonl"), mText);
        for (const QByteArray &line : mText.split('\n'))
            if (!line.trimmed().isEmpty())
                mLines.push_back(nlohmann::json::parse(line.toStdString()));
        QCOMPARE(mLines.size(), std::size_t(12)); // 2 x 3 x 2 points
    }

    void readsEveryPoint()
    {
        QString error;
        const std::optional<GridFile> file = readGridFile(mPath, &error);
        QVERIFY2(file, qPrintable(error));
        QCOMPARE(file->points.size(), std::size_t(12));
        QCOMPARE(file->knobs,
                 (std::vector<std::string> { kHbm.toStdString(), kScaleOut.toStdString(), "gpu_count" }));
        QCOMPARE(file->knobValues[1], (std::vector<double> { 25, 50, 100 }));
        QVERIFY(std::find(file->metrics.begin(), file->metrics.end(), "sample_rate") != file->metrics.end());
    }

    void heatmapPlotsTheFilesNumbers()
    {
        GridPanel panel;
        QVERIFY(panel.openFile(mPath));
        // Defaults: HBM across, scale-out up, throughput, GPU count held at its first value (8).
        QCOMPARE(panel.acrossBox()->currentData().toString(), kHbm);
        QCOMPARE(panel.upBox()->currentData().toString(), kScaleOut);
        QCOMPARE(panel.metricBox()->currentData().toString(), QStringLiteral("sample_rate"));
        const GridHeatmapChart &chart = *panel.chart();
        QVERIFY(chart.hasData());
        int checked = 0;
        for (const nlohmann::json &line : mLines) {
            if (line["overrides"]["gpu_count"] != 8)
                continue;
            QCOMPARE(line["status"].get<std::string>(), std::string("ok")); // the design's own GPU count
            const std::size_t column = line["overrides"][kHbm.toStdString()] == 1000 ? 0 : 1;
            const double so = line["overrides"][kScaleOut.toStdString()];
            const std::size_t row = so == 25 ? 0 : so == 50 ? 1 : 2;
            const GridPoint *cell = chart.cell(column, row);
            QVERIFY(cell);
            QCOMPARE(cell->index, line["point"].get<std::uint64_t>());
            QCOMPARE(cell->results.at("sample_rate"), line["results"]["sample_rate"].get<double>());
            ++checked;
        }
        QCOMPARE(checked, 6);
        // More HBM bandwidth never slows the same design down.
        for (std::size_t row = 0; row < 3; ++row)
            QVERIFY(chart.cell(1, row)->results.at("sample_rate")
                    >= chart.cell(0, row)->results.at("sample_rate"));
        QCOMPARE(chart.csvRows().size(), 1 + 6);

        // At 16 GPUs the 8-GPU layout does not fit the design: every cell is empty and says why.
        auto *gpus = panel.findChildren<QComboBox *>().last();
        QCOMPARE(gpus->count(), 2);
        gpus->setCurrentIndex(1);
        for (std::size_t row = 0; row < 3; ++row)
            for (std::size_t column = 0; column < 2; ++column) {
                QVERIFY(chart.cell(column, row));
                QCOMPARE(chart.cell(column, row)->status, std::string("malformed"));
            }
        for (const QStringList &row : chart.csvRows().mid(1))
            QVERIFY(row.at(2).isEmpty());

        // Another metric and another pair of knobs.
        panel.metricBox()->setCurrentIndex(panel.metricBox()->findData(QStringLiteral("total_time")));
        panel.upBox()->setCurrentIndex(2); // GPU count up; scale-out now held
        QCOMPARE(chart.csvRows().first().at(1), QStringLiteral("gpu_count"));
        QCOMPARE(chart.csvRows().first().at(2), QStringLiteral("total_time"));
    }

    void badLinesNameFileAndLine_data()
    {
        QTest::addColumn<QByteArray>("append");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{\"point\": 12, oops\n") << QStringLiteral("line 13");
        QTest::newRow("no overrides") << QByteArray("{\"point\": 12, \"status\": \"ok\"}\n")
                                      << QStringLiteral("line 13: \"overrides\" is missing");
        QTest::newRow("other knobs") << QByteArray(
            "{\"point\": 12, \"overrides\": {\"gpu_count\": 8}, \"status\": \"ok\", \"results\": {}}\n")
                                     << QStringLiteral("line 13: varies 1 knobs");
        QTest::newRow("text value")
            << QByteArray("\n{\"point\": 12, \"overrides\": {\"gpu.hbm_bandwidth_GBps\": \"x\", "
                          "\"scale_out.bandwidth_GBps\": 1, \"gpu_count\": 8}, \"status\": \"ok\"}\n")
            << QStringLiteral("line 14: \"overrides\".\"gpu.hbm_bandwidth_GBps\" should be a number");
        QTest::newRow("ok without results")
            << QByteArray("{\"point\": 12, \"overrides\": {\"gpu.hbm_bandwidth_GBps\": 1, "
                          "\"scale_out.bandwidth_GBps\": 1, \"gpu_count\": 8}, \"status\": \"ok\"}\n")
            << QStringLiteral("line 13: \"results\" is missing");
    }

    void badLinesNameFileAndLine()
    {
        QFETCH(QByteArray, append);
        QFETCH(QString, expected);
        const QString bad = writeFile(mDir, QStringLiteral("bad.jsonl"), mText + append);
        QString error;
        QVERIFY(!readGridFile(bad, &error));
        QVERIFY2(error.startsWith(QStringLiteral("bad.jsonl, ")), qPrintable(error));
        QVERIFY2(error.contains(expected), qPrintable(error));

        // The panel keeps the grid it shows and says what is wrong.
        GridPanel panel;
        QVERIFY(panel.openFile(mPath));
        QVERIFY(!panel.openFile(bad));
        QCOMPARE(panel.errorText(), error);
        QVERIFY(panel.chart()->hasData());
        QCOMPARE(panel.chart()->cell(0, 0)->index, std::uint64_t(0));
    }

    void emptyAndMissingFiles()
    {
        QString error;
        QVERIFY(!readGridFile(writeFile(mDir, QStringLiteral("empty.jsonl"), "\n\n"), &error));
        QVERIFY2(error.contains(QStringLiteral("empty.jsonl: no grid points")), qPrintable(error));
        QVERIFY(!readGridFile(mDir.filePath(QStringLiteral("missing.jsonl")), &error));
        QVERIFY2(error.contains(QStringLiteral("missing.jsonl")), qPrintable(error));
    }

    // "the studio's grid.jsonl reader skips the input limits: a line nested 100,000 deep
    // overflows the stack (in readGridFile and the Grid view), a FIFO blocks forever, /dev/zero
    // is read until the process is killed for memory, 100 MB files are accepted".
    void hostileFilesAreRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("nested 100000 deep") << "deep"
                                            << "line 13: nested deeper than 64 levels";
        QTest::newRow("over the size limit") << "large"
                                             << "larger than";
        QTest::newRow("/dev/zero") << "zero"
                                   << "not a regular file";
        QTest::newRow("FIFO") << "fifo"
                              << "not a regular file";
    }
    void hostileFilesAreRefused()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QString path = QStringLiteral("/dev/zero");
        if (kind == QLatin1String("deep"))
            path = writeFile(mDir, QStringLiteral("deep.jsonl"),
                             mText + QByteArray("[").repeated(100000) + QByteArray("]").repeated(100000)
                                 + '\n');
        if (kind == QLatin1String("large")) {
            path = writeFile(mDir, QStringLiteral("large.jsonl"), mText);
            QVERIFY(QFile::resize(path, qint64(gapstudio::io::kMaxInputBytes) + 1)); // sparse: no disk used
        }
        if (kind == QLatin1String("fifo")) {
            path = mDir.filePath(QStringLiteral("grid.fifo"));
            QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0); // no writer ever opens it
        }
        QString error;
        QVERIFY(!readGridFile(path, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        // The Grid view keeps the grid it shows and says what is wrong.
        GridPanel panel;
        QVERIFY(panel.openFile(mPath));
        QVERIFY(!panel.openFile(path));
        QCOMPARE(panel.errorText(), error);
        QVERIFY(panel.chart()->hasData());
    }

private:
    QTemporaryDir mDir;
    QByteArray mText;
    QString mPath;
    std::vector<nlohmann::json> mLines;
};

QTEST_MAIN(TestGridHeatmap)
#include "tst_gridheatmap.moc"
