// The studio's document: undo/redo, slider merging, live recompute, open/save, infeasible layouts.
#include "full_disk.h"

#include "studio/autosaver.h"
#include "studio/diagnosticslist.h"
#include "studio/layoutpanel.h"
#include "studio/parameterpanel.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"

#include "gapstudio/scenario/override_keys.h"

#include <QFile>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {
QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}
} // namespace

class tst_StudioDocument : public QObject {
    Q_OBJECT

private:
    struct Fixture {
        ScenarioDocument document { loadStudioLibrary() }; // the shipped presets
        Recalculator recalculator{&document};
        Fixture() { document.reset(studioDefaultScenario()); } // the GPT-4-class MoE on FullFlat
    };

private slots:
    void defaultScenarioIsFeasible()
    {
        Fixture f;
        f.recalculator.recalculateNow();
        const ResultsPtr results = f.recalculator.latest();
        QVERIFY(results->hasStats());
        QVERIFY(results->diagnostics.empty());
        QVERIFY(results->analysis->step.total_s > 0);
    }

    void sliderMoveEmitsResults()
    {
        Fixture f;
        ParameterPanel panel(&f.document);
        QObject::connect(&f.recalculator, &Recalculator::resultsReady, &panel, &ParameterPanel::setResults);
        f.recalculator.recalculateNow();
        const double before = f.recalculator.latest()->analysis->step.total_s;
        QSignalSpy spy(&f.recalculator, &Recalculator::resultsReady);
        QSlider *slider = panel.slider(scenario::keys::kScaleOutBandwidth);
        QVERIFY(slider);
        for (int i = 0; i < 10; ++i)
            QTest::keyClick(slider, Qt::Key_Left);
        QTRY_VERIFY(spy.count() >= 1);
        QTRY_VERIFY(!f.recalculator.latest()->scenario.overrides.empty());
        QVERIFY(f.recalculator.latest()->analysis->step.total_s > before); // less bandwidth, slower step
        QVERIFY(f.document.scenario().overrides.contains(scenario::keys::kScaleOutBandwidth));
    }

    void fiveSliderStepsAreOneUndoStep()
    {
        Fixture f;
        ParameterPanel panel(&f.document);
        const std::string initial = scenarioToJsonText(f.document.scenario());
        QSlider *slider = panel.slider(scenario::keys::kHbmBandwidth);
        for (int i = 0; i < 5; ++i)
            QTest::keyClick(slider, Qt::Key_Right);
        QCOMPARE(f.document.undoStack()->count(), 1);
        f.document.undoStack()->undo();
        QCOMPARE(scenarioToJsonText(f.document.scenario()), initial);
    }

    void dragBackToStartIsNoStep()
    {
        Fixture f;
        f.document.setOverride(scenario::keys::kComputeScale, 2);
        f.document.setOverride(scenario::keys::kComputeScale, 3);
        f.document.setOverride(scenario::keys::kComputeScale, std::nullopt); // back where the drag began
        QCOMPARE(f.document.undoStack()->count(), 0);
        QVERIFY(f.document.scenario().overrides.empty());
    }

    void undoRedoSequenceRestoresExactJson()
    {
        Fixture f;
        std::vector<std::string> states{scenarioToJsonText(f.document.scenario())};
        const auto step = [&](auto &&edit) {
            edit();
            states.push_back(scenarioToJsonText(f.document.scenario()));
        };
        step([&] { QVERIFY(f.document.applyPreset(BlockKind::Gpu, "nvidia-b200")); });
        step([&] { f.document.setOverride(scenario::keys::kScaleUpBandwidth, 900); });
        step([&] { f.document.editLayout("tensor_par", [](model::Execution &e) { e.tensorPar = 4; }); });
        step([&] { f.document.setGpuCount(2048); });
        step([&] { QVERIFY(f.document.applyPreset(BlockKind::Interconnect, "nvlink5", true)); });
        step([&] { QVERIFY(f.document.applyPreset(BlockKind::Llm, "megatron-1t")); });
        QCOMPARE(f.document.undoStack()->count(), 6);
        for (int i = 6; i > 0; --i) {
            f.document.undoStack()->undo();
            QCOMPARE(scenarioToJsonText(f.document.scenario()), states[static_cast<std::size_t>(i - 1)]);
        }
        for (int i = 1; i <= 6; ++i) {
            f.document.undoStack()->redo();
            QCOMPARE(scenarioToJsonText(f.document.scenario()), states[static_cast<std::size_t>(i)]);
        }
    }

