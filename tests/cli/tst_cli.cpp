// gapstudio-cli as a user runs it: a separate process, its stdout, stderr and exit status
// (the contract in `gapstudio-cli --help`).
#include "calculon_cases.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include <fstream>
#include <vector>

using namespace gapstudio;

class tst_Cli : public QObject
{
    Q_OBJECT

private slots:
    void evalPrintsTheStats();
    void evalLayers();
    void infeasible_data();
    void infeasible();
    void malformed_data();
    void malformed();
    void usage_data();
    void usage();
    void helpAndVersion();
    void bench();
    void evalMoeFormat();
    void benchMoe();
    void benchScenario();
    void search();
    void sweepAndSensitivity();

private:
    struct Result {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };
    static Result run(const QStringList &arguments);
};

namespace {

const QString kCase = QStringLiteral("18_gpt3-175B_4096_h100_fp8");

QStringList evalArguments(const QString &caseName)
{
    const auto file = [&](const char *name) { return QString::fromStdString(test::caseFile(caseName, name)); };
    return {QStringLiteral("eval"), QStringLiteral("--calculon"), file("model.json"), file("execution.json"),
            file("system.json")};
}

std::vector<std::string> statNames()
{
    std::vector<std::string> names;
    model::Stats().forEach([&names](std::string_view name, double) { names.emplace_back(name); });
    return names;
}

} // namespace

tst_Cli::Result tst_Cli::run(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(GAPSTUDIO_CLI), arguments);
    Result result;
    if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit)
        return result; // exitCode -1: crashed or hung
    result.exitCode = process.exitCode();
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

void tst_Cli::evalPrintsTheStats()
{
    const Result r = run(evalArguments(kCase));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(r.err.isEmpty());
    const auto out = nlohmann::ordered_json::parse(r.out.constData());
    std::vector<std::string> keys;
    for (const auto &item : out.items())
        keys.push_back(item.key());
    QCOMPARE(keys.size(), model::kStatCount);
    QVERIFY(keys == statNames());
    const nlohmann::json expected = test::readJson(test::caseFile(kCase, "output.json"));
    const double got = out.at("total_time").get<double>();
    const double want = expected.at("total_time").get<double>();
    QVERIFY2(test::withinTolerance(got, want), qPrintable(QStringLiteral("total_time %1 != %2").arg(got).arg(want)));
}

void tst_Cli::evalLayers()
{
    const Result r = run(evalArguments(kCase) << QStringLiteral("--layers"));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const auto out = nlohmann::ordered_json::parse(r.out.constData());
    QCOMPARE(out.size(), model::kStatCount + 1);
    QVERIFY(out.contains("layers"));
    const auto &layers = out.at("layers");
    const nlohmann::json expected = test::readJson(test::caseFile(kCase, "output.json"));
    QCOMPARE(layers.size(), expected.at("layers").size());
    for (std::size_t i = 0; i < layers.size(); ++i) {
        QCOMPARE(layers[i].size(), model::kLayerStatCount + 1);
        QCOMPARE(QString::fromStdString(layers[i].begin().key()), QStringLiteral("name"));
        QVERIFY(layers[i].at("name") == expected.at("layers")[i].at("name"));
    }
}

void tst_Cli::infeasible_data()
{
    QTest::addColumn<QString>("caseName");
    for (const QString &name : test::caseNames()) {
        if (test::readAll(QString::fromStdString(test::caseFile(name, "rc.txt"))).trimmed() != "0")
            QTest::newRow(qPrintable(name)) << name;
    }
}

void tst_Cli::infeasible()
{
    QFETCH(QString, caseName);
    QString cause = QString::fromUtf8(
        test::readAll(QString::fromStdString(test::caseFile(caseName, "cli_stdout.txt"))).trimmed());
    cause.remove(QRegularExpression(QStringLiteral("^ERROR: ")));
    const Result r = run(evalArguments(caseName));
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.out.isEmpty());
    // The reference's text comes first; GapStudio may add the numbers behind it.
    const QString first = QString::fromUtf8(r.err).split(QLatin1Char('\n')).first();
    QVERIFY2(first.startsWith(QStringLiteral("error: ") + cause), qPrintable(first));
}

void tst_Cli::malformed_data()
{
    QTest::addColumn<QString>("which");        // model | execution | system
    QTest::addColumn<QByteArray>("content");   // empty: the file does not exist
    QTest::addColumn<QString>("pointer");
    QTest::newRow("garbage") << "model" << QByteArray("not json at all") << "/";
    QTest::newRow("missing file") << "system" << QByteArray() << "/";
    QTest::newRow("unknown key") << "execution" << QByteArray("{\"tensor_parallel\": 8}") << "/tensor_parallel";
    QTest::newRow("p2p offset") << "system" << QByteArray("p2p-offset") << "/networks/0/ops/p2p/1";
}

