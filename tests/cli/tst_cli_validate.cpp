// `gapstudio-cli validate` as a user runs it: the output contract, the error contract for bad
// measurement files, options and run filters (file and JSON path, exit 2). calibrate:
// tst_cli_calibrate.
#include "cli_runs.h"

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

using namespace gapstudio::test::cli;

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
};

QTEST_GUILESS_MAIN(tst_CliValidate)
#include "tst_cli_validate.moc"
