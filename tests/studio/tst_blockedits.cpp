// Editable blocks: the Block parameters table edits the design's block in place
// (undoable), "Save as preset" writes a user preset (My blocks) that a fresh library finds, and a
// Hugging Face config.json imports as an LLM the design then trains.
#include "gapstudio/scenario/override_keys.h"
#include "studio/blockactions.h"
#include "studio/blockinspector.h"
#include "studio/parameternames.h"
#include "studio/parameterpanel.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "studio/userpresets.h"

#include <QFileInfo>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {

/// The value shown next to `quantity` in a two-column table.
QString valueOf(const QTableWidget &table, const QString &quantity)
{
    for (int row = 0; row < table.rowCount(); ++row)
        if (table.item(row, 0) && table.item(row, 0)->text() == quantity && table.item(row, 1))
            return table.item(row, 1)->text();
    return QStringLiteral("<no row %1>").arg(quantity);
}

} // namespace

class tst_BlockEdits : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mData; // the user data folder of this test ($XDG_DATA_HOME)

    struct Fixture {
        ScenarioDocument document { loadStudioLibrary() };
        Recalculator recalculator { &document };
        Fixture() { document.resetToExample(studioDefaultScenario()); }
        ResultsPtr run()
        {
            recalculator.recalculateNow();
            return recalculator.latest();
        }
    };

private slots:
    void initTestCase()
    {
        QVERIFY(mData.isValid());
        qputenv("XDG_DATA_HOME", mData.path().toUtf8());
    }

    void inspectorEditsTheBlockInPlace()
    {
        Fixture f;
        const double before = f.run()->analysis->step.total_s;
        BlockInspector inspector;
        inspector.setDocument(&f.document);
        inspector.setResults(f.recalculator.latest());
        inspector.setPart(CanvasScene::Part::Gpu);
        QVERIFY(inspector.isEditable(QStringLiteral("HBM bandwidth")));
        QVERIFY(inspector.editValue(QStringLiteral("HBM bandwidth"), 1000)); // GB/s, as shown
        const scenario::Scenario &s = f.document.scenario();
        QVERIFY(s.gpu.presetId.empty());
        QVERIFY(s.gpu.inlineBlock);
        QVERIFY(QString::fromStdString(s.gpu.inlineBlock->info.name).endsWith(QStringLiteral("(edited)")));
        QCOMPARE(s.gpu.inlineBlock->hbm.bandwidth_Bps, 1000e9);
        const ResultsPtr edited = f.run();
        QCOMPARE(edited->compiled->resolved.gpu.hbm.bandwidth_Bps, 1000e9);
        QVERIFY(edited->analysis->step.total_s > before); // less bandwidth than the preset's

        f.document.undoStack()->undo(); // one undo step, back to the preset
        QCOMPARE(f.document.scenario().gpu.presetId, std::string("future-gpu-tithi2026"));
        QCOMPARE(f.run()->analysis->step.total_s, before);
    }

    // A slider edit (an override of the GPU's HBM bandwidth) changes the block, not its preset:
    // Block parameters say so next to the name and the preset id, and name the edit; undo takes
    // the note away.
    void sliderEditShowsInTheBlockParameters()
    {
        Fixture f;
        ParameterPanel panel(&f.document);
        BlockInspector inspector;
        inspector.setDocument(&f.document);
        inspector.setPart(CanvasScene::Part::Gpu);
        QObject::connect(&f.recalculator, &Recalculator::resultsReady, &panel, &ParameterPanel::setResults);
        QObject::connect(&f.recalculator, &Recalculator::resultsReady, &inspector,
                         &BlockInspector::setResults);
        const QString presetName = QString::fromStdString(f.run()->compiled->resolved.gpu.info.name);
        QCOMPARE(valueOf(inspector, QStringLiteral("Name")), presetName);
        QCOMPARE(valueOf(inspector, QStringLiteral("Preset id")), QStringLiteral("future-gpu-tithi2026"));

        QSlider *slider = panel.slider(scenario::keys::kHbmBandwidth);
        QVERIFY(slider);
        QTest::keyClick(slider, Qt::Key_Left);
        QVERIFY(f.document.scenario().overrides.contains(scenario::keys::kHbmBandwidth));
        f.run();
        QCOMPARE(valueOf(inspector, QStringLiteral("Name")), presetName + QStringLiteral(" (edited)"));
        const QString id = valueOf(inspector, QStringLiteral("Preset id"));
        QVERIFY2(id.startsWith(QStringLiteral("future-gpu-tithi2026, changed by the sliders: ")),
                 qPrintable(id));
        const ParameterWords words = parameterWords(scenario::keys::kHbmBandwidth);
        QVERIFY2(id.contains(words.label) && id.endsWith(words.unit), qPrintable(id));

        f.document.undoStack()->undo();
        f.run();
        QCOMPARE(valueOf(inspector, QStringLiteral("Name")), presetName);
    }

    void saveAsPresetIsAUserBlock()
    {
        Fixture f;
        f.document.setOverride("gpu.hbm_capacity_GiB", 200); // a slider change goes into the preset
        const ResultsPtr before = f.run();
        QString error;
        const std::optional<std::string> id
            = saveBlockAsPreset(&f.document, ScenarioDocument::Slot::Gpu, QStringLiteral("My GPU 2"), &error);
        QVERIFY2(id, qPrintable(error));
        QCOMPARE(*id, std::string("my-gpu-2"));
        QVERIFY(QFileInfo::exists(mData.filePath(QStringLiteral("gapstudio/presets/gpus/my-gpu-2.json"))));
        QVERIFY(userPresetIds().contains({ BlockKind::Gpu, "my-gpu-2" }));
        // The design uses it, without the override (it is in the preset), and computes the same.
        QCOMPARE(f.document.scenario().gpu.presetId, std::string("my-gpu-2"));
        QVERIFY(!f.document.scenario().overrides.contains("gpu.hbm_capacity_GiB"));
        const ResultsPtr after = f.run();
        QCOMPARE(after->compiled->resolved.gpu.hbm.capacity_B, 200.0 * 1024 * 1024 * 1024);
        QCOMPARE(after->analysis->step.total_s, before->analysis->step.total_s);
        // A new session finds it in the library (the user's folder is searched first).
        const scenario::PresetLibrary library = loadStudioLibrary();
        QVERIFY(library.gpus.contains("my-gpu-2"));
        QCOMPARE(QString::fromStdString(library.gpus.at("my-gpu-2").info.name), QStringLiteral("My GPU 2"));
    }

    void importedHuggingFaceModelIsTrained()
    {
        Fixture f;
        QString error;
        const auto imported
            = importModel(&f.document, QStringLiteral(TEST_DATA_DIR "/hf/llama3-70b/config.json"), &error);
        QVERIFY2(imported, qPrintable(error));
        QCOMPARE(imported->id, std::string("hf-llama3-70b"));
        QCOMPARE(f.document.scenario().llm.presetId, imported->id);
        const auto r = f.document.resolved();
        QVERIFY(r);
        // tests/data/hf/llama3-70b/config.json: hidden_size 8192, 80 layers, 64 attention heads.
        QCOMPARE(r->llm.hidden, qint64(8192));
        QCOMPARE(r->llm.numBlocks, qint64(80));
        QCOMPARE(r->llm.attnHeads, qint64(64));
        QVERIFY(QFileInfo::exists(imported->path));
    }
};

QTEST_MAIN(tst_BlockEdits)
#include "tst_blockedits.moc"
