// `gapstudio-cli calibrate` as a user runs it: a small fit whose file validate reads back with
// the error calibrate reported, inputs never replaced, the cross-generation filters, the shipped
// calibration reproduced, the bounded fit, and the MoE blocks' host operators costed at their
// documented time, nothing fitted for them (what --host-ops asked for before it was the only way).
#include "cli_runs.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace {

using namespace gapstudio::test::cli;

const QString kMoeRuns = QStringLiteral(PRESETS_DIR "/measurements/megatron-bridge-moe");

/// The "after:" line's mean |error|, as calibrate prints it ("0.1443").
QByteArray afterError(const QByteArray &out)
{
    for (const QByteArray &line : out.split('\n'))
        if (line.startsWith("after: ")) {
            const qsizetype at = line.indexOf("mean_abs_error ") + 15;
            return line.mid(at, line.indexOf(',', at) - at);
        }
    return {};
}

/// Whether `a` and `b` are the same JSON, numbers equal within 1e-9 relative; `where` names the
/// first difference (a JSON pointer).
bool sameUpToRounding(const nlohmann::json &a, const nlohmann::json &b, const std::string &pointer,
                      std::string &where)
{
    if (a.is_number() && b.is_number()) {
        const double x = a.get<double>(), y = b.get<double>();
        if (std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y)))
            return true;
    } else if (a.type() == b.type() && a.is_object() && a.size() == b.size()) {
        for (auto it = a.begin(); it != a.end(); ++it)
            if (!b.contains(it.key())
                || !sameUpToRounding(*it, b.at(it.key()), pointer + "/" + it.key(), where))
                return false;
        return true;
    } else if (a.type() == b.type() && a.is_array() && a.size() == b.size()) {
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!sameUpToRounding(a[i], b[i], pointer + "/" + std::to_string(i), where))
                return false;
        return true;
    } else if (a == b) {
        return true;
    }
    if (where.empty())
        where = pointer.empty() ? "/" : pointer;
    return false;
}

} // namespace

class TestCliCalibrate : public QObject {
    Q_OBJECT

private slots:
    void calibrateNeverReplacesAnInput_data()
    {
        QTest::addColumn<QString>("spelling");
        for (const char *row : { "file", "dot", "dotdot", "link", "inside folder", "start file" })
            QTest::newRow(row) << QString::fromLatin1(row);
    }

