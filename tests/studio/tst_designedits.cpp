// Editing a design in the studio: the layout helpers keep the GPU count filled (DP and
// expert DP follow the GPU count, TP and PP), errors are in words under the field to change, and
// the design's name follows edits ("Custom: ...") until the user names it.
#include "studio/layoutpanel.h"
#include "studio/layoutrules.h"
#include "studio/parameternames.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QLabel>
#include <QSpinBox>
#include <QTest>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {
QString allDiagnostics(const ScenarioResults &results)
{
    QString all;
    for (const model::Diagnostic &d : results.diagnostics)
        all += QString::fromStdString(d.field + ": " + d.message + "; ");
    return all;
}

/// The user opens `combo`'s list and clicks the entry whose data is `data`.
bool clickEntry(QComboBox *combo, const QString &data)
{
    const int index = combo->findData(data);
    if (index < 0)
        return false;
    combo->showPopup();
    QAbstractItemView *list = combo->view();
    if (!QTest::qWaitForWindowExposed(list->window()))
        return false;
    const QRect item = list->visualRect(list->model()->index(index, 0));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, item.center());
    return true;
}
} // namespace

class tst_DesignEdits : public QObject {
    Q_OBJECT

private:
    struct Fixture {
        ScenarioDocument document { loadStudioLibrary() }; // the shipped presets
        Recalculator recalculator { &document };
        // The default: GPT-4-class MoE on 4096 GPUs, layout moe18-4096-fullflat-base
        // (TP 8, PP 4, DP 128, EP 16, ES 8, expert DP 8, global batch 2048, microbatch 1).
        Fixture() { document.resetToExample(studioDefaultScenario()); }
        ResultsPtr run()
        {
            recalculator.recalculateNow();
            return recalculator.latest();
        }
    };
    /// The default design with its Layout panel on screen, showing every result.
    struct PanelFixture : Fixture {
        LayoutPanel layout { &document };
        PanelFixture()
        {
            QObject::connect(&recalculator, &Recalculator::resultsReady, &layout, &LayoutPanel::setResults);
            layout.show();
        }
    };

private slots:
    // The GPU-count slider rescaled DP but not expert DP, so every MoE
    // scenario became invalid at any other GPU count.
    void gpuCountChangeKeepsMoeDefaultValid_data()
    {
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("dp");
        QTest::addColumn<qint64>("expertDp");
        // DP = GPUs / (TP 8 x PP 4 = 32); expert DP = GPUs / (EP 16 x ES 8 x PP 4 = 512).
        QTest::newRow("1024") << qint64(1024) << qint64(32) << qint64(2);
        QTest::newRow("2048") << qint64(2048) << qint64(64) << qint64(4);
        QTest::newRow("8192") << qint64(8192) << qint64(256) << qint64(16);
    }
    void gpuCountChangeKeepsMoeDefaultValid()
    {
        QFETCH(qint64, gpus);
        QFETCH(qint64, dp);
        QFETCH(qint64, expertDp);
        Fixture f;
        f.document.setGpuCount(gpus);
        const ResultsPtr results = f.run();
        QVERIFY2(results->hasStats(), qPrintable(allDiagnostics(*results)));
        QVERIFY(results->compiled);
        QCOMPARE(results->compiled->execution.numProcs, gpus);
        QCOMPARE(results->compiled->execution.dataPar, dp);
        QCOMPARE(results->compiled->execution.dataParExp, expertDp);
    }

    // Editing TP or PP rebalances DP (and, for PP, expert DP) to keep the 4096 GPUs filled.
    void tensorAndPipelineEditsRebalance()
    {
        Fixture f;
        f.document.editLayout("tensor_par", [](model::Execution &e) { e.tensorPar = 4; });
        ResultsPtr results = f.run();
        QVERIFY2(results->hasStats(), qPrintable(allDiagnostics(*results)));
        QCOMPARE(results->compiled->execution.dataPar, qint64(256));  // 4096 / (4 x 4)
        QCOMPARE(results->compiled->execution.dataParExp, qint64(8)); // 4096 / (16 x 8 x 4)

        f.document.editLayout("pipeline_par", [](model::Execution &e) { e.pipelinePar = 8; });
        results = f.run();
        QCOMPARE(results->compiled->execution.dataPar, qint64(128));  // 4096 / (4 x 8)
        QCOMPARE(results->compiled->execution.dataParExp, qint64(4)); // 4096 / (16 x 8 x 8)
        QVERIFY2(results->hasStats(), qPrintable(allDiagnostics(*results)));
    }

