// gapstudio-cli against hostile input, run as a separate process: sizes that overflowed
// 64-bit counts, numbers the model cannot compute with, inputs that never end, outputs that cannot
// be written, and the exit-code contract 0 ok / 1 infeasible / 2 malformed / 3 output failed.
// Each test names the defect it guards; each failed (wrong exit status, a crash or a hang) before.
#include "calculon_cases.h"
#include "run_process.h"

#include "gapstudio/io/preset_json.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

using namespace gapstudio;

namespace {

using Result = test::ProcessResult;

Result run(const QStringList &arguments, const QString &stdoutFile = {}, int timeout_ms = 60000)
{
    return test::runProcess(QStringLiteral(GAPSTUDIO_CLI), arguments, stdoutFile, timeout_ms);
}

const QString kCase = QStringLiteral("18_gpt3-175B_4096_h100_fp8");
const QString kScenarios = QStringLiteral(PRESETS_DIR "/scenarios/");

QString caseFile(const char *name)
{
    return QString::fromStdString(test::caseFile(kCase, name));
}

QStringList calculon()
{
    return { QStringLiteral("--calculon"), caseFile("model.json"), caseFile("execution.json"),
             caseFile("system.json") };
}

void writeJson(const QString &path, const nlohmann::json &json)
{
    std::ofstream(path.toStdString()) << json.dump(2);
}

} // namespace

class tst_CliRobust : public QObject {
    Q_OBJECT

    QTemporaryDir mDir;
    QString path(const QString &name) const { return mDir.filePath(name); }

    /// The default dense scenario with `edit` applied, saved under `name`.
    template <typename Edit> QString scenario(const QString &name, Edit edit)
    {
        scenario::Scenario s = io::loadScenario(
            (kScenarios + QStringLiteral("gpt3-175b-4096-h100-fp8.gapstudio.json")).toStdString());
        edit(s);
        const QString file = path(name);
        io::saveScenario(s, file.toStdString());
        return file;
    }

private slots:
    void initTestCase() { QVERIFY(mDir.isValid()); }

    // "seq_size 1e9 (inside the documented 2^53 limit) overflows int64: negative step time and
    // negative memory that passes the capacity check", exit 0.
    void seqSizeThatOverflowsIsMalformed()
    {
        nlohmann::json model = test::readJson(caseFile("model.json").toStdString());
        model["seq_size"] = 1000000000;
        writeJson(path(QStringLiteral("model.json")), model);
        const Result r
            = run({ QStringLiteral("eval"), QStringLiteral("--calculon"), path(QStringLiteral("model.json")),
                    caseFile("execution.json"), caseFile("system.json") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        // Named in the file that holds it (the model file), not the execution file.
        QVERIFY2(r.err.startsWith("error: " + path(QStringLiteral("model.json")).toUtf8() + ": /seq_size: "),
                 r.err.constData());
    }

    // The same through a scenario override, with the scenario's own pointer.
    void scenarioOverridesOutOfRange_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("pointer");
        QTest::newRow("llm.seq_size 1e9 overflows") << "llm.seq_size" << 1e9 << "/overrides/llm.seq_size";
        // "gpu.compute_scale 1e308 gave null statistics including total_time"
        QTest::newRow("gpu.compute_scale 1e308")
            << "gpu.compute_scale" << 1e308 << "/overrides/gpu.compute_scale";
        // "override scale_up.efficiency: 5 is accepted (the same value in a preset is rejected)"
        QTest::newRow("scale_up.efficiency 5")
            << "scale_up.efficiency" << 5.0 << "/overrides/scale_up.efficiency";
        QTest::newRow("HBM bandwidth 1e300")
            << "gpu.hbm_bandwidth_GBps" << 1e300 << "/overrides/gpu.hbm_bandwidth_GBps";
    }
    void scenarioOverridesOutOfRange()
    {
        QFETCH(QString, key);
        QFETCH(double, value);
        QFETCH(QString, pointer);
        const QString file = scenario(QStringLiteral("override.gapstudio.json"),
                                      [&](scenario::Scenario &s) { s.overrides[key.toStdString()] = value; });
        const Result r = run({ QStringLiteral("eval"), file });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("error: " + file.toUtf8() + ": " + pointer.toUtf8() + ": "),
                 r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
    }

    // Large experts overflowed the router's counts just as seq_size did.
    void hugeExpertCountIsMalformed()
    {
        const QString file = scenario(QStringLiteral("experts.gapstudio.json"), [](scenario::Scenario &s) {
            const scenario::Scenario moe
                = io::loadScenario((kScenarios + QStringLiteral("default.gapstudio.json")).toStdString());
            const auto library = io::loadPresetLibrary(PRESETS_DIR);
            s = moe;
            scenario::Llm llm = library.llms.at(moe.llm.presetId);
            llm.numExperts = std::int64_t { 1 } << 44;
            s.llm = { {}, llm };
        });
        const Result r = run({ QStringLiteral("eval"), file });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(": /llm/num_experts: num_experts"), r.err.constData());
    }

