// The headless exports' failures, and the exit-code contract they share with the CLI: bad input
// exits 2 (naming the file and the JSON pointer), an output that cannot be written 3; an export
// never replaces one of its inputs; --screenshot fails as the exports do; GUI and CLI agree.
#include "full_disk.h"
#include "headlessrun.h"
#include "run_process.h"

#include "charts/chartspanel.h"
#include "charts/chartview.h"

#include "report/provenance.h"
#include "report/report.h"
#include "studio/recalculator.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/preset_locations.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace gapstudio;
using test::fileStart;
using test::headless;
using test::kDefaultScenario;
using test::ProcessResult;

namespace {

/// The app itself (gapstudio), as a user runs it headless.
ProcessResult runApp(const QStringList &arguments, const QString &stdoutFile = {})
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("GAPSTUDIO_PRESETS"), QStringLiteral(PRESETS_DIR));
    return test::runProcess(QStringLiteral(GAPSTUDIO_GUI), arguments, stdoutFile, 120000, env);
}

/// The lines of `err` that report an error: "error: ...", the contract's one line per cause.
QList<QByteArray> errorLines(const QByteArray &err)
{
    QList<QByteArray> lines;
    for (const QByteArray &line : err.split('\n'))
        if (line.startsWith("error: "))
            lines << line;
    return lines;
}

} // namespace

