// `gapstudio-cli grid` and gapstudio-grid-mpi as a user runs them: the order of the points, each
// point equal to `eval` of the scenario with the point's overrides written into the file, shards
// that concatenate to the whole grid, the best layout never worse than the scenario's own, the
// error contract for bad arguments, and the MPI runner printing the one-process output.
#include "json_files.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include <nlohmann/json.hpp>

#include <vector>

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// Runs `program`; `mpi` prepares the environment for mpiexec.
Result runProgram(const QString &program, const QStringList &arguments, bool mpi = false)
{
    QProcess process;
    if (mpi) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // CI containers run as root; Open MPI's mpiexec refuses that unless told twice.
        env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
        env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
        // Open MPI keeps its own allocations to the end: the sanitizer build checks the ranks
        // for memory errors but not for Open MPI's leaks.
        if (env.contains(QStringLiteral("ASAN_OPTIONS")))
            env.insert(QStringLiteral("ASAN_OPTIONS"),
                       env.value(QStringLiteral("ASAN_OPTIONS")) + QStringLiteral(":detect_leaks=0"));
        process.setProcessEnvironment(env);
    }
    process.start(program, arguments);
    process.waitForFinished(600000);
    return { process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError() };
}

Result run(const QStringList &arguments)
{
    return runProgram(QStringLiteral(GAPSTUDIO_CLI), arguments);
}

const QString kPresets = QStringLiteral(PRESETS_DIR);
const QString kScenario = kPresets + QStringLiteral("/scenarios/gpt3-175b-4096-a100.gapstudio.json");

/// grid on kScenario with the presets of the source tree, one search thread per point.
QStringList gridArguments(const QStringList &more)
{
    return QStringList { QStringLiteral("grid"),      kScenario,
                         QStringLiteral("--presets"), kPresets,
                         QStringLiteral("--threads"), QStringLiteral("1") }
           + more;
}

std::vector<nlohmann::json> jsonLines(const QByteArray &text)
{
    std::vector<nlohmann::json> lines;
    for (const QByteArray &line : text.split('\n'))
        if (!line.isEmpty())
            lines.push_back(nlohmann::json::parse(line.toStdString()));
    return lines;
}

} // namespace

