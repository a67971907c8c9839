// `gapstudio-cli validate` and `calibrate` as a user runs them: the output contract, the error
// contract for bad measurement files (file and JSON path, exit 2), and a small fit whose file
// validate reads back with the error calibrate reported.
#include "json_files.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Result run(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(GAPSTUDIO_CLI), arguments);
    process.waitForFinished(600000);
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

const QString kMeasurements = QStringLiteral(PRESETS_DIR "/measurements");

QString measurement(const char *family, const char *id)
{
    return kMeasurements + QLatin1Char('/') + QLatin1String(family) + QLatin1Char('/') + QLatin1String(id) +
           QLatin1String(".json");
}

QByteArray lastLine(const QByteArray &text)
{
    const QList<QByteArray> lines = text.trimmed().split('\n');
    return lines.isEmpty() ? QByteArray() : lines.last();
}

/// Writes `json` (a measurement file with one change) into `dir`.
QString writeVariant(const QTemporaryDir &dir, const char *name, const nlohmann::json &json)
{
    return gapstudio::test::writeJsonFile(dir.path() + QLatin1Char('/') + QLatin1String(name), json);
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

nlohmann::json readJson(const QString &path)
{
    return gapstudio::test::readJsonFile(path);
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

class tst_CliValidate : public QObject {
    Q_OBJECT

private slots:
    void validateContract()
    {
        const Result r = run({ QStringLiteral("validate"), kMeasurements });
        QCOMPARE(r.exitCode, 0);
        const nlohmann::json rows = nlohmann::json::parse(r.out.constData());
        QVERIFY(rows.is_array());
        QVERIFY(rows.size() >= 47);
        double sum = 0;
        double largest = 0;
        for (const nlohmann::json &row : rows) {
            for (const char *key : { "id", "family", "measured_s", "predicted_s", "error" })
                QVERIFY2(row.contains(key), key);
            // error = measured / predicted - 1, recomputed here from the two times printed.
            const double error = row["measured_s"].get<double>() / row["predicted_s"].get<double>() - 1;
            QVERIFY(std::fabs(error - row["error"].get<double>()) <= 1e-12 * std::max(1.0, std::fabs(error)));
            sum += std::fabs(error);
            largest = std::max(largest, std::fabs(error));
        }
        // The last stderr line summarises the same rows.
        const QRegularExpression summary(
            QStringLiteral("^rows: (\\d+), mean_abs_error: ([0-9.]+), max_abs_error: ([0-9.]+)$"));
        const QRegularExpressionMatch m = summary.match(QString::fromUtf8(lastLine(r.err)));
        QVERIFY2(m.hasMatch(), lastLine(r.err).constData());
        QCOMPARE(m.captured(1).toULongLong(), static_cast<qulonglong>(rows.size()));
        QVERIFY(std::fabs(m.captured(2).toDouble() - sum / static_cast<double>(rows.size())) < 1e-4);
        QVERIFY(std::fabs(m.captured(3).toDouble() - largest) < 1e-4);
    }

    void badMeasurementFiles_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing family") << "family" << "/" << "missing key \"family\"";
        QTest::newRow("negative time") << "measured_iteration_time_s" << "/measured_iteration_time_s"
                                       << "expected a number in (0, 1000000000], got -3";
        QTest::newRow("bad layout value") << "scenario/layout/tensor_par" << "/scenario/layout/tensor_par"
                                          << "expected an integer";
        QTest::newRow("unknown scenario key") << "scenario/gpu_cout" << "/scenario/gpu_cout" << "unknown key";
        QTest::newRow("wrong file type") << "fileType" << "/fileType" << "expected \"gapstudio.measurement\"";
        // A run naming a missing preset is malformed (as eval of its scenario), not infeasible.
        QTest::newRow("missing GPU preset") << "scenario/gpu" << "/scenario/gpu"
                                            << "no GPU preset with id \"no-such-gpu\"";
    }
    void badMeasurementFiles()
    {
        QFETCH(QString, key);
        QFETCH(QString, pointer);
        QFETCH(QString, message);
        nlohmann::json json = readJson(measurement("megascale-megatron-baseline-a100", "megascale-mlm-175b-a100-512gpu"));
        if (key == "family")
            json.erase("family");
        else if (key == "measured_iteration_time_s")
            json[key.toStdString()] = -3;
        else if (key == "scenario/layout/tensor_par")
            json["scenario"]["layout"]["tensor_par"] = "eight";
        else if (key == "scenario/gpu_cout")
            json["scenario"]["gpu_cout"] = 512;
        else if (key == "scenario/gpu")
            json["scenario"]["gpu"] = "no-such-gpu";
        else
            json["fileType"] = "gapstudio.scenario";
        QTemporaryDir dir;
        const QString path = writeVariant(dir, "bad.json", json);
        for (const char *command : { "validate", "calibrate" }) {
            QStringList args{ QLatin1String(command), path };
            if (QLatin1String(command) == QLatin1String("calibrate"))
                args << QStringLiteral("--out") << dir.path() + QStringLiteral("/out.json");
            const Result r = run(args);
            QCOMPARE(r.exitCode, 2);
            QVERIFY(r.out.isEmpty());
            const QByteArray expected = "error: " + path.toUtf8() + ": " + pointer.toUtf8() + ": ";
            QVERIFY2(r.err.startsWith(expected), r.err.constData());
            QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        }
    }

    /// Options and calibration files out of their contract: exit 2, "error: ..." naming the option,
    /// or the file, the JSON pointer, the value and the range.
    void badOptionsAndCalibrations_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown --gpu") << "--gpu" << "error: --gpu: no GPU preset or measured run's GPU with id 'no-such-gpu'";
        QTest::newRow("--software path") << "--software" << "error: --software expects a preset id";
        QTest::newRow("empty --calibration") << "--calibration" << "error: --calibration needs a calibration file, got ''";
        QTest::newRow("efficiency 1e-7") << "hbm_efficiency" << "/gpus/ampere/hbm_efficiency: expected a number in [1e-06, 1], got 1e-07";
        QTest::newRow("overlap 0") << "overlap_efficiency" << "/software/default/overlap_efficiency: expected a number in [1e-06, 1], got 0";
        QTest::newRow("unknown key") << "unknown key" << "/gpus/ampere/hbm_efficency: unknown key";
    }
    void badOptionsAndCalibrations()
    {
        QFETCH(QString, variant);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString run0 = measurement("megascale-megatron-baseline-a100", "megascale-mlm-175b-a100-512gpu");
        const QString out = dir.path() + QStringLiteral("/out.json");
        QStringList args { QStringLiteral("calibrate"), run0, QStringLiteral("--out"), out };
        if (variant == QLatin1String("--gpu"))
            args << variant << QStringLiteral("no-such-gpu");
        else if (variant == QLatin1String("--software"))
            args << variant << QStringLiteral("../../etc/passwd");
        else if (variant == QLatin1String("--calibration"))
            args = QStringList { QStringLiteral("validate"), run0, variant, QString() };
        else {
            nlohmann::json calibration = readJson(QStringLiteral(PRESETS_DIR "/calibrations/shipped.json"));
            if (variant == QLatin1String("hbm_efficiency"))
                calibration["gpus"]["ampere"]["hbm_efficiency"] = 1e-7;
            else if (variant == QLatin1String("overlap_efficiency"))
                calibration["software"]["default"]["overlap_efficiency"] = 0;
            else
                calibration["gpus"]["ampere"]["hbm_efficency"] = 0.8;
            const QString file = writeVariant(dir, "calibration.json", calibration);
            args = QStringList { QStringLiteral("validate"), run0, QStringLiteral("--calibration"), file };
            message = file + QStringLiteral(": ") + message;
        }
        const Result r = run(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    void usage()
    {
        QCOMPARE(run({ QStringLiteral("validate") }).exitCode, 2);
        QCOMPARE(run({ QStringLiteral("calibrate"), kMeasurements }).exitCode, 2); // no --out
        QCOMPARE(run({ QStringLiteral("validate"), kMeasurements, QStringLiteral("--frobnicate") }).exitCode, 2);
    }

    // validate on a run that cannot run said "infeasible: <id>: ..." without "error:" or the
    // file: the contract's exit-1 line names the file and the run.
    void runThatCannotRunIsAnErrorLine()
    {
        nlohmann::json json
            = readJson(measurement("megascale-megatron-baseline-a100", "megascale-mlm-175b-a100-512gpu"));
        // TP 64 in a scale-up domain of 8 GPUs: the layout does not fit the network.
        json["scenario"]["overrides"]["layout.tensor_par"] = 64;
        json["scenario"]["overrides"]["layout.data_par"] = 1;
        json["scenario"]["layout"]["optimizer_sharding"] = false; // sharding needs data_par > 1
        QTemporaryDir dir;
        const QString path = writeVariant(dir, "tp64.json", json);
        const Result r = run({ QStringLiteral("validate"), path });
        QCOMPARE(r.exitCode, 1);
        const QByteArray expected
            = "error: " + path.toUtf8() + ": run megascale-mlm-175b-a100-512gpu is infeasible: ";
        QVERIFY2(r.err.startsWith(expected), r.err.constData());
    }

    // "calibrate --out may name one of its inputs ... and replaces it, exit 0": every spelling of
    // an input (the file as given, ./ and ../ forms, a symbolic link to it, a run found inside an
    // input folder, the --calibration start file) is a usage error, and nothing is written.
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
        QVERIFY(QFile::copy(measurement("korthikanti2022-selene-a100", "korthikanti2022-megatron-22b_full"), run0));
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
        const Result r = run(QStringList { QStringLiteral("calibrate") } + inputs + QStringList { QStringLiteral("--calibration"), start, QStringLiteral("--out"), out });
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
        const Result fit = run({ QStringLiteral("calibrate"), kMeasurements, QStringLiteral("--from-priors"),
                                 QStringLiteral("--exclude"), QStringLiteral("gpu_arch=blackwell"),
                                 QStringLiteral("--out"), out });
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

    void shippedCalibrationIsReproducible()
    {
        // The command the shipped calibration names as its source gives the shipped file: every
        // fitted value, its standard error and the fit's errors (name and source are prose).
#if defined(GAPSTUDIO_ASAN_RUNTIME)
        QSKIP("twelve fits of 47 runs: the build without sanitizers runs this");
#endif
        const QString path = QStringLiteral(PRESETS_DIR "/calibrations/shipped.json");
        nlohmann::json shipped = readJson(path);
        QVERIFY(shipped["source"].get<std::string>().starts_with(
            "gapstudio-cli calibrate presets/measurements --from-priors --out "
            "presets/calibrations/shipped.json"));
        QTemporaryDir dir;
        const QString out = dir.path() + QStringLiteral("/shipped.json");
        const Result fit = run({ QStringLiteral("calibrate"), kMeasurements, QStringLiteral("--from-priors"),
                                 QStringLiteral("--out"), out });
        QCOMPARE(fit.exitCode, 0);
        nlohmann::json again = readJson(out);
        for (nlohmann::json *json : { &shipped, &again }) {
            json->erase("name");
            json->erase("source");
        }
        // Equal up to rounding (glibc picks its exp and log by CPU): a change to the model or the
        // runs moves the fit far more than 1e-9.
        std::string where;
        QVERIFY2(sameUpToRounding(again, shipped, "", where),
                 qPrintable(QStringLiteral("refit presets/calibrations/shipped.json with the command in its "
                                           "source (it differs at %1)")
                                .arg(QString::fromStdString(where))));
    }

    void boundedFitNamesWhatItHolds()
    {
        // calibrate --bounded keeps every parameter inside the range written beside it, and names
        // the parameters it holds at an end, as the file marks them. The Blackwell runs want an
        // HBM efficiency of about 0.3 (the unbounded shipped fit), half of what memory-bound
        // kernels reach on any measured GPU (0.80-0.89: DeepGEMM on H800, a copy on A800), so the
        // bounded fit must hold it at the range's low end.
#if defined(GAPSTUDIO_ASAN_RUNTIME)
        QSKIP("twelve fits of 47 runs: the build without sanitizers runs this");
#endif
        const double shippedBlackwellHbm = readJson(QStringLiteral(
            PRESETS_DIR "/calibrations/shipped.json"))["gpus"]["blackwell"]["hbm_efficiency"]
                                               .get<double>();
        QVERIFY2(shippedBlackwellHbm < 0.5, qPrintable(QString::number(shippedBlackwellHbm)));
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
        QVERIFY2(named.contains(QStringLiteral("blackwell/hbm_efficiency")), fit.out.constData());
        // validate fits nothing, so it has nothing to bound.
        const Result validate
            = run({ QStringLiteral("validate"), kMeasurements, QStringLiteral("--bounded") });
        QCOMPARE(validate.exitCode, 2);
        QVERIFY2(validate.err.contains("--bounded"), validate.err.constData());
    }

    void badRunFilters_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("misspelt value")
            << QStringList { QStringLiteral("--exclude"), QStringLiteral("gpu_arch=blakwell") }
            << "error: --exclude gpu_arch=blakwell matches none of the 47 runs; their "
               "gpu_arch values: ampere, blackwell, hopper";
        QTest::newRow("unknown key")
            << QStringList { QStringLiteral("--only"), QStringLiteral("arch=hopper") }
            << "error: --only: unknown key 'arch' in 'arch=hopper': expected one of family, "
               "gpu, gpu_arch, software";
        QTest::newRow("no value") << QStringList { QStringLiteral("--only"), QStringLiteral("gpu_arch") }
                                  << "error: --only: expected KEY=VALUE";
        QTest::newRow("nothing left")
            << QStringList { QStringLiteral("--only"),    QStringLiteral("gpu_arch=hopper"),
                             QStringLiteral("--exclude"), QStringLiteral("gpu=nvidia-h100-sxm-80gb"),
                             QStringLiteral("--exclude"), QStringLiteral("gpu=nvidia-h100-sxm-96gb-hbm2e") }
            << "error: the filters leave none of the 47 runs";
    }
    void badRunFilters()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Result r = run(QStringList { QStringLiteral("validate"), kMeasurements } + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith(message.toUtf8()), r.err.constData());
    }

    void calibrateAndValidateAgree()
    {
        // Three runs of two families: the fit, its uncertainty, the errors before and after and
        // the leave-one-family-out error are printed; the preset it writes gives validate the
        // same error after the fit.
        QTemporaryDir dir;
        QDir().mkpath(dir.path() + QStringLiteral("/runs"));
        for (const auto &[family, id] :
             { std::pair{ "korthikanti2022-selene-a100", "korthikanti2022-megatron-22b_full" },
               std::pair{ "korthikanti2022-selene-a100", "korthikanti2022-gpt3-175b_seqsel" },
               std::pair{ "megascale-megatron-baseline-a100", "megascale-mlm-175b-a100-512gpu" } })
            QVERIFY(QFile::copy(measurement(family, id), dir.path() + QStringLiteral("/runs/") + QLatin1String(id) +
                                                             QStringLiteral(".json")));
        const QString out = dir.path() + QStringLiteral("/mine.json");
        const Result fit = run({ QStringLiteral("calibrate"), dir.path() + QStringLiteral("/runs"), QStringLiteral("--out"),
                                 out });
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
        QCOMPARE(run({ QStringLiteral("calibrate"), dir.path() + QStringLiteral("/runs"), QStringLiteral("--out"), named,
                       QStringLiteral("--software"), QStringLiteral("my-stack") })
                     .exitCode,
                 0);
        QVERIFY(readJson(named)["software"].contains("my-stack"));
    }
};

QTEST_GUILESS_MAIN(tst_CliValidate)
#include "tst_cli_validate.moc"
