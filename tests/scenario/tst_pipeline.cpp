// The scenario pipeline (scenario/pipeline.h): one status per design, with the reference cases as
// the independent source of the numbers (their golden outputs and error texts).
#include "calculon_cases.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/pipeline.h"

#include <QTest>

using namespace gapstudio;
using scenario::EvaluationStatus;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

scenario::Scenario shippedScenario(const char *file)
{
    return io::loadScenario(std::string(PRESETS_DIR "/scenarios/") + file);
}

io::CalculonInputs calculonCase(const char *name)
{
    const QString dir = QString::fromLatin1(name);
    return io::loadCalculonInputs(test::caseFile(dir, "model.json"), test::caseFile(dir, "execution.json"),
                                  test::caseFile(dir, "system.json"));
}

scenario::PipelineResult runCase(const char *name)
{
    const io::CalculonInputs in = calculonCase(name);
    model::EvaluateOptions options;
    options.quirks = in.referenceQuirks();
    return scenario::runDesign({ in.application, in.execution, in.system }, options);
}

} // namespace

class tst_Pipeline : public QObject {
    Q_OBJECT

private:
    scenario::PresetLibrary mLibrary;

private slots:
    void initTestCase() { mLibrary = io::loadPresetLibrary(PRESETS_DIR); }

    // The default scenario with the reference's quirks is calculon-MoE's moe18 fullflat case:
    // the pipeline picks the quirks from the LLM and hands them to evaluate().
    void okMatchesTheReferenceOutput()
    {
        scenario::PipelineOptions options;
        options.referenceQuirks = true;
        const scenario::PipelineResult r
            = scenario::runScenario(shippedScenario("default.gapstudio.json"), mLibrary, options);
        QCOMPARE(r.status, EvaluationStatus::Ok);
        QVERIFY(r.ok() && r.hasStats() && r.compiled);
        QVERIFY(r.diagnostics.empty());
        QCOMPARE(r.cause(), nullptr);
        const nlohmann::json expected
            = test::readJson(TEST_DATA_DIR "/calculon-moe/cases/moe18_4096_fullflat_base/output.json");
        QVERIFY(
            test::withinTolerance(r.evaluation.stats.total_time, expected.at("total_time").get<double>()));
        QVERIFY(test::withinTolerance(r.analysis->gap.mfu, expected.at("total_efficiency").get<double>()));
        QVERIFY2(r.statusText.rfind("Feasible: step time ", 0) == 0, r.statusText.c_str());
        QCOMPARE(std::string(scenario::statusName(r.status)), std::string("ok"));
        QVERIFY(r.design() && r.design()->execution.modelMoE);
    }

    void correctedUnlessAsked()
    {
        const scenario::PipelineResult r
            = scenario::runScenario(shippedScenario("default.gapstudio.json"), mLibrary);
        QCOMPARE(r.status, EvaluationStatus::Ok);
        QVERIFY(!r.evaluateOptions.quirks.expertWorkScalesWithEs); // calculon-MoE's Q1 is off
        scenario::PipelineOptions reference;
        reference.referenceQuirks = true;
        reference.withLayers = true;
        const scenario::PipelineResult q = scenario::runScenario(r.scenario, mLibrary, reference);
        QVERIFY(q.evaluateOptions.quirks.expertWorkScalesWithEs);
        QVERIFY(!q.evaluation.layers.empty());
        QVERIFY(r.evaluation.layers.empty());
        QVERIFY(r.evaluation.stats.total_time != q.evaluation.stats.total_time);
    }