class tst_CliGrid : public QObject {
    Q_OBJECT

private slots:
    /// The first --vary varies slowest; each point is the scenario with its overrides, as `eval`
    /// computes it from a file that carries the same overrides.
    void pointsAreTheScenarioWithTheirOverrides()
    {
        const Result r = run(
            gridArguments({ QStringLiteral("--vary"), QStringLiteral("gpu.hbm_bandwidth_GBps=1000,3000"),
                            QStringLiteral("--vary"), QStringLiteral("scale_out.bandwidth_GBps=12.5,50") }));
        QCOMPARE(r.exitCode, 0);
        const std::vector<nlohmann::json> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), std::size_t { 4 });
        const double hbm[] = { 1000, 1000, 3000, 3000 };
        const double scaleOut[] = { 12.5, 50, 12.5, 50 };
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const nlohmann::json &line = lines[i];
            QCOMPARE(line.at("point").get<std::size_t>(), i);
            QCOMPARE(line.at("overrides").at("gpu.hbm_bandwidth_GBps").get<double>(), hbm[i]);
            QCOMPARE(line.at("overrides").at("scale_out.bandwidth_GBps").get<double>(), scaleOut[i]);
            QCOMPARE(line.at("status").get<std::string>(), std::string("ok"));
            QCOMPARE(line.at("layout").at("num_procs").get<int>(), 4096);

            nlohmann::json scenario = gapstudio::test::readJsonFile(kScenario);
            scenario["overrides"] = line.at("overrides");
            const QString path = gapstudio::test::writeJsonFile(
                dir.filePath(QStringLiteral("point%1.gapstudio.json").arg(i)), scenario);
            const Result eval = run({ QStringLiteral("eval"), path, QStringLiteral("--presets"), kPresets });
            QCOMPARE(eval.exitCode, 0);
            const nlohmann::json stats = nlohmann::json::parse(eval.out.toStdString());
            for (const char *key : { "total_time", "sample_rate", "total_efficiency", "bubble_time",
                                     "dp_comm_exposed_time", "proc_mem_tier1_cap_req" })
                QCOMPARE(line.at("results").at(key).get<double>(), stats.at(key).get<double>());
        }
        // More memory bandwidth never slows a step down (same layout, same fabric).
        QVERIFY(lines[2]["results"]["total_time"].get<double>()
                < lines[0]["results"]["total_time"].get<double>());
    }

    /// Parts K/N printed one after the other are the whole grid, also for uneven parts.
    void shardsConcatenateToTheGrid()
    {
        const QStringList vary { QStringLiteral("--vary"), QStringLiteral("gpu_count=1024,2048,4096"),
                                 QStringLiteral("--vary"),
                                 QStringLiteral("scale_up.bandwidth_GBps=150,300,600") };
        const Result whole = run(gridArguments(vary));
        QCOMPARE(whole.exitCode, 0);
        QCOMPARE(whole.out.count('\n'), 9);
        QByteArray parts;
        for (int k = 1; k <= 4; ++k) {
            const Result part = run(gridArguments(
                vary + QStringList { QStringLiteral("--shard"), QStringLiteral("%1/4").arg(k) }));
            QCOMPARE(part.exitCode, 0);
            parts += part.out;
        }
        QCOMPARE(parts, whole.out);
        // The layout's GPU count follows gpu_count: the points 0..2 have 1024 GPUs, whose layout
        // (the scenario's, 4096 GPUs) cannot be evaluated.
        const std::vector<nlohmann::json> lines = jsonLines(whole.out);
        QCOMPARE(lines[0]["status"].get<std::string>(), std::string("malformed"));
        QVERIFY(lines[0]["message"].get<std::string>().find("num_procs") != std::string::npos);
        QVERIFY(!lines[0].contains("results"));
        QCOMPARE(lines[8]["status"].get<std::string>(), std::string("ok"));
    }

    /// --best-layout: at the scenario's GPU count never worse than the scenario's own layout;
    /// at another GPU count a layout of exactly that many GPUs.
    void bestLayoutIsNeverWorse()
    {
        const QStringList vary { QStringLiteral("--vary"), QStringLiteral("gpu_count=512,4096") };
        const Result own = run(gridArguments(vary));
        const Result best = run(gridArguments(vary + QStringList { QStringLiteral("--best-layout") }));
        QCOMPARE(own.exitCode, 0);
        QCOMPARE(best.exitCode, 0);
        const std::vector<nlohmann::json> ownLines = jsonLines(own.out);
        const std::vector<nlohmann::json> bestLines = jsonLines(best.out);
        QCOMPARE(bestLines.size(), std::size_t { 2 });
        for (const nlohmann::json &line : bestLines) {
            QCOMPARE(line["status"].get<std::string>(), std::string("ok"));
            const nlohmann::json &layout = line["layout"];
            const auto gpus = line["overrides"]["gpu_count"].get<std::int64_t>();
            QCOMPARE(layout["num_procs"].get<std::int64_t>(), gpus);
            QCOMPARE(layout["tensor_par"].get<std::int64_t>() * layout["pipeline_par"].get<std::int64_t>()
                         * layout["data_par"].get<std::int64_t>(),
                     gpus);
        }
        QCOMPARE(ownLines[0]["status"].get<std::string>(), std::string("malformed"));
        QCOMPARE(ownLines[1]["status"].get<std::string>(), std::string("ok"));
        QVERIFY(bestLines[1]["results"]["sample_rate"].get<double>()
                >= ownLines[1]["results"]["sample_rate"].get<double>());
    }

    void badArguments_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown key") << gridArguments(
            { QStringLiteral("--vary"), QStringLiteral("gpu.colour=1") })
                                     << QStringLiteral("unknown key 'gpu.colour'");
        QTest::newRow("out of range")
            << gridArguments({ QStringLiteral("--vary"), QStringLiteral("gpu_count=0,8") })
            << QStringLiteral("--vary gpu_count: expected a whole number in [1, 9007199254740992], got \"0\"");
        QTest::newRow("fraction") << gridArguments(
            { QStringLiteral("--vary"), QStringLiteral("gpu_count=8.5") })
                                  << QStringLiteral("got \"8.5\"");
        // Values beyond the key's range or beyond a double's exact whole numbers (2^53): refused, not
        // wrapped to a negative count nor rounded to a neighbour.
        QTest::newRow("2^64 GPUs") << gridArguments(
            { QStringLiteral("--vary"), QStringLiteral("gpu_count=18446744073709551616") })
                                   << QStringLiteral("--vary gpu_count: expected a whole number in [1, "
                                                     "9007199254740992], got \"18446744073709551616\"");
        // 2^64 - 1 fits a 64-bit count but rounds to 2^64 as a double (its check must not convert
        // 2^64 back to 64 bits: undefined behaviour).
        QTest::newRow("2^64 - 1 GPUs") << gridArguments(
            { QStringLiteral("--vary"), QStringLiteral("gpu_count=18446744073709551615") })
                                       << QStringLiteral("got \"18446744073709551615\"");
        QTest::newRow("2^53 + 1 GPUs") << gridArguments(
            { QStringLiteral("--vary"), QStringLiteral("gpu_count=9007199254740993") })
                                       << QStringLiteral("got \"9007199254740993\"");
        QTest::newRow("2^64 TP") << gridArguments(
            { QStringLiteral("--vary"), QStringLiteral("layout.tensor_par=18446744073709551616") })
                                 << QStringLiteral("--vary layout.tensor_par: expected a whole number in [1, ");
        QTest::newRow("1e20 DP") << gridArguments({ QStringLiteral("--vary"), QStringLiteral("layout.data_par=1e20") })
                                 << QStringLiteral("got \"1e20\"");
        QTest::newRow("1e20 sequence") << gridArguments(
            { QStringLiteral("--vary"), QStringLiteral("llm.seq_size=1e20") })
                                       << QStringLiteral("--vary llm.seq_size: expected a whole number in [1, ");
        QTest::newRow("no values") << gridArguments(
            { QStringLiteral("--vary"), QStringLiteral("gpu_count=") })
                                   << QStringLiteral("needs at least one value");
        QTest::newRow("no vary") << gridArguments({}) << QStringLiteral("at least one --vary");
        QTest::newRow("twice") << gridArguments({ QStringLiteral("--vary"), QStringLiteral("gpu_count=8"),
                                                  QStringLiteral("--vary"), QStringLiteral("gpu_count=16") })
                               << QStringLiteral("given twice");
        QTest::newRow("shard") << gridArguments({ QStringLiteral("--vary"), QStringLiteral("gpu_count=8"),
                                                  QStringLiteral("--shard"), QStringLiteral("5/4") })
                               << QStringLiteral("--shard K expects a whole number in [1, 4]");
        QTest::newRow("unknown option") << gridArguments(
            { QStringLiteral("--vary"), QStringLiteral("gpu_count=8"), QStringLiteral("--exhaustive") })
                                        << QStringLiteral("unknown option '--exhaustive' for grid");
    }

    /// Usage errors: exit 2, nothing on stdout, the reason on stderr.
    /// Every point that runs carries its goodput under failures and its effective token rate;
    /// more GPUs mean more interruptions, so the goodput falls with the GPU count.
    void goodputAtEveryPoint()
    {
        const QStringList vary { QStringLiteral("--vary"), QStringLiteral("gpu_count=1024,4096"),
                                 QStringLiteral("--best-layout") };
        const Result r = run(gridArguments(vary));
        QCOMPARE(r.exitCode, 0);
        const std::vector<nlohmann::json> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), std::size_t(2));
        for (const nlohmann::json &line : lines) {
            const nlohmann::json &results = line["results"];
            const double goodput = results["goodput"].get<double>();
            QVERIFY(goodput > 0 && goodput < 1);
            const double effective = results["effective_tokens_per_second"].get<double>();
            QVERIFY(std::fabs(effective / (results["tokens_per_second"].get<double>() * goodput) - 1) < 1e-12);
        }
        QVERIFY(lines[1]["results"]["goodput"].get<double>() < lines[0]["results"]["goodput"].get<double>());
    }

    void badArguments()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Result r = run(arguments);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }

    void missingScenarioFile()
    {
        const Result r = run({ QStringLiteral("grid"), QStringLiteral("/nonexistent/x.gapstudio.json"),
                               QStringLiteral("--vary"), QStringLiteral("gpu_count=8") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("/nonexistent/x.gapstudio.json"), r.err.constData());
    }

    /// mpiexec -np 2 gapstudio-grid-mpi prints byte for byte what one process prints, with and
    /// without --best-layout and for a shard.
    void mpiMatchesOneProcess_data()
    {
        QTest::addColumn<QStringList>("more");
        QTest::newRow("grid") << QStringList { QStringLiteral("--vary"),
                                               QStringLiteral("gpu_count=1024,4096"),
                                               QStringLiteral("--vary"),
                                               QStringLiteral("scale_out.bandwidth_GBps=12.5,25,50") };
        QTest::newRow("shard") << QStringList {
            QStringLiteral("--vary"), QStringLiteral("gpu.hbm_bandwidth_GBps=1000,1500,2000,2500,3000"),
            QStringLiteral("--shard"), QStringLiteral("2/2")
        };
        // 7 x 6 = 42 points: more than one round of 2 ranks x 16 points (grid_mpi.cpp kPerRank).
        QTest::newRow("two rounds") << QStringList {
            QStringLiteral("--vary"), QStringLiteral("gpu.hbm_bandwidth_GBps=1000,1250,1500,1750,2000,2500,3000"),
            QStringLiteral("--vary"), QStringLiteral("scale_out.bandwidth_GBps=12.5,25,50,100,200,400")
        };
        QTest::newRow("best layout") << QStringList { QStringLiteral("--vary"),
                                                      QStringLiteral("gpu_count=256,512,1024"),
                                                      QStringLiteral("--best-layout") };
    }

    void mpiMatchesOneProcess()
    {
#ifndef GAPSTUDIO_GRID_MPI
        QSKIP("built without MPI: gapstudio-grid-mpi is not built");
#else
        QFETCH(QStringList, more);
        const Result one = run(gridArguments(more));
        QCOMPARE(one.exitCode, 0);
        QVERIFY(!one.out.isEmpty());
        QStringList mpi { QStringLiteral("--oversubscribe"), QStringLiteral("-np"), QStringLiteral("2"),
                          QStringLiteral(GAPSTUDIO_GRID_MPI) };
        mpi += gridArguments(more).mid(1); // without the command name
        const Result many = runProgram(QStringLiteral(MPIEXEC), mpi, true);
        QVERIFY2(many.exitCode == 0, many.err.constData());
        QCOMPARE(many.out, one.out);
        QVERIFY2(many.err.contains("ranks: 2"), many.err.constData());
#endif
    }
};

QTEST_GUILESS_MAIN(tst_CliGrid)
#include "tst_cli_grid.moc"