    // The expert fields are for an MoE: a dense LLM dropped in turns them off, an MoE back on.
    void expertFieldsFollowTheLlm()
    {
        Fixture f;
        LayoutPanel layout(&f.document);
        QObject::connect(&f.recalculator, &Recalculator::resultsReady, &layout, &LayoutPanel::setResults);
        const QStringList experts = { QStringLiteral("expert_par"), QStringLiteral("expert_slice"),
                                      QStringLiteral("data_par_exp") };
        const auto enabled = [&] {
            QList<bool> out;
            for (const QString &key : experts)
                out << layout.editor(key.toStdString().c_str())->isEnabled();
            return out;
        };
        f.run();
        QCOMPARE(enabled(), QList<bool>({ true, true, true })); // the default design: an MoE
        QVERIFY(f.document.applyPreset(BlockKind::Llm, "gpt3-175b"));
        QVERIFY(!f.run()->compiled->resolved.llm.isMoe());
        QCOMPARE(enabled(), QList<bool>({ false, false, false }));
        QVERIFY(f.document.applyPreset(BlockKind::Llm, "mixtral-8x7b"));
        f.run();
        QCOMPARE(enabled(), QList<bool>({ true, true, true }));
    }

    // A GPU count no layout fills: the error is in words, under a field the user can change,
    // without the model's internal names ("expert_par 16 * expert_slice 8 * ... != num_procs").
    void gpuCountErrorIsInWordsUnderAField()
    {
        Fixture f;
        LayoutPanel layout(&f.document);
        QObject::connect(&f.recalculator, &Recalculator::resultsReady, &layout, &LayoutPanel::setResults);
        f.document.setGpuCount(3000); // divisible by neither 32 nor 512
        const ResultsPtr results = f.run();
        QVERIFY(!results->hasStats());
        const std::vector<LayoutProblem> problems = layoutProblems(*results);
        QVERIFY(!problems.empty());
        bool underAField = false;
        for (const LayoutProblem &p : problems) {
            QVERIFY2(!p.text.contains(QStringLiteral("expert_par")), qPrintable(p.text));
            QVERIFY2(!p.text.contains(QStringLiteral("num_procs")), qPrintable(p.text));
            QVERIFY2(!p.text.contains(QStringLiteral("data_par")), qPrintable(p.text));
            if (!p.field.empty() && !layout.problem(p.field).isEmpty())
                underAField = true;
        }
        QVERIFY2(underAField, qPrintable(allDiagnostics(*results)));
        // 3000 GPUs: TP x PP = 32 does not divide them; that is said with the numbers.
        QVERIFY(layout.problem("tensor_par").contains(QStringLiteral("3000")));
    }

    // The Layout panel's summary multiplies every degree that takes GPUs: with context
    // parallelism 2 set in its field, TP x CP x PP x DP fill the 4096 GPUs (it used to print
    // TP x PP x DP = 2048 of 4096, as if half the GPUs were idle).
    void summaryCountsContextParallelism()
    {
        Fixture f;
        LayoutPanel layout(&f.document);
        QObject::connect(&f.recalculator, &Recalculator::resultsReady, &layout, &LayoutPanel::setResults);
        auto *cp = qobject_cast<QSpinBox *>(layout.editor("context_par"));
        QVERIFY(cp);
        cp->setValue(2);
        const ResultsPtr results = f.run();
        QCOMPARE(results->compiled->execution.contextPar, std::int64_t(2));
        const QString summary = layout.findChild<QLabel *>(QStringLiteral("layoutSummary"))->text();
        const model::Execution &e = results->compiled->execution;
        // The product by hand, from the degrees the design holds.
        const std::int64_t gpus = e.tensorPar * 2 * e.pipelinePar * e.dataPar;
        QCOMPARE(gpus, std::int64_t(4096));
        QVERIFY2(summary.contains(QStringLiteral("TP × CP × PP × DP = %1 × 2 × %2 × %3 = 4096 of 4096 GPUs")
                                      .arg(e.tensorPar)
                                      .arg(e.pipelinePar)
                                      .arg(e.dataPar)),
                 qPrintable(summary));
    }