class tst_HeadlessErrors : public QObject, private test::ExportFixture {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(prepare()); }

    void badInputExitsTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        const QString out
            = QStringLiteral("--export-report=") + QDir::temp().filePath(QStringLiteral("never.pdf"));
        QTest::newRow("unknown option") << QStringList { QStringLiteral("--frobnicate"), out };
        QTest::newRow("nothing to do") << QStringList { QStringLiteral("--scenario"), kDefaultScenario };
        QTest::newRow("missing scenario")
            << QStringList { QStringLiteral("--scenario"), QStringLiteral("/nonexistent.gapstudio.json"),
                             out };
        QTest::newRow("bad token budget")
            << QStringList { QStringLiteral("--token-budget"), QStringLiteral("-3"), out };
        QTest::newRow("positional") << QStringList { QStringLiteral("stray"), out };
        // "--token-budget inf is accepted"; "an unknown export suffix is 3 (usage is 2)".
        QTest::newRow("infinite token budget")
            << QStringList { QStringLiteral("--token-budget"), QStringLiteral("inf"), out };
        QTest::newRow("NaN token budget")
            << QStringList { QStringLiteral("--token-budget"), QStringLiteral("nan"), out };
        QTest::newRow("unknown roadmap format") << QStringList {
            QStringLiteral("--roadmap"),
            QStringLiteral(PRESETS_DIR "/roadmaps/paper-walk-gpt4-moe-4096.gapstudio-roadmap.json"),
            QStringLiteral("--export-roadmap"), QDir::temp().filePath(QStringLiteral("never.txt"))
        };
    }

    void badInputExitsTwo()
    {
        QFETCH(QStringList, arguments);
        QCOMPARE(headless(arguments), views::kHeadlessBadInput);
    }

    void unknownPresetExitsTwoNamingFileAndPointer()
    {
        scenario::Scenario wrong = mDefault;
        wrong.gpu.presetId = "no-such-gpu";
        const QString file = path(QStringLiteral("wrong.gapstudio.json"));
        io::saveScenario(wrong, file.toStdString());
        QCOMPARE(headless({ QStringLiteral("--scenario"), file, QStringLiteral("--export-charts"),
                            path(QStringLiteral("never")) }),
                 views::kHeadlessBadInput);
        QVERIFY(!QDir(path(QStringLiteral("never"))).exists());
    }

    void malformedScenarioExitsTwo()
    {
        const QString file = path(QStringLiteral("malformed.gapstudio.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            R"({"fileType": "gapstudio.scenario", "version": 1, "id": "x", "name": "x", "source": "x", "gpu_cuont": 1})");
        f.close();
        QString error;
        QVERIFY(!views::restoreScenario(file, &error));
        QVERIFY2(error.contains(file), qPrintable(error));
        QCOMPARE(headless({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"),
                            path(QStringLiteral("never.pdf")) }),
                 views::kHeadlessBadInput);
    }

    // "--export-report /dev/full exits 0 'wrote'", and export errors gave no OS reason.
    void unwritableReportIsExit3()
    {
        QCOMPARE(headless({ QStringLiteral("--export-report"), QStringLiteral("/dev/full") }),
                 views::kHeadlessWriteFailed);
        QString error;
        const auto library = io::loadPresetLibrary(PRESETS_DIR);
        QVERIFY(!views::writeReport(*views::computeResults(mDefault, library), nullptr,
                                    QStringLiteral("/dev/full"), &error));
        QVERIFY2(error.contains(QStringLiteral("No space left on device")), qPrintable(error));
        // As a user runs it: the reason on stderr, no "wrote" on stdout.
        const ProcessResult r = runApp({ QStringLiteral("--export-report"), QStringLiteral("/dev/full") });
        QCOMPARE(r.exitCode, views::kHeadlessWriteFailed);
        QVERIFY2(r.err.contains("/dev/full") && r.err.contains("No space left on device"), r.err.constData());
        QVERIFY(!r.out.contains("wrote"));
    }

    // Standard output that cannot be written fails the run, as in the CLI.
    void lostStandardOutputIsExit3()
    {
        const ProcessResult r
            = runApp({ QStringLiteral("--export-report"), path(QStringLiteral("stdout-full.pdf")) },
                     QStringLiteral("/dev/full"));
        QCOMPARE(r.exitCode, views::kHeadlessWriteFailed);
        QVERIFY2(r.err.contains("standard output"), r.err.constData());
    }

    // "--export-charts is atomic per file, not per set (a full disk left 2 of 16 charts
    // replaced)": a disk that fills up half way leaves the whole earlier set as it was.
    void chartSetIsReplacedWholeOrNotAtAll()
    {
        // The sizes of the new set's files, and the order they are written in (chart by chart).
        const QString fresh = path(QStringLiteral("chart-set-fresh"));
        QCOMPARE(headless({ QStringLiteral("--export-charts"), fresh }), views::kHeadlessOk);
        const QString first = views::ChartsPanel().charts().front()->id() + QStringLiteral(".png");
        const qint64 limit = QFileInfo(QDir(fresh).filePath(first)).size();
        qint64 largest = 0;
        for (const QFileInfo &file : QDir(fresh).entryInfoList(QDir::Files))
            largest = std::max(largest, file.size());
        QVERIFY2(limit > 0 && largest > limit, "the first file written must fit and a later one must not");

        // An earlier set of another design, then the new one on a disk with room for the first
        // file only (RLIMIT_FSIZE, test::FullDisk).
        const QString dir = path(QStringLiteral("chart-set"));
        QCOMPARE(headless({ QStringLiteral("--scenario"), test::kBaselineScenario,
                            QStringLiteral("--export-charts"), dir }),
                 views::kHeadlessOk);
        QMap<QString, QByteArray> before;
        for (const QFileInfo &file : QDir(dir).entryInfoList(QDir::Files))
            before[file.fileName()] = fileStart(file.filePath(), 1 << 24);
        QVERIFY(before.size() >= 16);
        QVERIFY(before[first] != fileStart(QDir(fresh).filePath(first), 1 << 24));
        int status = 0;
        {
            test::FullDisk full(static_cast<rlim_t>(limit));
            status = headless({ QStringLiteral("--export-charts"), dir });
        }
        QCOMPARE(status, views::kHeadlessWriteFailed);
        QMap<QString, QByteArray> after;
        for (const QFileInfo &file : QDir(dir).entryInfoList(QDir::Files | QDir::Hidden))
            after[file.fileName()] = fileStart(file.filePath(), 1 << 24);
        QCOMPARE(after.keys(), before.keys());
        for (const QString &name : before.keys())
            QVERIFY2(after[name] == before[name], qPrintable(name + QStringLiteral(" was replaced")));
        // Nothing of the failed set is left behind (no staging folder).
        QCOMPARE(QDir(dir).entryList(QDir::AllDirs | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
    }

    // "--export-report X.gapstudio.json with the scenario itself as output replaces the scenario
    // with a PDF (same with --baseline)".
    void anExportNeverReplacesAnInput_data()
    {
        QTest::addColumn<QString>("role");
        QTest::newRow("scenario") << "scenario";
        QTest::newRow("baseline") << "baseline";
    }
    void anExportNeverReplacesAnInput()
    {
        QFETCH(QString, role);
        const QString file = path(QStringLiteral("input-") + role + QStringLiteral(".gapstudio.json"));
        io::saveScenario(mDefault, file.toStdString());
        const QByteArray before = fileStart(file, 1 << 20);
        QCOMPARE(headless({ QStringLiteral("--") + role, file, QStringLiteral("--export-report"), file }),
                 views::kHeadlessBadInput);
        QCOMPARE(fileStart(file, 1 << 20), before);
    }

    // "a deeply nested SVG given as --scenario/--baseline (stack overflow in QXmlStreamReader)".
    void deeplyNestedSvgIsRefused_data() { anExportNeverReplacesAnInput_data(); }
    void deeplyNestedSvgIsRefused()
    {
        QFETCH(QString, role);
        const QString file = path(QStringLiteral("deep.svg"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\">");
        // Nested inside the element that holds the scenario: reading its text recursed per level.
        f.write("<desc>");
        f.write(QByteArray("<g>").repeated(200000));
        f.write(QByteArray("</g>").repeated(200000));
        f.write("</desc>");
        f.write("</svg>");
        f.close();
        QString error;
        QVERIFY(!views::restoreScenario(file, &error));
        QVERIFY2(error.contains(QStringLiteral("deeper than")), qPrintable(error));
        QCOMPARE(headless({ QStringLiteral("--") + role, file, QStringLiteral("--export-report"),
                            path(QStringLiteral("never-deep.pdf")) }),
                 views::kHeadlessBadInput);
    }

    // "--screenshot with a bad or missing --scenario exits 0 and shows the default design".
    void screenshotOfABadScenarioFails_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<int>("status");
        QTest::newRow("missing") << "/nonexistent.gapstudio.json" << views::kHeadlessBadInput;
        QTest::newRow("not a scenario") << ICON_FILE << views::kHeadlessBadInput;
    }
    void screenshotOfABadScenarioFails()
    {
        QFETCH(QString, scenario);
        QFETCH(int, status);
        const QString png = path(QStringLiteral("never-shot.png"));
        const ProcessResult r
            = runApp({ QStringLiteral("--scenario"), scenario, QStringLiteral("--screenshot"), png });
        QCOMPARE(r.exitCode, status);
        QVERIFY(!QFile::exists(png));
        QVERIFY2(r.err.contains(scenario.toUtf8()), r.err.constData());
    }

    // "`gapstudio --scenario S --screenshot S` turns the scenario into a PNG, exit 0": the user's
    // command, with the same file spelled as given, with ./ and through a symbolic link.
    void screenshotNeverReplacesItsScenario_data()
    {
        QTest::addColumn<QString>("spelling");
        QTest::newRow("same path") << "same";
        QTest::newRow("dot slash") << "dot";
        QTest::newRow("symbolic link") << "link";
    }
    void screenshotNeverReplacesItsScenario()
    {
        QFETCH(QString, spelling);
        const QString file = path(QStringLiteral("shot-") + spelling + QStringLiteral(".gapstudio.json"));
        io::saveScenario(mDefault, file.toStdString());
        const QByteArray before = fileStart(file, 1 << 20);
        QString out = file;
        if (spelling == QLatin1String("dot"))
            out = QFileInfo(file).absolutePath() + QStringLiteral("/./") + QFileInfo(file).fileName();
        if (spelling == QLatin1String("link")) {
            out = path(QStringLiteral("shot-link.png"));
            QFile::remove(out);
            QVERIFY(QFile::link(file, out));
        }
        const ProcessResult r
            = runApp({ QStringLiteral("--scenario"), file, QStringLiteral("--screenshot"), out });
        QCOMPARE(r.exitCode, views::kHeadlessBadInput);
        QCOMPARE(fileStart(file, 1 << 20), before);
        QVERIFY2(r.err.contains("refusing to overwrite an input"), r.err.constData());
    }

    // "gapstudio --help > /dev/full exits 0": help and version that never reach their reader are
    // exit 3, as in the CLI.
    void helpToAFullDiskIsExit3()
    {
        for (const QString &option : { QStringLiteral("--help"), QStringLiteral("--version") }) {
            const ProcessResult r = runApp({ option }, QStringLiteral("/dev/full"));
            QVERIFY2(r.exitCode == views::kHeadlessWriteFailed, qPrintable(option));
            QVERIFY2(r.err.contains("standard output"), r.err.constData());
        }
        const ProcessResult help = runApp({ QStringLiteral("--help") });
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--window-size"));
    }

    // "--window-size has no upper bound (100000x100000 runs past 60 s)": a size no screen shows,
    // or no size at all, is a usage error before any window is made.
    void windowSizeOutOfRangeIsExit2_data()
    {
        QTest::addColumn<QString>("size");
        QTest::newRow("100000x100000") << "100000x100000";
        QTest::newRow("zero") << "0x800";
        QTest::newRow("smaller than any screen") << "200x150";
        QTest::newRow("not a size") << "large";
    }
    void windowSizeOutOfRangeIsExit2()
    {
        QFETCH(QString, size);
        const QString png = path(QStringLiteral("never-sized.png"));
        const ProcessResult r
            = runApp({ QStringLiteral("--window-size"), size, QStringLiteral("--screenshot"), png });
        QCOMPARE(r.exitCode, views::kHeadlessBadInput);
        QVERIFY2(r.err.contains("--window-size " + size.toUtf8()), r.err.constData());
        QVERIFY(!QFile::exists(png));
    }

    void screenshotThatCannotBeWrittenIsExit3()
    {
        const ProcessResult r = runApp({ QStringLiteral("--screenshot"), QStringLiteral("/dev/full") });
        QCOMPARE(r.exitCode, views::kHeadlessWriteFailed);
        QVERIFY2(r.err.contains("No space left on device"), r.err.constData());
    }

    // "GUI and CLI disagree on exit codes for the same infeasible scenario and the CLI names a JSON
    // pointer (/num_procs) that a scenario file does not have."
    void guiAndCliAgreeOnAnInfeasibleScenario()
    {
        scenario::Scenario wrongCount = mDefault;
        wrongCount.overrides["gpu_count"] = 4000; // the layout needs 4096
        const QString file = path(QStringLiteral("wrong-count.gapstudio.json"));
        io::saveScenario(wrongCount, file.toStdString());
        QCOMPARE(headless({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"),
                            path(QStringLiteral("wrong-count.pdf")) }),
                 views::kHeadlessInfeasible);
        const ProcessResult gui
            = runApp({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"),
                       path(QStringLiteral("wrong-count.pdf")) });
        QProcess cli;
        cli.start(QStringLiteral(GAPSTUDIO_CLI), { QStringLiteral("eval"), file });
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(gui.exitCode, views::kHeadlessInfeasible);
        QCOMPARE(cli.exitCode(), gui.exitCode);
        const QByteArray pointer = file.toUtf8() + ": /overrides/gpu_count: ";
        QVERIFY2(gui.err.contains(pointer), gui.err.constData());
        const QByteArray cliErr = cli.readAllStandardError();
        QVERIFY2(cliErr.contains(pointer), cliErr.constData());
        QVERIFY(!cliErr.contains("/num_procs") && !gui.err.contains("/num_procs"));
        // "the app prefixes gapstudio: and prints two lines for one cause": the same error lines.
        QCOMPARE(errorLines(gui.err), errorLines(cliErr));
        QCOMPARE(errorLines(gui.err).size(), 1);
        QVERIFY2(!gui.err.contains("gapstudio: "), gui.err.constData());
    }

    // A number the model cannot compute with is malformed input for both, before any output.
    void guiAndCliAgreeOnAMalformedScenario()
    {
        scenario::Scenario huge = mDefault;
        huge.overrides["llm.seq_size"] = 1e9;
        const QString file = path(QStringLiteral("huge.gapstudio.json"));
        io::saveScenario(huge, file.toStdString());
        const QString pdf = path(QStringLiteral("never-huge.pdf"));
        QCOMPARE(headless({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"), pdf }),
                 views::kHeadlessBadInput);
        const ProcessResult gui
            = runApp({ QStringLiteral("--scenario"), file, QStringLiteral("--export-report"), pdf });
        QProcess cli;
        cli.start(QStringLiteral(GAPSTUDIO_CLI), { QStringLiteral("eval"), file });
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(gui.exitCode, views::kHeadlessBadInput);
        QCOMPARE(cli.exitCode(), gui.exitCode);
        QVERIFY(!QFile::exists(pdf));
        QVERIFY2(gui.err.contains(file.toUtf8() + ": /overrides/llm.seq_size: "), gui.err.constData());
    }
};

QTEST_MAIN(tst_HeadlessErrors)
#include "tst_headless_errors.moc"