void tst_Cli::malformed()
{
    QFETCH(QString, which);
    QFETCH(QByteArray, content);
    QFETCH(QString, pointer);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QStringList args = evalArguments(kCase);
    const int index = which == QLatin1String("model") ? 2 : which == QLatin1String("execution") ? 3 : 4;
    const QString file = dir.filePath(which + QStringLiteral("-bad.json"));
    if (content == "p2p-offset") {
        nlohmann::json sys = test::readJson(args[index].toStdString());
        sys["networks"][0]["ops"]["p2p"][1] = 0;
        content = QByteArray::fromStdString(sys.dump());
    } else if (content.startsWith('{')) {
        nlohmann::json json = test::readJson(args[index].toStdString());
        json.merge_patch(nlohmann::json::parse(content.constData()));
        content = QByteArray::fromStdString(json.dump());
    }
    if (!content.isEmpty())
        std::ofstream(file.toStdString(), std::ios::binary) << content.toStdString();
    args[index] = file;

    const Result r = run(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.endsWith('\n') && r.err.count('\n') == 1, r.err.constData());
    QVERIFY2(r.err.startsWith(("error: " + file + ": " + pointer + ": ").toUtf8()), r.err.constData());
}

void tst_Cli::usage_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("no command") << QStringList();
    QTest::newRow("unknown command") << QStringList{"evaluate"};
    QTest::newRow("unknown option") << QStringList{"eval", "--fast"};
    QTest::newRow("eval without files") << QStringList{"eval", "--calculon", "a.json"};
    QTest::newRow("bench bad seconds") << QStringList{"bench", "--seconds", "soon"};
    QTest::newRow("bench negative seconds") << QStringList{"bench", "--seconds", "-1"};
    QTest::newRow("bench --moe and --scenario") << QStringList{"bench", "--moe", "--scenario", "a.json"};
    QTest::newRow("bench --presets alone") << QStringList{"bench", "--presets", "."};
    QTest::newRow("bench --scenario without a file") << QStringList{"bench", "--scenario"};
}

void tst_Cli::usage()
{
    QFETCH(QStringList, arguments);
    const Result r = run(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith("error: "), r.err.constData());
}

