// The user's measured runs for the studio's "Calibrate to my runs" and the Validation view:
// CSV tables of runs (io/runs_csv.h) and the measured runs along the preset search order
// (io/shipped_measurements.h). Expected values are read off the CSV text written here and off
// the files in presets/measurements, not produced by the code under test.
#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/runs_csv.h"
#include "gapstudio/io/safe_file.h"
#include "gapstudio/io/shipped_measurements.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <set>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace gapstudio;

namespace {

scenario::Scenario defaultScenario()
{
    return io::loadShippedScenario("scenarios/default.gapstudio.json");
}

void write(const QString &path, const QByteArray &text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

/// Every measurement file of the source tree's presets/measurements.
QStringList measurementFiles()
{
    QStringList files;
    QDirIterator it(QStringLiteral(PRESETS_DIR "/measurements"), { QStringLiteral("*.json") }, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    return files;
}

/// The error of io::loadRunsCsv(file) in a child process ("no error" if it returned), or an empty
/// text if the child did not finish: SIGALRM ends it after 60 s and its memory is capped, so a
/// reader that waits on a FIFO or reads /dev/zero forever cannot hang or exhaust the machine.
QByteArray loadErrorInChild(const std::string &file)
{
    int fds[2];
    if (::pipe(fds) != 0)
        return {};
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(fds[0]);
        ::alarm(60);
#if !defined(__SANITIZE_ADDRESS__) && !defined(GAPSTUDIO_ASAN_RUNTIME) // ASan reserves terabytes
        const rlimit memory { rlim_t { 4 } << 30, rlim_t { 4 } << 30 };
        ::setrlimit(RLIMIT_AS, &memory);
#endif
        std::string what = "no error";
        try {
            (void)io::loadRunsCsv(file, nullptr);
        } catch (const std::exception &error) {
            what = error.what();
        }
        const bool written = ::write(fds[1], what.data(), what.size()) == static_cast<ssize_t>(what.size());
        ::_exit(written ? 0 : 1);
    }
    ::close(fds[1]);
    QByteArray out;
    char buffer[4096];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;)
        out.append(buffer, n);
    ::close(fds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? out : QByteArray();
}

} // namespace

class tst_RunsCsv : public QObject {
    Q_OBJECT

private slots:
    void rowsBecomeMeasurements()
    {
        QTemporaryDir dir;
        scenario::Scenario other = defaultScenario();
        other.gpuCount = 512;
        io::saveScenario(other, dir.filePath(QStringLiteral("design.gapstudio.json")).toStdString());
        scenario::Scenario current = defaultScenario();
        current.overrides["gpu.hbm_bandwidth_GBps"] = 4000; // the designer's slider stays
        const std::string file = dir.filePath(QStringLiteral("runs.csv")).toStdString();
        const std::string text
            = "\xEF\xBB\xBF# my cluster, June\r\n"
              "scenario,gpu_count,tensor_par,pipeline_par,data_par,microbatch_size,batch_size,"
              "measured_iteration_time_s,id,family,name,notes\r\n"
              "\r\n"
              "current,64,8,2,4,1,256,4.25,run-a,my-h100,\"Llama, 70B\",\"TE 1.9; no \"\"recompute\"\"\"\r\n"
              "design.gapstudio.json,128,,,,,,7.5,,,,\r\n";
        const std::vector<io::Measurement> runs = io::parseRunsCsv(text, file, &current);
        QCOMPARE(runs.size(), std::size_t(2));

        const io::Measurement &a = runs[0];
        QCOMPARE(a.id, std::string("run-a"));
        QCOMPARE(a.family, std::string("my-h100"));
        QCOMPARE(a.name, std::string("Llama, 70B"));
        QCOMPARE(a.notes, std::string("TE 1.9; no \"recompute\""));
        QCOMPARE(a.measuredIterationTime_s, 4.25);
        QCOMPARE(a.source, file + ", line 4");
        scenario::Scenario expected = current;
        expected.overrides["gpu_count"] = 64;
        expected.overrides["layout.tensor_par"] = 8;
        expected.overrides["layout.pipeline_par"] = 2;
        expected.overrides["layout.data_par"] = 4;
        expected.overrides["layout.microbatch_size"] = 1;
        expected.overrides["layout.batch_size"] = 256;
        QVERIFY(a.scenario == expected);

        // Defaults: id and family from the file name, name = id; empty cells keep the scenario's.
        const io::Measurement &b = runs[1];
        QCOMPARE(b.id, std::string("runs-line5"));
        QCOMPARE(b.family, std::string("runs"));
        QCOMPARE(b.name, b.id);
        QCOMPARE(b.measuredIterationTime_s, 7.5);
        scenario::Scenario fromFile = other;
        fromFile.overrides["gpu_count"] = 128;
        QVERIFY(b.scenario == fromFile);
    }

