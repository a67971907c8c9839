// `gapstudio-cli calibrate --host-ops` as a user runs it: the MoE blocks' host operators are
// costed and their scale fitted, in place of a fitted overhead per MoE block, and the file it
// writes says so and validates to the error calibrate reported.
#include "json_files.h"
#include "run_process.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace {

/// calibrate fits every run and fold: allow it ten minutes.
gapstudio::test::ProcessResult run(const QStringList &arguments)
{
    return gapstudio::test::runProcess(QStringLiteral(GAPSTUDIO_CLI), arguments, {}, 600000);
}

const QString kMoeRuns = QStringLiteral(PRESETS_DIR "/measurements/megatron-bridge-moe");

/// The value calibrate prints for `name` ("  name = value +/- se"), or -1.
double printed(const QByteArray &out, const QByteArray &name)
{
    for (const QByteArray &line : out.split('\n'))
        if (line.startsWith("  " + name + " = "))
            return line.mid(name.size() + 5).split(' ').first().toDouble();
    return -1;
}

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

} // namespace

class TestCliCalibrate : public QObject {
    Q_OBJECT

private slots:
    void hostOpsFitTheHostsScale()
    {
        QTemporaryDir dir;
        const QString hosted = dir.path() + QStringLiteral("/hosted.json");
        const gapstudio::test::ProcessResult fit
            = run({ QStringLiteral("calibrate"), kMoeRuns, QStringLiteral("--from-priors"),
                    QStringLiteral("--host-ops"), QStringLiteral("--out"), hosted });
        QCOMPARE(fit.exitCode, 0);
        // One scale for every stack, inside its documented range (0.5 to 3 bare PyTorch
        // operators); no fitted overhead per MoE block.
        const double scale = printed(fit.out, "software/default/host_op_scale");
        QVERIFY2(scale >= 0.5 && scale <= 3, fit.out.constData());
        QVERIFY2(!fit.out.contains("moe_block_overhead"), fit.out.constData());
        const nlohmann::json written = gapstudio::test::readJsonFile(hosted);
        const double stored = written["software"]["default"]["host_op_scale"].get<double>();
        QVERIFY2(std::abs(stored - scale) <= 1e-3 * scale,
                 qPrintable(QString::number(stored))); // printed to 4 digits
        for (const auto &[key, entry] : written["software"].items())
            QVERIFY2(!entry.contains("moe_block_overhead_us"), key.c_str());
        // validate reads the file back to the error calibrate reported.
        const gapstudio::test::ProcessResult check
            = run({ QStringLiteral("validate"), kMoeRuns, QStringLiteral("--calibration"), hosted });
        QCOMPARE(check.exitCode, 0);
        const QByteArray error = afterError(fit.out);
        QVERIFY(!error.isEmpty());
        // (its summary lines go to standard error, the rows to standard output)
        QVERIFY2(check.err.contains("\nrows: 8, mean_abs_error: " + error + ","), check.err.constData());

        // Without the option the fit keeps its overhead per MoE block and costs no host.
        const QString plain = dir.path() + QStringLiteral("/plain.json");
        const gapstudio::test::ProcessResult old
            = run({ QStringLiteral("calibrate"), kMoeRuns, QStringLiteral("--from-priors"),
                    QStringLiteral("--out"), plain });
        QCOMPARE(old.exitCode, 0);
        QVERIFY(printed(old.out, "software/default/moe_block_overhead") > 0);
        QVERIFY(!gapstudio::test::readJsonFile(plain)["software"]["default"].contains("host_op_scale"));
    }

    void validateRefusesTheFitsOption()
    {
        const gapstudio::test::ProcessResult r
            = run({ QStringLiteral("validate"), kMoeRuns, QStringLiteral("--host-ops") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--host-ops"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliCalibrate)
#include "tst_cli_calibrate.moc"
