// Saved designs are self-contained: a design that uses one of the user's own blocks (My blocks)
// saves that block into the file, so `gapstudio-cli eval` of the file on another machine (an
// empty user folder) computes the same sample rate; blocks GapStudio ships stay by id. Opening a file
// whose written-in block shares its id with a different local block says which one is used.
#include "run_process.h"
#include "studio/blockactions.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {

nlohmann::json readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return nlohmann::json::parse(file.readAll().toStdString());
}

} // namespace

class tst_SelfContained : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mData;      // this machine's user data folder ($XDG_DATA_HOME)
    QTemporaryDir mElsewhere; // another machine's: no user blocks
    QTemporaryDir mFiles;

private slots:
    void initTestCase()
    {
        QVERIFY(mData.isValid() && mElsewhere.isValid() && mFiles.isValid());
        qputenv("XDG_DATA_HOME", mData.path().toUtf8());
    }

    void savedFileRunsWithoutTheUsersBlocks()
    {
        ScenarioDocument document { loadStudioLibrary() };
        Recalculator recalculator { &document };
        document.resetToExample(studioDefaultScenario());
        // The user's path: a slider change, then Block parameters > Save as preset (My blocks).
        document.setOverride("gpu.hbm_capacity_GiB", 200);
        QString error;
        const std::optional<std::string> id = saveBlockAsPreset(&document, ScenarioDocument::Slot::Gpu,
                                                                QStringLiteral("Test Accel X"), &error);
        QVERIFY2(id, qPrintable(error));
        QCOMPARE(document.scenario().gpu.presetId, *id);
        recalculator.recalculateNow();
        const double rate = recalculator.latest()->evaluation.stats.sample_rate;
        const QString path = mFiles.filePath(QStringLiteral("design.gapstudio.json"));
        QVERIFY2(document.saveAs(path, &error), qPrintable(error));

        // The user's block is in the file; the shipped blocks stay by id.
        const nlohmann::json saved = readJson(path);
        QVERIFY2(saved.at("gpu").is_object(), saved.at("gpu").dump().c_str());
        QCOMPARE(saved.at("gpu").at("id").get<std::string>(), *id);
        QVERIFY2(saved.at("llm").is_string(), saved.at("llm").dump().c_str());
        QVERIFY2(saved.at("topology").is_string(), saved.at("topology").dump().c_str());

        // Another machine: no user blocks. The file evaluates, to the same sample rate.
        QProcessEnvironment elsewhere;
        elsewhere.insert(QStringLiteral("XDG_DATA_HOME"), mElsewhere.path());
        elsewhere.insert(QStringLiteral("HOME"), mElsewhere.path());
        const test::ProcessResult eval = test::runProcess(
            QStringLiteral(GAPSTUDIO_CLI), { QStringLiteral("eval"), path }, {}, 600000, elsewhere);
        QVERIFY2(eval.exitCode == 0, eval.err.constData());
        const nlohmann::json out = nlohmann::json::parse(eval.out.toStdString());
        QCOMPARE(out.at("sample_rate").get<double>(), rate);
    }

    void openingSaysWhichBlockIsUsed()
    {
        // The file of the test above holds "Test Accel X" with 200 GiB; this machine's block of
        // that id now has 100 GiB.
        const QString path = mFiles.filePath(QStringLiteral("design.gapstudio.json"));
        QVERIFY(QFile::exists(path));
        {
            ScenarioDocument document { loadStudioLibrary() };
            document.resetToExample(studioDefaultScenario());
            document.setOverride("gpu.hbm_capacity_GiB", 100);
            QString error;
            QVERIFY2(saveBlockAsPreset(&document, ScenarioDocument::Slot::Gpu, QStringLiteral("Test Accel X"),
                                       &error),
                     qPrintable(error));
        }
        ScenarioDocument document { loadStudioLibrary() };
        Recalculator recalculator { &document };
        QSignalSpy notices(&document, &ScenarioDocument::notice);
        QString error;
        QVERIFY2(document.open(path, &error), qPrintable(error));
        QCOMPARE(notices.count(), 1);
        const QString notice = notices.front().front().toString();
        QVERIFY2(notice.contains(QStringLiteral("test-accel-x"))
                     && notice.contains(QStringLiteral("file's is used")),
                 qPrintable(notice));
        recalculator.recalculateNow();
        QCOMPARE(recalculator.latest()->compiled->resolved.gpu.hbm.capacity_B, 200.0 * 1024 * 1024 * 1024);

        // A file of shipped blocks only says nothing.
        QSignalSpy quiet(&document, &ScenarioDocument::notice);
        QVERIFY2(document.open(QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json"), &error),
                 qPrintable(error));
        QCOMPARE(quiet.count(), 0);
    }
};

QTEST_MAIN(tst_SelfContained)
#include "tst_selfcontained.moc"