    void malformed_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("field");
        QTest::newRow("missing preset") << QString() << 0.0 << "no-such-layout"
                                        << "layout";
        QTest::newRow("bad override value")
            << "layout.tensor_par" << 0.0 << QString() << "overrides/layout.tensor_par";
        // 7 divides neither the 96 heads of GPT-3 nor the 4096 GPUs: an input rule, not a layout
        QTest::newRow("tp 7") << "layout.tensor_par" << 7.0 << QString() << QString();
    }
    void malformed()
    {
        QFETCH(QString, key);
        QFETCH(double, value);
        QFETCH(QString, layout);
        QFETCH(QString, field);
        scenario::Scenario s = shippedScenario("gpt3-175b-4096-h100-fp8.gapstudio.json");
        if (!key.isEmpty())
            s.overrides[key.toStdString()] = value;
        if (!layout.isEmpty())
            s.layout.presetId = layout.toStdString();
        const scenario::PipelineResult r = scenario::runScenario(s, mLibrary);
        QCOMPARE(r.status, EvaluationStatus::Malformed);
        QVERIFY(!r.hasStats() && !r.ok());
        QVERIFY(r.cause() && r.cause()->isMalformedInput());
        if (!field.isEmpty()) {
            QVERIFY(!r.compiled);
            QCOMPARE(QString::fromStdString(r.cause()->field), field);
        }
        QVERIFY2(r.statusText.rfind("Cannot be evaluated: ", 0) == 0, r.statusText.c_str());
    }

    // Case 37: the reference rejects the layout with "Network tier0 isn't big enough".
    void infeasible()
    {
        const scenario::PipelineResult r = runCase("37_ERR_tier0_too_small");
        QCOMPARE(r.status, EvaluationStatus::Infeasible);
        QVERIFY(!r.hasStats());
        QVERIFY(r.shortfalls.empty());
        // the reference's text first, then the model's detail
        QVERIFY(QString::fromStdString(r.cause()->message)
                    .startsWith(QStringLiteral("Network tier0 isn't big enough")));
        QCOMPARE(QString::fromStdString(r.statusText),
                 QStringLiteral("Infeasible layout: ") + QString::fromStdString(r.cause()->message));
    }

    // Case 36: "Mem tier1 needs 443.306 GiB but only has 80.000 GiB" (the reference's stdout).
    void overCapacityKeepsTheMemoryNumbers()
    {
        const scenario::PipelineResult r = runCase("36_ERR_mem_gpt3-175B_64_a100");
        QCOMPARE(r.status, EvaluationStatus::OverCapacity);
        QVERIFY(!r.ok());
        QVERIFY(r.hasStats()); // the memory chart shows the overflow
        QVERIFY(!r.evaluation.ok);
        QCOMPARE(r.shortfalls.size(), std::size_t(1));
        QCOMPARE(r.shortfalls[0].tier, 1);
        QVERIFY(std::fabs(r.shortfalls[0].need_B / kGiB - 443.306) < 0.0005);
        QCOMPARE(r.shortfalls[0].capacity_B, 80 * kGiB);
        QCOMPARE(r.analysis->memory.tier1Need_B, r.shortfalls[0].need_B);
        QCOMPARE(r.cause()->code, model::DiagnosticCode::Tier1CapacityExceeded);
        QCOMPARE(QString::fromStdString(r.statusText),
                 QStringLiteral("Does not fit in memory: each GPU needs 443.31 GiB of HBM but has 80 GiB"));
        QCOMPARE(std::string(scenario::statusName(r.status)), std::string("over_capacity"));
    }

    // A scenario over capacity: val01 (Megatron 22B on 8 A100) with 1 GiB of HBM.
    void overCapacityScenario()
    {
        scenario::Scenario s = shippedScenario("val01-megatron-22b-a100.gapstudio.json");
        s.overrides["gpu.hbm_capacity_GiB"] = 1;
        const scenario::PipelineResult r = scenario::runScenario(s, mLibrary);
        QCOMPARE(r.status, EvaluationStatus::OverCapacity);
        QCOMPARE(r.shortfalls.front().capacity_B, 1 * kGiB);
        QVERIFY(r.compiled && r.hasStats());
    }

    void runDesignEqualsTheReference()
    {
        const scenario::PipelineResult r = runCase("18_gpt3-175B_4096_h100_fp8");
        QCOMPARE(r.status, EvaluationStatus::Ok);
        QVERIFY(!r.compiled); // the caller has the inputs
        const nlohmann::json expected
            = test::readJson(test::caseFile(QStringLiteral("18_gpt3-175B_4096_h100_fp8"), "output.json"));
        QVERIFY(
            test::withinTolerance(r.evaluation.stats.total_time, expected.at("total_time").get<double>()));
        QCOMPARE(r.analysis->step.total_s, r.evaluation.stats.total_time);
    }
};

QTEST_GUILESS_MAIN(tst_Pipeline)
#include "tst_pipeline.moc"