    // "GUI and CLI disagree on exit codes for the same infeasible scenario and the CLI names a
    // JSON pointer (/num_procs) that a scenario file does not have."
    void infeasibleScenarioNamesItsOwnKeys()
    {
        const QString file = scenario(QStringLiteral("gpus.gapstudio.json"),
                                      [](scenario::Scenario &s) { s.overrides["gpu_count"] = 4000; });
        const Result r = run({ QStringLiteral("eval"), file });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith("error: " + file.toUtf8() + ": /overrides/gpu_count: num_procs 4000"),
                 r.err.constData());
        QVERIFY(!r.err.contains("/num_procs"));
    }

    // "--presets "" silently uses the defaults".
    void emptyPresetsFolderIsRefused()
    {
        const Result r = run({ QStringLiteral("eval"), kScenarios + QStringLiteral("default.gapstudio.json"),
                               QStringLiteral("--presets"), QString() });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--presets"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    // "sweep --factors inf prints x: null".
    void sweepFactorsOutOfRange_data()
    {
        QTest::addColumn<QString>("factors");
        QTest::newRow("inf") << "1,inf";
        QTest::newRow("nan") << "nan";
        QTest::newRow("beyond the parameter's range") << "1e6";
    }
    void sweepFactorsOutOfRange()
    {
        QFETCH(QString, factors);
        const Result r
            = run(QStringList { QStringLiteral("sweep") } + calculon()
                  + QStringList { QStringLiteral("--axis"), QStringLiteral("hbm_bandwidth"),
                                  QStringLiteral("--factors"), factors, QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("--factors"), r.err.constData());
    }

    // "sweep --axis variants exits 0 with 24 null statistics on a system eval refuses (exit 2)": an
    // HBM bandwidth of 1e-300 GB/s is inside the file's range but the model's results are not finite.
    void sweepOfADesignEvalRefuses_data()
    {
        QTest::addColumn<QString>("axis");
        QTest::newRow("variants") << "variants";
        QTest::newRow("a parameter") << "hbm_bandwidth";
    }
    void sweepOfADesignEvalRefuses()
    {
        QFETCH(QString, axis);
        nlohmann::json system = test::readJson(test::caseFile(kCase, "system.json"));
        system["mem1"]["GBps"] = 1e-300;
        const QString file = path(QStringLiteral("slow-hbm.json"));
        writeJson(file, system);
        const QStringList files { QStringLiteral("--calculon"), caseFile("model.json"), caseFile("execution.json"),
                                  file };
        const Result eval = run(QStringList { QStringLiteral("eval") } + files);
        QCOMPARE(eval.exitCode, 2);
        const Result sweep = run(QStringList { QStringLiteral("sweep") } + files
                                 + QStringList { QStringLiteral("--axis"), axis, QStringLiteral("--json") });
        QCOMPARE(sweep.exitCode, 2);
        QVERIFY(sweep.out.isEmpty());
        QCOMPARE(sweep.err, eval.err);
    }

    // "import-hf --id $'\xff' prints a raw json.exception"; "--presets / prints a raw filesystem
    // error about /proc/...": a clear message naming the option or the directory, exit 2.
    void unclearErrorsAreClear_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("--id not UTF-8") << "id" << "error: --id expects UTF-8 text";
        QTest::newRow("--name not UTF-8") << "name" << "error: --name expects UTF-8 text";
        QTest::newRow("--presets with a link loop") << "presets" << "cannot list the directory (at ";
    }
    void unclearErrorsAreClear()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        // The byte 0xff is no UTF-8 and a QString cannot carry it: the shell's printf writes it.
        QString program = QStringLiteral("/bin/sh");
        QStringList arguments { QStringLiteral("-c"), QStringLiteral("exec \"$0\" import-hf \"$1\" \"$2\" \"$(printf '\\377')\""),
                                QStringLiteral(GAPSTUDIO_CLI), QStringLiteral(TEST_DATA_DIR "/hf/mixtral-8x7b/config.json"),
                                QStringLiteral("--") + kind };
        if (kind == QLatin1String("presets")) {
            program = QStringLiteral(GAPSTUDIO_CLI);
            // A link to itself: its status cannot be read (ELOOP), as /proc/1/task/1/fd/0's under --presets /.
            const QString dir = path(QStringLiteral("presets-with-a-link-loop"));
            QVERIFY(QDir().mkpath(dir));
            QFile::remove(dir + QStringLiteral("/loop.json"));
            QCOMPARE(::symlink("loop.json", (dir + QStringLiteral("/loop.json")).toUtf8().constData()), 0);
            arguments = { QStringLiteral("eval"), kScenarios + QStringLiteral("default.gapstudio.json"),
                          QStringLiteral("--presets"), dir };
            message = QStringLiteral("error: ") + dir + QStringLiteral(": /: ") + message;
        }
        const Result r = test::runProcess(program, arguments, {}, 60000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith(message.toUtf8()), r.err.constData());
        QVERIFY2(!r.err.contains("exception") && !r.err.contains("filesystem error"), r.err.constData());
    }

    // "every CLI command exits 0 when stdout cannot be written (> /dev/full)".
    void unwritableStdoutIsExit3_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("eval") << (QStringList { QStringLiteral("eval") } + calculon());
        QTest::newRow("eval scenario")
            << QStringList { QStringLiteral("eval"), kScenarios + QStringLiteral("default.gapstudio.json") };
        QTest::newRow("sensitivity") << (QStringList { QStringLiteral("sensitivity") } + calculon());
        QTest::newRow("sweep csv") << (QStringList { QStringLiteral("sweep") } + calculon()
                                       + QStringList { QStringLiteral("--axis"),
                                                       QStringLiteral("variants") });
        QTest::newRow("import-hf") << QStringList {
            QStringLiteral("import-hf"), QStringLiteral(TEST_DATA_DIR "/hf/mixtral-8x7b/config.json")
        };
        QTest::newRow("help") << QStringList { QStringLiteral("--help") };
        QTest::newRow("version") << QStringList { QStringLiteral("--version") };
    }
    void unwritableStdoutIsExit3()
    {
        QFETCH(QStringList, arguments);
        const Result r = run(arguments, QStringLiteral("/dev/full"));
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("standard output") && r.err.contains("No space left on device"),
                 r.err.constData());
    }

    // "import-hf on a config with a 100,000-deep array (SIGSEGV, stack overflow in JSON dump)".
    void importHfDeepArrayIsMalformed()
    {
        nlohmann::json config = test::readJson(TEST_DATA_DIR "/hf/mixtral-8x7b/config.json");
        std::string text = config.dump();
        text.insert(text.size() - 1,
                    ", \"architectures_deep\": " + std::string(100000, '[') + std::string(100000, ']'));
        std::ofstream(path(QStringLiteral("config.json")).toStdString()) << text;
        const Result r = run({ QStringLiteral("import-hf"), path(QStringLiteral("config.json")) });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("nested deeper than 64 levels"), r.err.constData());
    }

    // "/dev/zero as input grows to 6 GB; a FIFO blocks forever."
    void endlessInputsAreRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("/dev/zero") << "device";
        QTest::newRow("FIFO") << "fifo";
    }
    void endlessInputsAreRefused()
    {
        QFETCH(QString, kind);
        QString file = QStringLiteral("/dev/zero");
        if (kind == QLatin1String("fifo")) {
            file = path(QStringLiteral("fifo.json"));
            QFile::remove(file);
            QCOMPARE(::mkfifo(file.toUtf8().constData(), 0600), 0);
        }
        const Result r = run({ QStringLiteral("eval"), QStringLiteral("--calculon"), file,
                               caseFile("execution.json"), caseFile("system.json") },
                             {}, 20000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("not a regular file"), r.err.constData());
    }

    // "search with NUM_PROCS 999999999989 ... runs for minutes (divisors found by counting)".
    void searchOfAPrimeGpuCountEndsAtOnce()
    {
        const Result r = run({ QStringLiteral("search"), QStringLiteral("--calculon"), caseFile("model.json"),
                               QStringLiteral("999999999989"), QStringLiteral("2048"),
                               QStringLiteral("float8"), caseFile("system.json") },
                             {}, 30000);
        QCOMPARE(r.exitCode, 1); // no layout: a prime count of GPUs cannot be split
        QVERIFY2(r.err.contains("configurations: 0,"), r.err.constData());
    }

    // "search refusing spaces it cannot finish with a clear message and a way to override".
    void searchRefusesSpacesOverTheLimit()
    {
        const QStringList space { QStringLiteral("search"),     QStringLiteral("--calculon"),
                                  caseFile("model.json"),       QStringLiteral("4096"),
                                  QStringLiteral("1000000000"), QStringLiteral("float8"),
                                  caseFile("system.json") };
        const Result refused
            = run(space + QStringList { QStringLiteral("--max-layouts"), QStringLiteral("1000000") });
        QCOMPARE(refused.exitCode, 2);
        QVERIFY(refused.out.isEmpty());
        QVERIFY2(refused.err.contains("more than 1000000 layouts") && refused.err.contains("--max-layouts"),
                 refused.err.constData());
    }
};

QTEST_GUILESS_MAIN(tst_CliRobust)
#include "tst_cli_robust.moc"