    void openSaveRoundTrip()
    {
        Fixture f;
        f.document.setOverride(scenario::keys::kHbmCapacity, 141);
        f.document.editLayout("microbatch_size", [](model::Execution &e) { e.microbatchSize = 2; });
        QVERIFY(f.document.isModified());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("design.gapstudio.json"));
        QString error;
        QVERIFY2(f.document.saveAs(path, &error), qPrintable(error));
        QVERIFY(!f.document.isModified());
        ScenarioDocument reopened(loadStudioLibrary());
        QVERIFY2(reopened.open(path, &error), qPrintable(error));
        QCOMPARE(scenarioToJsonText(reopened.scenario()), scenarioToJsonText(f.document.scenario()));
        QCOMPARE(reopened.fileName(), path);
        QVERIFY(!reopened.isModified());
        QVERIFY(!reopened.open(dir.filePath(QStringLiteral("missing.json")), &error));
        QVERIFY(!error.isEmpty());
    }

    void infeasibleLayoutShowsDiagnosticAndAppKeepsWorking()
    {
        Fixture f;
        LayoutPanel layout(&f.document);
        DiagnosticsList diagnostics;
        QObject::connect(&f.recalculator, &Recalculator::resultsReady, &layout, &LayoutPanel::setResults);
        QObject::connect(&f.recalculator, &Recalculator::resultsReady, &diagnostics, &DiagnosticsList::setResults);
        f.recalculator.recalculateNow();
        QCOMPARE(diagnostics.problemCount(), 0);

        auto *tp = qobject_cast<QSpinBox *>(layout.editor("tensor_par"));
        QVERIFY(tp);
        tp->setValue(7); // 7 divides neither the heads nor the GPU count
        QTRY_VERIFY(!f.recalculator.latest()->hasStats());
        QVERIFY(diagnostics.problemCount() > 0);
        QString all;
        for (const model::Diagnostic &d : f.recalculator.latest()->diagnostics)
            all += QString::fromStdString(d.field + ": " + d.message + "; ");
        QVERIFY2(!layout.problem("tensor_par").isEmpty(), qPrintable(all));

        f.document.undoStack()->undo(); // the app keeps working
        QTRY_VERIFY(f.recalculator.latest()->hasStats());
        QCOMPARE(diagnostics.problemCount(), 0);
        QVERIFY(layout.problem("tensor_par").isEmpty());
        QCOMPARE(tp->value(), 8);
    }

    void throttleCoalescesBursts()
    {
        Fixture f;
        QSignalSpy spy(&f.recalculator, &Recalculator::resultsReady);
        for (int i = 0; i < 20; ++i)
            f.document.setOverride(scenario::keys::kScaleOutBandwidth, 40 + i);
        QTRY_COMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<ResultsPtr>()->scenario.overrides.at(scenario::keys::kScaleOutBandwidth), 59.0);
    }

    // "saving a scenario on a full disk leaves a 0-byte file, deletes the autosave and
    // reports success".
    void saveOnFullDiskKeepsTheFileAndTheAutosave()
    {
        QStandardPaths::setTestModeEnabled(true);
        Fixture f;
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("design.gapstudio.json"));
        QString error;
        QVERIFY2(f.document.saveAs(file, &error), qPrintable(error));
        const QByteArray original = contents(file);
        AutoSaver saver(&f.document);
        f.document.setOverride("gpu.hbm_bandwidth_GBps", 1234);
        QVERIFY(saver.saveNow());
        QVERIFY(QFile::exists(saver.path()));
        {
            test::FullDisk full(64);
            QVERIFY(!f.document.saveAs(file, &error));
        }
        QVERIFY2(error.contains(QStringLiteral("File too large")), qPrintable(error)); // the OS reason
        QCOMPARE(contents(file), original);
        QVERIFY(f.document.isModified());
        QVERIFY(QFile::exists(saver.path())); // the work is still safe
        saver.discard();
    }

    // "one autosave slot per user: a second instance overwrites the first's recovery
    // copy and deletes it on save".
    void everyDocumentHasItsOwnAutosave()
    {
        QStandardPaths::setTestModeEnabled(true);
        Fixture a, b;
        AutoSaver first(&a.document), second(&b.document);
        QVERIFY(first.path() != second.path());
        a.document.setOverride("gpu.hbm_bandwidth_GBps", 1000);
        b.document.setOverride("gpu.hbm_bandwidth_GBps", 2000);
        QVERIFY(first.saveNow() && second.saveNow());
        QTemporaryDir dir;
        QString error;
        QVERIFY2(a.document.saveAs(dir.filePath(QStringLiteral("a.gapstudio.json")), &error),
                 qPrintable(error));
        QVERIFY(!QFile::exists(first.path())); // saved: its autosave goes
        QVERIFY(QFile::exists(second.path())); // the other's stays
        QCOMPARE(readScenarioFile(second.path(), &error)->overrides.at("gpu.hbm_bandwidth_GBps"), 2000.0);
        second.discard();
    }

    void leftoversOfEndedSessionsAreOffered()
    {
        QTemporaryDir folder;
        QTemporaryDir files;
        QString error;
        // Two sessions end without saving (a crash: the autosave stays, the lock goes).
        for (double bandwidth : { 1000.0, 2000.0 }) {
            Fixture ended;
            QVERIFY(ended.document.saveAs(files.filePath(QStringLiteral("d%1.gapstudio.json").arg(bandwidth)),
                                          &error));
            auto *saver = new AutoSaver(&ended.document, nullptr, folder.path());
            ended.document.setOverride("gpu.hbm_bandwidth_GBps", bandwidth);
            QVERIFY(saver->saveNow());
            delete saver;
        }
        // A session still running: its autosave is not a leftover.
        Fixture running;
        AutoSaver runningSaver(&running.document, nullptr, folder.path());
        running.document.setOverride("gpu.hbm_bandwidth_GBps", 3000);
        QVERIFY(runningSaver.saveNow());

        Fixture next;
        AutoSaver saver(&next.document, nullptr, folder.path());
        const QList<Recovery> recoveries = saver.recoveries();
        QCOMPARE(recoveries.size(), 2);
        const Recovery &pick = recoveries.front();
        QVERIFY(pick.documentFile.startsWith(files.path()));
        QVERIFY2(saver.restore(pick, &error), qPrintable(error));
        QVERIFY(next.document.isModified());
        QCOMPARE(next.document.fileName(), pick.documentFile); // back on its file, not "Untitled"
        QVERIFY(!QFile::exists(pick.path));                    // adopted: ours replaces it
        QVERIFY(QFile::exists(saver.path()));
        QCOMPARE(saver.recoveries().size(), 1);
        QVERIFY(QFile::exists(runningSaver.path()));
        AutoSaver::discardRecovery(saver.recoveries().front());
        QCOMPARE(saver.recoveries().size(), 0);
    }
};

QTEST_MAIN(tst_StudioDocument)
#include "tst_studiodocument.moc"
