// Published runs kept out of the calibration (tests/data/unfitted): the same Qwen3-30B-A3B layout
// on 16 H100 measured with token drop, whose expert inputs are padded to a fixed capacity, and
// dropless, whose all-to-all dispatcher copies each MoE layer's token counts to the host and
// waits for them. Prints each run's prediction under the shipped calibration and the one that
// costs the MoE blocks' host operators, and checks how much slower the model finds dropless
// against the measured ratio. The runs are not in presets/measurements: the model does not yet
// reproduce the dropless one, and a calibration fitted to it would hide that in its constants.
#include "gapstudio/io/measurement_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/validation.h"

#include <QTest>

#include <cmath>
#include <string>

using namespace gapstudio;

namespace {

const char *const kTokenDrop = "mb2509-h100-qwen3-30b-a3b-16gpu-tokendrop";
const char *const kDropless = "mb2511-h100-qwen3-30b-a3b-16gpu-fp8cs";

const scenario::ValidationRow &rowOf(const std::vector<scenario::ValidationRow> &rows, const std::string &id)
{
    for (const scenario::ValidationRow &row : rows)
        if (row.id == id)
            return row;
    throw std::runtime_error("no run " + id);
}

/// The two calibrations each check runs under: the shipped one, and the one fitted without the
/// Blackwell runs (these are Hopper runs, so the two differ only by what the fit saw).
void calibrations()
{
    QTest::addColumn<QString>("calibration");
    QTest::newRow("shipped") << QStringLiteral("shipped");
    QTest::newRow("without-blackwell") << QStringLiteral("without-blackwell");
}

} // namespace

class tst_UnfittedRuns : public QObject {
    Q_OBJECT

private:
    scenario::PresetLibrary mLibrary;
    std::vector<io::Measurement> mRuns;

    std::vector<scenario::ValidationRow> validated(const QString &calibration) const
    {
        return scenario::validateMeasurements(mRuns, mLibrary, &mLibrary.calibrations.at(calibration.toStdString()));
    }

private slots:
    void initTestCase()
    {
        mLibrary = io::loadPresetLibrary(PRESETS_DIR);
        mRuns = io::loadMeasurements({ TEST_DATA_DIR "/unfitted" });
        QCOMPARE(mRuns.size(), std::size_t(2));
    }

    void everyRunEvaluatesAndFits_data() { calibrations(); }
    void everyRunEvaluatesAndFits()
    {
        // Both ran: each has a prediction, in its GPU's memory.
        QFETCH(QString, calibration);
        for (const scenario::ValidationRow &row : validated(calibration)) {
            QVERIFY2(row.status == scenario::RunStatus::Ok, (row.id + ": " + row.cause).c_str());
            qInfo("%-16s %-44s measured %6.2f s, predicted %6.2f s, error %+5.1f %%", qPrintable(calibration),
                  row.id.c_str(), row.measured_s, *row.predicted_s, 100 * *row.error);
        }
    }

    void droplessCostsWhatItMeasured_data() { calibrations(); }
    void droplessCostsWhatItMeasured()
    {
        // Measured, dropless takes 1.99 times as long as token drop on the same layout (10494
        // against 5275 tokens/s per GPU). The containers differ too (25.09 and 25.11, the latter
        // with EP all-to-all overlap), which the two designs carry. The model's ratio should be
        // within half of the measured slowdown. Neither calibration comes near: the shipped one
        // adds its fitted per-block sync (1.12x), and the host-operator one its forward passes'
        // operators, which the EP all-to-all overlap outweighs (0.96x). The time dropless
        // loses is about 12 s of 25, some 16 ms per layer and microbatch on each pipeline stage.
        QFETCH(QString, calibration);
        const std::vector<scenario::ValidationRow> rows = validated(calibration);
        const scenario::ValidationRow &dropped = rowOf(rows, kTokenDrop);
        const scenario::ValidationRow &dropless = rowOf(rows, kDropless);
        const double measured = dropless.measured_s / dropped.measured_s;
        const double predicted = *dropless.predicted_s / *dropped.predicted_s;
        qInfo("%-16s dropless over token drop: measured %.3fx, predicted %.3fx", qPrintable(calibration), measured,
              predicted);
        QVERIFY(measured > 1.9 && measured < 2.1); // the files carry the published rates
        QEXPECT_FAIL("", "the dropless dispatcher's host synchronisation is not yet priced (see above)", Continue);
        QVERIFY2(std::abs(predicted - measured) <= 0.5 * (measured - 1),
                 qPrintable(QStringLiteral("measured %1x, predicted %2x").arg(measured).arg(predicted)));
    }
};

QTEST_GUILESS_MAIN(tst_UnfittedRuns)
#include "tst_unfitted_runs.moc"