void tst_Cli::helpAndVersion()
{
    const Result help = run({QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    for (const char *word : {"eval", "--calculon", "--layers", "bench", "--seconds", "--version"})
        QVERIFY2(help.out.contains(word), word);
    // Every command the CLI runs has its usage line and its paragraph.
    for (const char *command : {"eval", "import-hf", "bench", "search", "sweep", "sensitivity", "grid", "rank",
                                "cost-sweep", "roadmap", "validate", "calibrate"}) {
        QVERIFY2(help.out.contains(QByteArray("gapstudio-cli ") + command + ' '), command);
        QVERIFY2(help.out.contains(QByteArray("\n  ") + command + ' '), command);
    }
    const Result version = run({QStringLiteral("--version")});
    QCOMPARE(version.exitCode, 0);
    QCOMPARE(version.out, QByteArray("gapstudio-cli " GAPSTUDIO_VERSION "\n"));
}

void tst_Cli::bench()
{
    const Result r = run({QStringLiteral("bench"), QStringLiteral("--seconds"), QStringLiteral("0.2")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QStringList lines = QString::fromUtf8(r.out).trimmed().split(QLatin1Char('\n'));
    static const QRegularExpression last(QStringLiteral("^evaluations_per_second: [0-9]+(\\.[0-9]+)?$"));
    QVERIFY2(last.match(lines.last()).hasMatch(), qPrintable(lines.last()));
    QVERIFY(lines.last().section(QLatin1Char(' '), 1).toDouble() > 0);
}

void tst_Cli::evalMoeFormat()
{
    // A calculon-MoE execution (33 keys) prints calculon-MoE's 122 statistics.
    const QString dir = QStringLiteral(TEST_DATA_DIR "/calculon-moe/cases/moe18_4096_fullflat_base/");
    const Result r = run({QStringLiteral("eval"), QStringLiteral("--calculon"), dir + "model.json",
                          dir + "execution.json", dir + "system.json"});
    QCOMPARE(r.exitCode, 0);
    const nlohmann::json out = nlohmann::json::parse(r.out.begin(), r.out.end());
    const nlohmann::json expected = test::readJson((dir + "output.json").toStdString());
    QCOMPARE(out.size(), expected.size() - 1); // no layers
    QVERIFY(test::withinTolerance(out["total_time"].get<double>(), expected["total_time"].get<double>()));
    QVERIFY(out.contains("ep_comm_exposed_time") && out.contains("baseblock_tp_recomm_time"));
}

void tst_Cli::benchMoe()
{
    const Result r = run({QStringLiteral("bench"), QStringLiteral("--moe"), QStringLiteral("--seconds"), QStringLiteral("0.2")});
    QCOMPARE(r.exitCode, 0);
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QVERIFY(lines.first().contains("moe18_4096_fullflat_base"));
    QVERIFY(QRegularExpression(QStringLiteral("^evaluations_per_second: [0-9.]+$")).match(QString::fromUtf8(lines.last())).hasMatch());
}

void tst_Cli::benchScenario()
{
    // The default design in its own (corrected) model: the step time eval prints for the same
    // file, and the same output lines as the built-in cases.
    const QString file = QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json");
    const Result e = run({QStringLiteral("eval"), file});
    QCOMPARE(e.exitCode, 0);
    const double step = nlohmann::json::parse(e.out.begin(), e.out.end())["total_time"].get<double>();
    const Result r = run({QStringLiteral("bench"), QStringLiteral("--scenario"), file, QStringLiteral("--seconds"),
                          QStringLiteral("0.2")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QStringList lines = QString::fromUtf8(r.out).trimmed().split(QLatin1Char('\n'));
    QVERIFY2(lines.first().startsWith(QStringLiteral("case: default (")), qPrintable(lines.first()));
    QVERIFY2(lines[1].startsWith(QStringLiteral("total_time_s: ")), qPrintable(lines[1]));
    // The mean of many identical step times, summed: equal up to the sum's rounding.
    QVERIFY2(std::fabs(lines[1].section(QLatin1Char(' '), 1).toDouble() / step - 1) < 1e-9, qPrintable(lines[1]));
    static const QRegularExpression last(QStringLiteral("^evaluations_per_second: [0-9]+(\\.[0-9]+)?$"));
    QVERIFY2(last.match(lines.last()).hasMatch(), qPrintable(lines.last()));
}

void tst_Cli::search()
{
    // The reference's output shape, best first, and the summary as the last stderr line.
    const QString model = QString::fromStdString(test::caseFile(QStringLiteral("05_val_turing-530B_full"), "model.json"));
    const QString system = QString::fromStdString(test::caseFile(kCase, "system.json"));
    const Result r = run({QStringLiteral("search"), QStringLiteral("--calculon"), model, QStringLiteral("5128"),
                          QStringLiteral("2520"), QStringLiteral("float8"), system, QStringLiteral("--top"),
                          QStringLiteral("3"), QStringLiteral("-m"), QStringLiteral("--exhaustive")});
    QCOMPARE(r.exitCode, 0);
    const nlohmann::json out = nlohmann::json::parse(r.out.begin(), r.out.end());
    const nlohmann::json expected = test::readJson(TEST_DATA_DIR "/calculon/loe/loe_turing-530B_5128_h100fp8_top10.json");
    QCOMPARE(out.size(), std::size_t{3});
    for (const char *rank : {"0", "1", "2"}) {
        QVERIFY2(out[rank]["execution"] == expected[rank]["execution"], out[rank]["execution"].dump().c_str());
        QCOMPARE(out[rank]["stats"].size(), expected[rank]["stats"].size());
    }
    const QString last = QString::fromUtf8(r.err.trimmed()).split(QLatin1Char('\n')).last();
    QVERIFY2(QRegularExpression(QStringLiteral("^configurations: 8832, valid: 1760, seconds: [0-9.]+, "
                                               "configurations_per_second: [0-9]+, evaluated: 8832, skipped: 0$"))
                 .match(last).hasMatch(),
             qPrintable(last));

    // Without --exhaustive: the same output, the same 8832 configurations (the reference's
    // count, with -m), of which some were skipped rather than evaluated.
    const Result bounded = run(QStringList{QStringLiteral("search"), QStringLiteral("--calculon"), model,
                                           QStringLiteral("5128"), QStringLiteral("2520"), QStringLiteral("float8"),
                                           system, QStringLiteral("--top"), QStringLiteral("3"), QStringLiteral("-m")});
    QCOMPARE(bounded.exitCode, 0);
    QCOMPARE(bounded.out, r.out);
    const QString summary = QString::fromUtf8(bounded.err.trimmed()).split(QLatin1Char('\n')).last();
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral(
        "^configurations: 8832, valid: [0-9]+, seconds: [0-9.]+, configurations_per_second: [0-9]+, "
        "evaluated: ([0-9]+), skipped: ([0-9]+)$")).match(summary);
    QVERIFY2(m.hasMatch(), qPrintable(summary));
    QCOMPARE(m.captured(1).toInt() + m.captured(2).toInt(), 8832);
    QVERIFY2(m.captured(2).toInt() > 0, qPrintable(summary));
}

void tst_Cli::sweepAndSensitivity()
{
    const QStringList files = evalArguments(kCase).mid(1); // --calculon M E S
    Result r = run(QStringList{QStringLiteral("sweep")} + files + QStringList{QStringLiteral("--axis"),
                   QStringLiteral("hbm_bandwidth"), QStringLiteral("--factors"), QStringLiteral("1,2")});
    QCOMPARE(r.exitCode, 0);
    QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].startsWith("x,label,ok,total_time"));
    const nlohmann::json expected = test::readJson(test::caseFile(kCase, "output.json"));
    QVERIFY(test::withinTolerance(lines[1].split(',')[3].toDouble(), expected["total_time"].get<double>()));
    r = run(QStringList{QStringLiteral("sensitivity")} + files);
    QCOMPARE(r.exitCode, 0);
    lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 8); // header + 7 parameters
    r = run(QStringList{QStringLiteral("sweep")} + files + QStringList{QStringLiteral("--axis"), QStringLiteral("nonsense")});
    QCOMPARE(r.exitCode, 2);
}

QTEST_GUILESS_MAIN(tst_Cli)
#include "tst_cli.moc"