    void calibrateNeverReplacesAnInput()
    {
        QFETCH(QString, spelling);
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.path() + QStringLiteral("/runs")));
        const QString run0 = dir.path() + QStringLiteral("/runs/run.json");
        QVERIFY(QFile::copy(measurement("korthikanti2022-selene-a100", "korthikanti2022-megatron-22b_full"),
                            run0));
        const QString start = dir.path() + QStringLiteral("/start.json");
        QVERIFY(QFile::copy(QStringLiteral(PRESETS_DIR "/calibrations/shipped.json"), start));
        QStringList inputs { run0 };
        QString out = run0;
        if (spelling == QLatin1String("dot"))
            out = dir.path() + QStringLiteral("/runs/./run.json");
        else if (spelling == QLatin1String("dotdot"))
            out = dir.path() + QStringLiteral("/runs/../runs/run.json");
        else if (spelling == QLatin1String("link")) {
            out = dir.path() + QStringLiteral("/link.json");
            QVERIFY(QFile::link(run0, out));
        } else if (spelling == QLatin1String("inside folder"))
            inputs = { dir.path() + QStringLiteral("/runs") };
        else if (spelling == QLatin1String("start file"))
            out = start;
        const QByteArray runBefore = fileBytes(run0), startBefore = fileBytes(start);
        const Result r
            = run(QStringList { QStringLiteral("calibrate") } + inputs
                  + QStringList { QStringLiteral("--calibration"), start, QStringLiteral("--out"), out });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("error: --out ") && r.err.contains("refusing to overwrite an input"),
                 r.err.constData());
        QCOMPARE(fileBytes(run0), runBefore);
        QCOMPARE(fileBytes(start), startBefore);
    }

    void crossGenerationByFilters()
    {
        // The cross-generation check as a user runs it: fit without the Blackwell runs, then
        // predict only those with that fit. Which runs are Blackwell is read here from each
        // file's GPU (B200 and GB200 are Blackwell parts by NVIDIA's datasheets).
#if defined(GAPSTUDIO_ASAN_RUNTIME)
        // Eleven fits of some thirty runs: minutes under the sanitizers, where the fold's code
        // runs in tst_real_runs::foldOverTwoFamilies. This runs in the build without them.
        QSKIP("the whole cross-generation fit runs in the build without sanitizers");
#endif
        QSet<QString> blackwell;
        int all = 0;
        QDirIterator files(kMeasurements, { QStringLiteral("*.json") }, QDir::Files,
                           QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString path = files.next();
            const nlohmann::json json = readJson(path);
            ++all;
            const std::string gpu = json["scenario"]["gpu"].get<std::string>();
            if (gpu == "nvidia-b200" || gpu == "nvidia-gb200")
                blackwell.insert(QString::fromStdString(json["id"].get<std::string>()));
        }
        QCOMPARE(blackwell.size(), 11);
        QTemporaryDir dir;
        const QString out = dir.path() + QStringLiteral("/without-blackwell.json");
        // As shipped.json is fitted: from the priors, inside the documented ranges.
        const Result fit = run({ QStringLiteral("calibrate"), kMeasurements, QStringLiteral("--from-priors"),
                                 QStringLiteral("--bounded"), QStringLiteral("--exclude"),
                                 QStringLiteral("gpu_arch=blackwell"), QStringLiteral("--out"), out });
        QCOMPARE(fit.exitCode, 0);
        QVERIFY2(fit.out.contains("before: rows " + QByteArray::number(all - 11) + ","), fit.out.constData());
        // Ampere and Hopper remain, each predicted by a fit without it.
        QVERIFY2(fit.out.contains("leave-one-generation-out ampere: rows 15,"), fit.out.constData());
        QVERIFY2(fit.out.contains("leave-one-generation-out hopper: rows 21,"), fit.out.constData());
        QVERIFY(!fit.out.contains("leave-one-generation-out blackwell"));
        QVERIFY(!readJson(out)["gpus"].contains("blackwell"));

        const Result check
            = run({ QStringLiteral("validate"), kMeasurements, QStringLiteral("--only"),
                    QStringLiteral("gpu_arch=blackwell"), QStringLiteral("--calibration"), out });
        QCOMPARE(check.exitCode, 0);
        QSet<QString> predicted;
        for (const nlohmann::json &row : nlohmann::json::parse(check.out.constData())) {
            QCOMPARE(row["gpu_arch"].get<std::string>(), std::string("blackwell"));
            predicted.insert(QString::fromStdString(row["id"].get<std::string>()));
        }
        QCOMPARE(predicted, blackwell);
        QVERIFY2(check.err.contains("gpu_arch: blackwell, rows: 11,"), check.err.constData());
        qInfo("Blackwell predicted without Blackwell runs: %s", lastLine(check.err).constData());
        // The shipped calibration's fit recorded the same fold (the Validation view shows it).
        const double recorded = readJson(QStringLiteral(
            PRESETS_DIR
            "/calibrations/shipped.json"))["fit"]["leave_one_generation_out_mean_abs_error"]["blackwell"]
                                    .get<double>();
        QVERIFY2(
            lastLine(check.err).contains(", mean_abs_error: " + QByteArray::number(recorded, 'f', 4) + ","),
            lastLine(check.err).constData());
    }

    void shippedCalibrationIsReproducible_data()
    {
        // Every calibration the presets ship: the default, fitted inside the documented ranges,
        // and the same fit without the Blackwell runs (the cross-generation check).
        QTest::addColumn<QString>("id");
        QTest::addColumn<QStringList>("options");
        QTest::newRow("shipped") << QStringLiteral("shipped") << QStringList { QStringLiteral("--bounded") };
        QTest::newRow("without-blackwell")
            << QStringLiteral("without-blackwell")
            << QStringList { QStringLiteral("--bounded"), QStringLiteral("--exclude"),
                             QStringLiteral("gpu_arch=blackwell") };
    }

    void shippedCalibrationIsReproducible()
    {
        // The command a shipped calibration names as its source gives the shipped file: every
        // fitted value, its standard error and the fit's errors (name and source are prose).
#if defined(GAPSTUDIO_ASAN_RUNTIME)
        QSKIP("twelve fits of 47 runs: the build without sanitizers runs this");
#endif
        QFETCH(QString, id);
        QFETCH(QStringList, options);
        const QString file = QStringLiteral("presets/calibrations/%1.json").arg(id);
        nlohmann::json shipped = readJson(QStringLiteral(PRESETS_DIR "/calibrations/%1.json").arg(id));
        const QString command
            = (QStringList { QStringLiteral("gapstudio-cli calibrate presets/measurements --from-priors") }
               + options + QStringList { QStringLiteral("--out"), file })
                  .join(QLatin1Char(' '))
              + QLatin1Char(',');
        QVERIFY2(shipped["source"].get<std::string>().starts_with(command.toStdString()),
                 qPrintable(command));
        QTemporaryDir dir;
        const QString out = dir.path() + QStringLiteral("/calibration.json");
        const Result fit
            = run(QStringList { QStringLiteral("calibrate"), kMeasurements, QStringLiteral("--from-priors") }
                  + options + QStringList { QStringLiteral("--out"), out });
        QCOMPARE(fit.exitCode, 0);
        nlohmann::json again = readJson(out);
        for (nlohmann::json *json : { &shipped, &again }) {
            json->erase("id");
            json->erase("name");
            json->erase("source");
        }
        // Equal up to rounding (glibc picks its exp and log by CPU): a change to the model or the
        // runs moves the fit far more than 1e-9.
        std::string where;
        QVERIFY2(sameUpToRounding(again, shipped, "", where),
                 qPrintable(QStringLiteral("refit %1 with the command in its source (it differs at %2)")
                                .arg(file, QString::fromStdString(where))));
    }

    void boundedFitNamesWhatItHolds()
    {
        // calibrate --bounded keeps every parameter inside the range written beside it, and names
        // the parameters it holds at an end, as the file marks them. The Megatron-LM 2022 runs on
        // A100 want a 16-bit GEMM efficiency above the range's 0.9 (the runs fix its product with
        // the stack's compute efficiency, not the split; A100's maximum achievable matmul FLOPS
        // are 0.87 of its peak), so the bounded fit must hold it at the range's high end.
#if defined(GAPSTUDIO_ASAN_RUNTIME)
        QSKIP("twelve fits of 47 runs: the build without sanitizers runs this");
#endif
        QTemporaryDir dir;
        const QString out = dir.path() + QStringLiteral("/bounded.json");
        const Result fit = run({ QStringLiteral("calibrate"), kMeasurements, QStringLiteral("--from-priors"),
                                 QStringLiteral("--bounded"), QStringLiteral("--out"), out });
        QCOMPARE(fit.exitCode, 0);
        const QByteArray heading = "parameters at or beyond a bound of their documented range:\n";
        const qsizetype from = fit.out.indexOf(heading);
        QVERIFY2(from >= 0, fit.out.constData());
        QSet<QString> named;
        for (const QByteArray &line : fit.out.mid(from + heading.size()).split('\n')) {
            if (!line.startsWith("  "))
                break;
            named.insert(QString::fromUtf8(line.mid(2, line.indexOf(" = ") - 2)));
        }
        QSet<QString> marked;
        const nlohmann::json written = readJson(out);
        for (const nlohmann::json &p : written["fit"]["parameters"]) {
            const QString name = QString::fromStdString(p["name"].get<std::string>());
            QVERIFY2(p.contains("range"), qPrintable(name));
            const double value = p["value"].get<double>();
            QVERIFY2(p["range"][0].get<double>() <= value && value <= p["range"][1].get<double>(),
                     qPrintable(name));
            if (p.value("at_bound", false)) {
                marked.insert(name);
                QCOMPARE(p["standard_error"].get<double>(), 0.0);
            }
        }
        QCOMPARE(named, marked);
        QVERIFY2(named.contains(QStringLiteral("ampere/gemm_efficiency/16-bit")), fit.out.constData());
        // validate fits nothing, so it has nothing to bound.
        const Result validate
            = run({ QStringLiteral("validate"), kMeasurements, QStringLiteral("--bounded") });
        QCOMPARE(validate.exitCode, 2);
        QVERIFY2(validate.err.contains("--bounded"), validate.err.constData());
    }

    void calibrateAndValidateAgree()
    {
        // Three runs of two families: the fit, its uncertainty, the errors before and after and
        // the leave-one-family-out error are printed; the preset it writes gives validate the
        // same error after the fit.
        QTemporaryDir dir;
        QDir().mkpath(dir.path() + QStringLiteral("/runs"));
        for (const auto &[family, id] :
             { std::pair { "korthikanti2022-selene-a100", "korthikanti2022-megatron-22b_full" },
               std::pair { "korthikanti2022-selene-a100", "korthikanti2022-gpt3-175b_seqsel" },
               std::pair { "megascale-megatron-baseline-a100", "megascale-mlm-175b-a100-512gpu" } })
            QVERIFY(QFile::copy(measurement(family, id), dir.path() + QStringLiteral("/runs/")
                                                             + QLatin1String(id) + QStringLiteral(".json")));
        const QString out = dir.path() + QStringLiteral("/mine.json");
        const Result fit = run({ QStringLiteral("calibrate"), dir.path() + QStringLiteral("/runs"),
                                 QStringLiteral("--out"), out });
        QCOMPARE(fit.exitCode, 0);
        QVERIFY(fit.out.contains("parameters (value +/- standard error):"));
        QVERIFY(fit.out.contains("software/megatron-lm-2022/compute_efficiency = "));
        QVERIFY(fit.out.contains(" +/- "));
        QVERIFY(fit.out.contains("before: rows 3"));
        QVERIFY(fit.out.contains("leave-one-family-out: rows 3"));
        const QRegularExpression after(QStringLiteral("after: rows 3, mean_abs_error ([0-9.]+)"));
        const QRegularExpressionMatch m = after.match(QString::fromUtf8(fit.out));
        QVERIFY(m.hasMatch());
        const nlohmann::json preset = readJson(out);
        QCOMPARE(preset["fileType"].get<std::string>(), std::string("gapstudio.calibration"));
        QCOMPARE(preset["id"].get<std::string>(), std::string("mine"));
        QVERIFY(preset["software"].contains("megatron-lm-2023"));
        const Result check = run({ QStringLiteral("validate"), dir.path() + QStringLiteral("/runs"),
                                   QStringLiteral("--calibration"), out });
        QCOMPARE(check.exitCode, 0);
        QVERIFY2(lastLine(check.err).startsWith("rows: 3, mean_abs_error: " + m.captured(1).toUtf8() + ","),
                 lastLine(check.err).constData());
        // --software names the stack the fit is for: its entry is written under that id.
        const QString named = dir.path() + QStringLiteral("/named.json");
        QCOMPARE(
            run({ QStringLiteral("calibrate"), dir.path() + QStringLiteral("/runs"), QStringLiteral("--out"),
                  named, QStringLiteral("--software"), QStringLiteral("my-stack") })
                .exitCode,
            0);
        QVERIFY(readJson(named)["software"].contains("my-stack"));
    }

    void hostOpsCostTheBareOperator()
    {
        QTemporaryDir dir;
        const QString hosted = dir.path() + QStringLiteral("/hosted.json");
        const Result fit = run({ QStringLiteral("calibrate"), kMoeRuns, QStringLiteral("--from-priors"),
                                 QStringLiteral("--host-ops"), QStringLiteral("--out"), hosted });
        QCOMPARE(fit.exitCode, 0);
        // Nothing of the host is fitted: no scale among the parameters, no overhead per MoE
        // block; the file costs each operator at the bare PyTorch operator's documented time
        // (a scale of exactly 1).
        QVERIFY2(!fit.out.contains("host_op_scale"), fit.out.constData());
        QVERIFY2(!fit.out.contains("moe_block_overhead"), fit.out.constData());
        const nlohmann::json written = readJson(hosted);
        QCOMPARE(written["software"]["default"]["host_op_scale"].get<double>(), 1.0);
        for (const auto &[key, entry] : written["software"].items())
            QVERIFY2(!entry.contains("moe_block_overhead_us"), key.c_str());
        // validate reads the file back to the error calibrate reported.
        const Result check
            = run({ QStringLiteral("validate"), kMoeRuns, QStringLiteral("--calibration"), hosted });
        QCOMPARE(check.exitCode, 0);
        const QByteArray error = afterError(fit.out);
        QVERIFY(!error.isEmpty());
        // (its summary lines go to standard error, the rows to standard output)
        QVERIFY2(check.err.contains("\nrows: 8, mean_abs_error: " + error + ","), check.err.constData());

        // --host-ops asked for this before it was the only way: without it, the same fit.
        const QString plain = dir.path() + QStringLiteral("/plain.json");
        const Result same = run({ QStringLiteral("calibrate"), kMoeRuns, QStringLiteral("--from-priors"),
                                  QStringLiteral("--out"), plain });
        QCOMPARE(same.exitCode, 0);
        nlohmann::json again = readJson(plain);
        nlohmann::json first = written;
        for (nlohmann::json *json : { &first, &again }) {
            json->erase("id");
            json->erase("name");
        }
        QVERIFY2(again == first, again.dump().c_str());
    }

    void validateRefusesTheFitsOption()
    {
        const Result r = run({ QStringLiteral("validate"), kMoeRuns, QStringLiteral("--host-ops") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--host-ops"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliCalibrate)
#include "tst_cli_calibrate.moc"