    // The software stack is a design choice like the hardware: picked in the Layout panel, one
    // undo step, and the panel says what it does to the MoE layers. The default design's stack
    // synchronises the host in every MoE layer; the optimized stack's flex dispatcher does not.
    void softwareStackPickedInTheLayoutPanel()
    {
        PanelFixture f;
        const LayoutPanel &layout = f.layout;
        const ResultsPtr before = f.run();
        auto *combo = layout.findChild<QComboBox *>(QStringLiteral("layout:software"));
        QVERIFY(combo);
        QCOMPARE(combo->currentData().toString(), QStringLiteral("megatron-core"));
        const auto effect
            = [&] { return layout.findChild<QLabel *>(QStringLiteral("softwareEffect"))->text(); };
        QVERIFY2(effect().contains(QStringLiteral("host synchronises in every MoE layer")),
                 qPrintable(effect()));
        QVERIFY(before->evaluation.stats.moe_host_wait_time > 0);

        // The user opens the list and clicks the optimized stack.
        QVERIFY(clickEntry(combo, QStringLiteral("megatron-core-optimized-moe")));
        QCOMPARE(f.document.scenario().software.presetId, std::string("megatron-core-optimized-moe"));
        const ResultsPtr after = f.run();
        QVERIFY(after->evaluation.stats.moe_host_wait_time < before->evaluation.stats.moe_host_wait_time);
        QVERIFY(after->evaluation.stats.total_time < before->evaluation.stats.total_time);
        QVERIFY2(effect().contains(QStringLiteral("flex")), qPrintable(effect()));
        QCOMPARE(f.document.undoStack()->count(), 1);

        f.document.undoStack()->undo();
        f.run();
        QCOMPARE(combo->currentData().toString(), QStringLiteral("megatron-core"));
    }

    // The calibration is picked beside the stack, one undo step. Either shipped calibration costs
    // the MoE blocks' host operators, named as a mechanism in the efficiency gap (no fitted
    // overhead per MoE block); the one fitted without the Blackwell runs
    // (presets/calibrations/without-blackwell.json) gives the design its own step time.
    void calibrationPickedInTheLayoutPanel()
    {
        PanelFixture f;
        const ResultsPtr before = f.run();
        auto *combo = f.layout.findChild<QComboBox *>(QStringLiteral("layout:calibration"));
        QVERIFY(combo);
        QCOMPARE(combo->currentData().toString(), QStringLiteral("shipped"));
        const auto loss = [](const ResultsPtr &r, const char *key) {
            for (const model::TimeComponent &l : r->analysis->gap.losses)
                if (l.key == key)
                    return l.seconds;
            return -1.0;
        };
        QCOMPARE(loss(before, "moe_sync"), 0.0);
        QVERIFY(loss(before, "moe_host_ops") > 0);

        // The user opens the list and clicks the calibration fitted without the Blackwell runs.
        QVERIFY(clickEntry(combo, QStringLiteral("without-blackwell")));
        QCOMPARE(f.document.scenario().calibration.presetId, std::string("without-blackwell"));
        const ResultsPtr after = f.run();
        QVERIFY(after->evaluation.stats.total_time != before->evaluation.stats.total_time);
        QCOMPARE(loss(after, "moe_sync"), 0.0);
        QVERIFY(loss(after, "moe_host_ops") > 0);
        QCOMPARE(loss(after, "moe_host_ops"),
                 after->evaluation.stats.moe_host_wait_time / after->evaluation.stats.total_time);
        QCOMPARE(combo->currentData().toString(), QStringLiteral("without-blackwell"));
        QCOMPARE(f.document.undoStack()->count(), 1);

        f.document.undoStack()->undo();
        f.run();
        QCOMPARE(combo->currentData().toString(), QStringLiteral("shipped"));
        QVERIFY(f.document.scenario().calibration.presetId.empty());

        // A file that embeds its calibration: shown by its name as an entry of its own, once,
        // however often the design changes; picking a preset replaces it and the entry goes.
        scenario::Scenario embedded = studioDefaultScenario();
        scenario::CalibrationSet own = f.document.library().calibrations.at("without-blackwell");
        own.info.name = "My fit";
        embedded.calibration = { {}, own };
        f.document.resetToExample(embedded);
        f.run();
        const int presets = static_cast<int>(f.document.library().calibrations.size());
        QCOMPARE(combo->currentText(), QStringLiteral("My fit (in this file)"));
        QCOMPARE(combo->count(), presets + 1);
        f.document.setOverride("gpu.hbm_bandwidth_GBps", 20000);
        f.run();
        QCOMPARE(combo->count(), presets + 1);
        QCOMPARE(combo->currentText(), QStringLiteral("My fit (in this file)"));
        QVERIFY(clickEntry(combo, QStringLiteral("shipped")));
        QCOMPARE(f.document.scenario().calibration.presetId, std::string("shipped"));
        QVERIFY(!f.document.scenario().calibration.inlineBlock);
        f.run();
        QCOMPARE(combo->count(), presets);
        QCOMPARE(combo->currentData().toString(), QStringLiteral("shipped"));
    }

