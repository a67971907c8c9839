// "Calibrate to my runs": three shipped measurements fitted in the background write a
// calibration preset that loads and that the design then names (one undoable edit); Cancel
// stops a fit and keeps nothing; a CSV error names its line and column. The user presets folder
// is a temporary XDG_DATA_HOME. Small sets only: a fit runs the model thousands of times.
#include "shippedresults.h"

#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "validation/calibratedialog.h"
#include "validation/errortable.h"
#include "validation/usercalibration.h"
#include "validation/validationchart.h"
#include "validation/validationpanel.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/preset_locations.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <variant>

using namespace gapstudio;
using views::CalibrateDialog;

namespace {

/// A fit of three runs takes seconds in a release build, minutes under the sanitizers.
constexpr int kFitTimeoutMs = 20 * 60 * 1000;

QString measurement(const char *family, const char *id)
{
    return QStringLiteral(PRESETS_DIR "/measurements/%1/%2.json")
        .arg(QLatin1String(family), QLatin1String(id));
}

/// Three runs of one publication (one family: no leave-one-family-out fits).
QStringList oneFamily()
{
    const char *family = "nemo-24.07-h100-fp8-dense";
    return { measurement(family, "nemo2407-h100-llama2-13b-16gpu"),
             measurement(family, "nemo2407-h100-nemotron-8b-64gpu"),
             measurement(family, "nemo2407-h100-nemotron-22b-64gpu") };
}

/// Three runs of three families: a fit, then three fits each without one family.
QStringList threeFamilies()
{
    return { measurement("korthikanti2022-selene-a100", "korthikanti2022-megatron-22b_full"),
             measurement("nemo-24.07-h100-fp8-dense", "nemo2407-h100-llama2-13b-16gpu"),
             measurement("torchtitan-llama3.1-h100", "tt-llama31-8b-h100-128gpu-fsdp-bf16") };
}

QStringList savedCalibrations()
{
    return QDir(views::userCalibrationsDirectory()).entryList({ QStringLiteral("*.json") }, QDir::Files);
}

struct Studio {
    views::ScenarioDocument document { views::loadStudioLibrary() };
    views::Recalculator recalculator { &document };
    views::ValidationPanel panel { &document };

    Studio() { document.reset(test::shippedScenario(test::kDenseScenario)); }
};

} // namespace

class tst_CalibrateDialog : public QObject {
    Q_OBJECT

    QTemporaryDir mDataHome;

private slots:
    void initTestCase()
    {
        QVERIFY(mDataHome.isValid());
        qputenv("XDG_DATA_HOME", mDataHome.path().toLocal8Bit());
        QVERIFY(views::userCalibrationsDirectory().startsWith(mDataHome.path()));
    }