    void aFileAnyKeyAndColumnOrder()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cluster.csv"));
        write(path, "measured_iteration_time_s,gpu.hbm_bandwidth_GBps,scenario\n2.5,3000,current\n");
        const scenario::Scenario current = defaultScenario();
        const std::vector<io::Measurement> runs = io::loadRunsCsv(path.toStdString(), &current);
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].measuredIterationTime_s, 2.5);
        QCOMPARE(runs[0].scenario.overrides.at("gpu.hbm_bandwidth_GBps"), 3000.0);
        QCOMPARE(runs[0].family, std::string("cluster"));
    }

    void errorsNameLineAndColumn_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        const QByteArray header = "scenario,tensor_par,measured_iteration_time_s\n";
        QTest::newRow("unknown column") << QByteArray("scenario,measured_iteration_time_s,tensor_parallel\n")
                                        << 1 << 3 << "unknown column \"tensor_parallel\"";
        QTest::newRow("no time column") << QByteArray("scenario,gpu_count\ncurrent,8\n") << 1 << 0
                                        << "no column \"measured_iteration_time_s\"";
        QTest::newRow("column twice")
            << QByteArray("scenario,tensor_par,layout.tensor_par,measured_iteration_time_s\n") << 1 << 3
            << "appears twice";
        QTest::newRow("too few fields") << header + "current,8\n" << 2 << 3 << "expected 3 fields";
        QTest::newRow("too many fields") << header + "current,8,1,2\n" << 2 << 4 << "got 4";
        QTest::newRow("time not a number") << header + "current,8,fast\n" << 2 << 3 << "got \"fast\"";
        QTest::newRow("time zero") << header + "current,8,0\n" << 2 << 3 << "(> 0)";
        QTest::newRow("tp not whole") << header + "current,2.5,1\n" << 2 << 2 << "whole number in [1, ";
        // Beyond the key's range (scenario::overrideKeys): refused with the value and the range, as
        // the scenario's overrides are, never wrapped or rounded.
        QTest::newRow("tp 2^64") << header + "current,18446744073709551616,1\n"
                                 << 2 << 2
                                 << "expected a whole number in [1, 9007199254740992], got \"18446744073709551616\"";
        QTest::newRow("tp 2^53 + 1") << header + "current,9007199254740993,1\n" << 2 << 2
                                     << "got \"9007199254740993\"";
        QTest::newRow("compute scale 1e300")
            << QByteArray("scenario,gpu.compute_scale,measured_iteration_time_s\ncurrent,1e300,1\n") << 2 << 2
            << "expected a number in (0, 1e+06], got \"1e300\"";
        QTest::newRow("tp zero") << header + "current,0,1\n" << 2 << 2 << "got \"0\"";
        QTest::newRow("quote not closed") << header + "current,8,\"1.0\n" << 2 << 3 << "not closed";
        QTest::newRow("text after quote") << header + "current,\"8\"x,1\n"
                                          << 2 << 2 << "after the closing quote";
        QTest::newRow("no scenario") << header + ",8,1\n"
                                     << 2 << 1 << "expected \"current\" or a scenario file";
        QTest::newRow("missing scenario file") << header + "nowhere.gapstudio.json,8,1\n"
                                               << 2 << 1 << "cannot read the scenario";
        QTest::newRow("duplicate id")
            << QByteArray("scenario,measured_iteration_time_s,id\ncurrent,1,a\ncurrent,2,a\n") << 3 << 0
            << "already used on line 2";
        QTest::newRow("comments count as lines") << "# a comment\n\n" + header + "  # another\ncurrent,8,x\n"
                                                 << 5 << 3 << "got \"x\"";
        QTest::newRow("no header") << QByteArray("# only a comment\n") << 1 << 0 << "no header line";
        QTest::newRow("no runs") << header << 1 << 0 << "no runs";
    }
    void errorsNameLineAndColumn()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("runs.csv")).toStdString();
        const scenario::Scenario current = defaultScenario();
        try {
            (void)io::parseRunsCsv(text.toStdString(), file, &current);
            QFAIL("no error");
        } catch (const io::CsvError &error) {
            const QString what = QString::fromUtf8(error.what());
            QVERIFY2(what.contains(message), qPrintable(what));
            QCOMPARE(error.line(), line);
            QCOMPARE(error.column(), column);
            const QString where = QStringLiteral("%1: line %2").arg(QString::fromStdString(file)).arg(line);
            QVERIFY2(what.startsWith(where), qPrintable(what));
            if (column > 0)
                QVERIFY2(what.contains(QStringLiteral(", column %1").arg(column)), qPrintable(what));
        }
    }

    // The limits of every reader (safe_file.h): a FIFO without a writer, /dev/zero and a file over
    // 64 MiB are refused at once. Read in a child process that SIGALRM ends, so that a reader
    // which waits or reads forever fails the test instead of hanging it.
    void endlessAndHugeFilesAreRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("FIFO") << "fifo" << "not a regular file";
        QTest::newRow("/dev/zero") << "device" << "not a regular file";
        QTest::newRow("over 64 MiB") << "huge" << "larger than";
    }
    void endlessAndHugeFilesAreRefused()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("runs.csv")).toStdString();
        if (kind == QLatin1String("fifo")) {
            QCOMPARE(::mkfifo(file.c_str(), 0600), 0); // no writer: opening it for reading would wait
        } else if (kind == QLatin1String("device")) {
            QCOMPARE(::symlink("/dev/zero", file.c_str()), 0);
        } else {
            write(QString::fromStdString(file), "scenario,measured_iteration_time_s\ncurrent,1\n");
            std::filesystem::resize_file(file, io::kMaxInputBytes + 1); // sparse
        }
        const QString error = QString::fromUtf8(loadErrorInChild(file));
        QVERIFY2(error.startsWith(QString::fromStdString(file) + QStringLiteral(": ")) && error.contains(message),
                 qPrintable(error));
    }

    void currentNeedsADesign()
    {
        try {
            (void)io::parseRunsCsv("scenario,measured_iteration_time_s\ncurrent,1\n", "runs.csv", nullptr);
            QFAIL("no error");
        } catch (const io::CsvError &error) {
            QCOMPARE(error.line(), 2);
            QCOMPARE(error.column(), 1);
            QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("(scenario)")), error.what());
        }
    }

    void shippedRunsAreEveryMeasurementFile()
    {
        const QStringList files = measurementFiles();
        QVERIFY(files.size() >= 3);
        const io::MeasurementLoad load = io::loadShippedMeasurements(
            { { io::PresetSource::SourceTree, PRESETS_DIR }, { io::PresetSource::Embedded, "<embedded>" } });
        QVERIFY2(load.warnings.empty(), load.warnings.empty() ? "" : load.warnings.front().c_str());
        QCOMPARE(load.measurements.size(), static_cast<std::size_t>(files.size()));
        std::set<std::string> loaded;
        for (const io::Measurement &m : load.measurements)
            loaded.insert(m.id);
        for (const QString &file : files) // presets/measurements/<family>/<id>.json
            QVERIFY2(loaded.count(QFileInfo(file).completeBaseName().toStdString()) == 1, qPrintable(file));
        // Sorted by family, then id.
        for (std::size_t i = 1; i < load.measurements.size(); ++i) {
            const io::Measurement &a = load.measurements[i - 1];
            const io::Measurement &b = load.measurements[i];
            QVERIFY(a.family < b.family || (a.family == b.family && a.id < b.id));
        }
        // The embedded copy alone has the same runs (the installed app without presets/).
        const io::MeasurementLoad embedded
            = io::loadShippedMeasurements({ { io::PresetSource::Embedded, "<embedded>" } });
        QCOMPARE(embedded.measurements.size(), load.measurements.size());
    }

    void anEarlierFolderHidesARunAndABrokenOneIsLeftOut()
    {
        QTemporaryDir user;
        QDir().mkpath(user.filePath(QStringLiteral("measurements/mine")));
        const QString shippedFile = measurementFiles().front();
        io::Measurement mine = io::loadMeasurement(shippedFile.toStdString());
        mine.measuredIterationTime_s = 999;
        write(user.filePath(QStringLiteral("measurements/mine/run.json")),
              QByteArray::fromStdString(io::toText(io::toJson(mine))));
        const io::MeasurementLoad load
            = io::loadShippedMeasurements({ { io::PresetSource::UserData, user.path().toStdString() },
                                            { io::PresetSource::Embedded, "<embedded>" } });
        QCOMPARE(load.measurements.size(), static_cast<std::size_t>(measurementFiles().size()));
        for (const io::Measurement &m : load.measurements)
            if (m.id == mine.id)
                QCOMPARE(m.measuredIterationTime_s, 999.0);

        write(user.filePath(QStringLiteral("measurements/mine/broken.json")),
              "{\"fileType\": \"gapstudio.measurement\", \"version\": 1}");
        const io::MeasurementLoad broken
            = io::loadShippedMeasurements({ { io::PresetSource::UserData, user.path().toStdString() },
                                            { io::PresetSource::Embedded, "<embedded>" } });
        QCOMPARE(broken.warnings.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(broken.warnings.front()).contains(QStringLiteral("broken.json")),
                 broken.warnings.front().c_str());
        QCOMPARE(broken.measurements.size(), static_cast<std::size_t>(measurementFiles().size()));
    }
};

QTEST_GUILESS_MAIN(tst_RunsCsv)
#include "tst_runs_csv.moc"