    // The name of the default stayed on a changed design; now it follows edits
    // as "Custom: ..." until the user names the design, and then it is kept.
    void nameFollowsEditsUntilTheUserNamesIt()
    {
        Fixture f;
        const QString original = f.document.displayName();
        QCOMPARE(original, QStringLiteral("GPT-4-class 1.8T MoE on 4096 GPUs, FullFlat"));
        QVERIFY(f.document.applyPreset(BlockKind::Gpu, "nvidia-b200"));
        QCOMPARE(f.document.displayName(),
                 QStringLiteral("Custom: GPT-4-class 1.8T MoE (16 experts, top-2) on 4096 × "
                                "NVIDIA B200 (HGX), FullFlat (Tithi et al.)"));
        f.document.undoStack()->undo(); // the design is the example again: so is its name
        QCOMPARE(f.document.displayName(), original);
        f.document.undoStack()->redo();

        f.document.setProperties(QStringLiteral("Pod A"), QStringLiteral("Our 2027 cluster"));
        QCOMPARE(f.document.displayName(), QStringLiteral("Pod A"));
        QVERIFY(!f.document.nameFollowsEdits());
        f.document.setGpuCount(2048);
        QCOMPARE(f.document.displayName(), QStringLiteral("Pod A")); // the user's name stays
        QCOMPARE(QString::fromStdString(f.document.scenario().info.source),
                 QStringLiteral("Our 2027 cluster"));
        const ResultsPtr results = f.run();
        QCOMPARE(QString::fromStdString(results->scenario.info.name), QStringLiteral("Pod A"));
    }

    // The sliders' names and units, one word for each network tier.
    void parameterWordsNameEachTier()
    {
        QCOMPARE(parameterLabel("scale_out.latency_us"), QStringLiteral("Scale-out latency"));
        QCOMPARE(parameterLabel("scale_up.latency_us"), QStringLiteral("Scale-up latency"));
        QCOMPARE(parameterWords("scale_up.latency_us").unit, QStringLiteral("µs"));
        const QString tip = parameterToolTip("scale_out.latency_us");
        QVERIFY(tip.startsWith(QStringLiteral("Latency")));
        QVERIFY(tip.contains(QStringLiteral("scale_out.latency_us"))); // the key only as a detail
        QCOMPARE(inWords(QStringLiteral("Mem tier1 needs 165.975 GiB")),
                 QStringLiteral("GPU memory (HBM) needs 165.975 GiB"));
    }
};

QTEST_MAIN(tst_DesignEdits)
#include "tst_designedits.moc"