    void fitSaveAndUse()
    {
        Studio studio;
        CalibrateDialog *dialog = studio.panel.calibrateDialog();
        QVERIFY2(dialog->addRunFiles(oneFamily()), qPrintable(dialog->loadError()));
        QCOMPARE(dialog->runs().size(), std::size_t(3));
        dialog->setCalibrationName(QStringLiteral("Test cluster"));
        QSignalSpy finished(dialog, &CalibrateDialog::fitFinished);
        dialog->startFit();
        QVERIFY(dialog->isFitting());
        QVERIFY(finished.wait(kFitTimeoutMs));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(dialog->fit().has_value());
        const scenario::CalibrationFit &fit = *dialog->fit();
        QCOMPARE(fit.after.size(), std::size_t(3));

        // Before and after, as summarize() counts them; one family: no left-out columns.
        const views::ErrorTable *table = dialog->comparison();
        QCOMPARE(table->columnCount(), 2 + 2 * 2);
        const int all = table->rowOf(QString());
        const auto value = [&](int column) {
            return table->item(all, column)->data(views::ErrorTable::kValueRole).toDouble();
        };
        QCOMPARE(value(2), scenario::summarize(fit.before).all.meanAbsError);
        QCOMPARE(value(4), scenario::summarize(fit.after).all.meanAbsError);
        QCOMPARE(value(5), scenario::summarize(fit.after).all.maxAbsError);

        const QString previous = QString::fromStdString(studio.document.scenario().calibration.presetId);
        QString error;
        const QString id = dialog->saveAndUse(&error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        QCOMPARE(id, QStringLiteral("test-cluster"));

        // A preset file in the user's folder that loads, as the fit, under its new id.
        const QString path = dialog->savedPath();
        QCOMPARE(QFileInfo(path).absolutePath(),
                 QFileInfo(views::userCalibrationsDirectory()).absoluteFilePath());
        const io::PresetFile preset = io::loadPresetFile(path.toStdString());
        QVERIFY(std::holds_alternative<scenario::CalibrationSet>(preset));
        const auto &saved = std::get<scenario::CalibrationSet>(preset);
        QCOMPARE(saved.info.id, id.toStdString());
        QCOMPARE(saved.info.name, std::string("Test cluster"));
        QVERIFY(saved.gpus == fit.calibration.gpus);
        // Overheads are written in microseconds: the round trip x * 1e6 / 1e6 may move the last bit.
        QCOMPARE(saved.software.size(), fit.calibration.software.size());
        for (const auto &[key, fitted] : fit.calibration.software) {
            const scenario::SoftwareCalibration &back = saved.software.at(key);
            for (const auto member : { &scenario::SoftwareCalibration::computeEfficiency,
                                       &scenario::SoftwareCalibration::blockOverhead_s,
                                       &scenario::SoftwareCalibration::overlapEfficiency,
                                       &scenario::SoftwareCalibration::moeBlockOverhead_s }) {
                QCOMPARE((back.*member).has_value(), (fitted.*member).has_value());
                if (fitted.*member)
                    QVERIFY2(std::fabs(*(back.*member) - *(fitted.*member))
                                 <= 1e-12 * std::fabs(*(fitted.*member)),
                             key.c_str());
            }
        }
        // A later session finds it along the preset search order.
        QVERIFY(io::loadPresets().library.calibrations.count(id.toStdString()) == 1);

        // The design names it and runs with it.
        QCOMPARE(studio.document.scenario().calibration.presetId, id.toStdString());
        studio.recalculator.recalculateNow();
        const views::ResultsPtr results = studio.recalculator.latest();
        QVERIFY(results->compiled);
        QVERIFY2(QString::fromStdString(results->compiled->calibrationNote).contains(id),
                 results->compiled->calibrationNote.c_str());
        // One undoable edit.
        studio.document.undoStack()->undo();
        QCOMPARE(QString::fromStdString(studio.document.scenario().calibration.presetId), previous);
        studio.document.undoStack()->redo();
        QCOMPARE(studio.document.scenario().calibration.presetId, id.toStdString());

        // The Validation view now shows the user's runs with the new calibration.
        QCOMPARE(studio.panel.rows().size(), std::size_t(3));
        for (const scenario::ValidationRow &row : studio.panel.rows())
            QVERIFY2(QString::fromStdString(row.calibrationNote).contains(id), row.calibrationNote.c_str());

        // Saving again never overwrites: a new id.
        const QString second = dialog->saveAndUse(&error);
        QCOMPARE(second, QStringLiteral("test-cluster-2"));
    }

    void statusNamesParametersBeyondTheirRanges()
    {
        // Two A100 runs as if they had taken half their published time: no GEMM runs at 1.8
        // times its measured efficiency, so the fit puts A100's 16-bit GEMM efficiency beyond
        // the range's 0.9 (A100's maximum achievable matmul FLOPS are 0.87 of its peak), and the
        // status says so.
        QTemporaryDir dir;
        QStringList files;
        for (const char *id : { "korthikanti2022-gpt3-175b_full", "korthikanti2022-megatron-1t_full" }) {
            QFile in(measurement("korthikanti2022-selene-a100", id));
            QVERIFY(in.open(QIODevice::ReadOnly));
            nlohmann::json run = nlohmann::json::parse(in.readAll().toStdString());
            run["measured_iteration_time_s"] = run["measured_iteration_time_s"].get<double>() / 2;
            files << dir.filePath(QString::fromLatin1(id) + QStringLiteral(".json"));
            QFile out(files.back());
            QVERIFY(out.open(QIODevice::WriteOnly));
            const QByteArray text = QByteArray::fromStdString(run.dump(4));
            QCOMPARE(out.write(text), text.size());
        }
        Studio studio;
        CalibrateDialog *dialog = studio.panel.calibrateDialog();
        QVERIFY2(dialog->addRunFiles(files), qPrintable(dialog->loadError()));
        QSignalSpy finished(dialog, &CalibrateDialog::fitFinished);
        dialog->startFit();
        QVERIFY(finished.wait(kFitTimeoutMs));
        QCOMPARE(finished.first().first().toBool(), true);
        const scenario::CalibrationFit &fit = *dialog->fit();
        qInfo("%s", qPrintable(dialog->statusText()));
        int atBound = 0;
        for (const scenario::FittedParameter &p : fit.calibration.fit->parameters) {
            // Named in the status exactly when the fit marks it.
            QCOMPARE(dialog->statusText().contains(QString::fromStdString(p.name) + QStringLiteral(" = ")),
                     p.atBound);
            atBound += p.atBound ? 1 : 0;
        }
        QVERIFY(atBound > 0);
        QVERIFY2(dialog->statusText().contains(QStringLiteral("ampere/gemm_efficiency/16-bit = ")),
                 qPrintable(dialog->statusText()));
    }

    void cancelStopsTheFitAndKeepsNothing()
    {
        Studio studio;
        CalibrateDialog *dialog = studio.panel.calibrateDialog();
        QVERIFY2(dialog->addRunFiles(threeFamilies()), qPrintable(dialog->loadError()));
        const QStringList before = savedCalibrations();
        QSignalSpy finished(dialog, &CalibrateDialog::fitFinished);
        dialog->startFit();
        dialog->cancelFit();
        QVERIFY(finished.wait(kFitTimeoutMs));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(!dialog->isFitting());
        QVERIFY(!dialog->fit().has_value());
        QVERIFY2(dialog->statusText().contains(QStringLiteral("cancelled")),
                 qPrintable(dialog->statusText()));
        QString error;
        QVERIFY(dialog->saveAndUse(&error).isEmpty());
        QCOMPARE(savedCalibrations(), before);
        QCOMPARE(studio.document.scenario().calibration.presetId, std::string());
    }

    void aRunIdTwiceIsAnErrorAndAFolderIsSearched()
    {
        Studio studio;
        CalibrateDialog *dialog = studio.panel.calibrateDialog();
        const QString run = oneFamily().front();
        QVERIFY2(dialog->addRunFiles({ run }), qPrintable(dialog->loadError()));
        // The same run again (e.g. its folder): refused as a whole, naming the id and both files.
        QVERIFY(!dialog->addRunFiles({ QFileInfo(run).absolutePath() }));
        QVERIFY2(dialog->loadError().contains(
                     QStringLiteral("\"nemo2407-h100-llama2-13b-16gpu\" is already used")),
                 qPrintable(dialog->loadError()));
        QCOMPARE(dialog->runs().size(), std::size_t(1));
        // A folder holds every measurement file below it: the three runs of the family.
        dialog->clearRuns();
        QVERIFY2(dialog->addRunFiles({ QFileInfo(run).absolutePath() }), qPrintable(dialog->loadError()));
        QCOMPARE(dialog->runs().size(), static_cast<std::size_t>(oneFamily().size()));
    }

    void csvErrorNamesLineAndColumn()
    {
        Studio studio;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("runs.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("scenario,tensor_par,measured_iteration_time_s\ncurrent,8,3.5\ncurrent,eight,4\n");
        file.close();
        CalibrateDialog *dialog = studio.panel.calibrateDialog();
        QVERIFY(!dialog->addRunFiles({ path }));
        QVERIFY2(dialog->loadError().contains(QStringLiteral("line 3, column 2 (tensor_par)")),
                 qPrintable(dialog->loadError()));
        QVERIFY(dialog->runs().empty()); // nothing of a file with an error

        // The same file fixed: a run of the current design with its layout.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("scenario,tensor_par,measured_iteration_time_s\ncurrent,8,3.5\n");
        file.close();
        QVERIFY2(dialog->addRunFiles({ path }), qPrintable(dialog->loadError()));
        QCOMPARE(dialog->runs().size(), std::size_t(1));
        QCOMPARE(dialog->runs()[0].scenario.overrides.at("layout.tensor_par"), 8.0);
        QVERIFY(dialog->loadError().isEmpty());
    }
};

QTEST_MAIN(tst_CalibrateDialog)
#include "tst_calibratedialog.moc"
