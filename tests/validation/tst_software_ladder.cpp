// One workload, one software feature at a time: DeepSeek-V3 in MXFP8 on 256 GB200 as NVIDIA's
// Megatron-Core team optimised it, with the TFLOPS per GPU measured after each step
// (tests/data/ladders, NVIDIA/Megatron-LM@eb0783b). The features the model has inputs for (router
// fusion, the flex dispatcher, CUDA graphs of attention, router and preprocessing) are switched
// on one at a time in the published run mb2511-gb200-deepseekv3-256gpu-mxfp8 (its layout, at the
// guide's global batch), and the model's speedup for each is compared with the measured one, the
// step's TFLOPS over the step before's, under the shipped calibration.
#include "gapstudio/io/measurement_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/enum_names.h"
#include "gapstudio/scenario/pipeline.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <string>

using namespace gapstudio;

namespace {

nlohmann::json ladder()
{
    std::ifstream in(TEST_DATA_DIR "/ladders/deepseek-v3-gb200.json");
    return nlohmann::json::parse(in);
}

/// The CUDA-graph scopes of a step, as Execution::cudaGraphScopes bits.
std::uint8_t scopesOf(const nlohmann::json &names)
{
    const std::map<std::string, std::uint8_t> bits
        = { { "attn", model::kGraphAttn }, { "moe_router", model::kGraphMoeRouter },
            { "moe_preprocess", model::kGraphMoePreprocess }, { "moe", model::kGraphMoe } };
    std::uint8_t scopes = 0;
    for (const nlohmann::json &name : names)
        scopes |= bits.at(name.get<std::string>());
    return scopes;
}

/// A modelled step's feature switched on in `design`.
void apply(const nlohmann::json &step, scenario::Scenario &design)
{
    model::Execution &e = design.layout.inlineBlock->execution;
    if (step.contains("moe_router_fusion"))
        design.software.inlineBlock->moeRouterFusion = step["moe_router_fusion"].get<bool>();
    if (step.contains("moe_dispatcher")) {
        const auto &names = model::names::kMoeDispatcher;
        const auto name = std::find(names.begin(), names.end(), step["moe_dispatcher"].get<std::string>());
        e.moeDispatcher = static_cast<model::MoeDispatcher>(name - names.begin());
    }
    if (step.contains("cuda_graph_scope"))
        e.cudaGraphScopes = scopesOf(step["cuda_graph_scope"]);
}

} // namespace

class tst_SoftwareLadder : public QObject {
    Q_OBJECT

private:
    scenario::PresetLibrary mLibrary;
    scenario::Scenario mBaseline;

private slots:
    void initTestCase()
    {
        mLibrary = io::loadPresetLibrary(PRESETS_DIR);
        const nlohmann::json data = ladder();
        const std::string id = data["measurement"].get<std::string>();
        const std::vector<io::Measurement> runs
            = io::loadMeasurements({ PRESETS_DIR "/measurements/megatron-bridge-moe/" + id + ".json" });
        QCOMPARE(runs.size(), std::size_t(1));
        // The guide's baseline: its global batch, no router fusion, the NCCL all-to-all
        // dispatcher, no CUDA graphs; the run's own stack otherwise (its calibration entries).
        mBaseline = runs[0].scenario;
        QVERIFY(mBaseline.layout.inlineBlock);
        model::Execution &e = mBaseline.layout.inlineBlock->execution;
        e.batchSize = data["global_batch"].get<std::int64_t>();
        e.moeDispatcher = model::MoeDispatcher::AllToAll;
        e.cudaGraphScopes = 0;
        mBaseline.layout.inlineBlock->namesMoeDispatcher = true;
        mBaseline.layout.inlineBlock->namesCudaGraphScopes = true;
        mBaseline.software = { {}, mLibrary.software.at(mBaseline.software.presetId) };
        mBaseline.software.inlineBlock->moeRouterFusion = false;
    }

    void softwareStepsGainWhatTheyMeasured_data()
    {
        QTest::addColumn<int>("step");
        const nlohmann::json steps = ladder()["steps"];
        for (std::size_t i = 1; i < steps.size(); ++i)
            if (steps[i]["modelled"].get<bool>())
                QTest::newRow(steps[i]["name"].get<std::string>().c_str()) << static_cast<int>(i);
    }

    void softwareStepsGainWhatTheyMeasured()
    {
        QFETCH(int, step);
        const nlohmann::json steps = ladder()["steps"];
        // The design before the step: every modelled step before it switched on.
        scenario::Scenario before = mBaseline;
        for (int i = 1; i < step; ++i)
            if (steps[i]["modelled"].get<bool>())
                apply(steps[i], before);
        scenario::Scenario after = before;
        apply(steps[step], after);
        const scenario::PipelineResult a = scenario::runScenario(before, mLibrary);
        const scenario::PipelineResult b = scenario::runScenario(after, mLibrary);
        QVERIFY2(a.ok() && b.ok(), (a.statusText + " / " + b.statusText).c_str());
        const double predicted = a.evaluation.stats.total_time / b.evaluation.stats.total_time;
        const double measured
            = steps[step]["tflops_per_gpu"].get<double>() / steps[step - 1]["tflops_per_gpu"].get<double>();
        qInfo("%-40s measured %.3fx, predicted %.3fx (MoE host wait %.2f s before)",
              steps[step]["name"].get<std::string>().c_str(), measured, predicted,
              a.evaluation.stats.moe_host_wait_time);
        // A feature that takes work off the host or the GPU never makes the step slower.
        QVERIFY(predicted >= 1 - 1e-12);
        // Its gain within half of the measured gain either way. Not reproduced yet: the model
        // adds every operator of a pass whose host waits to the GPU's time, as the published runs
        // favour (the launch pace, docs/references.md), and so overstates what takes operators
        // off the host:
        // router fusion (the router's 72 kernels, 31 fused, line 85) eight times the measured
        // gain, the CUDA graphs 2.4 times, while DeepEP's fewer operators gain half their
        // measured gain. After the graphs the guide's profile leaves host overhead only in the
        // routed experts (line 154), issued right after the wait; the fused and graphed
        // operators come before it, where the GPU's queued work hides them, which one sum per
        // pass cannot see.
        QEXPECT_FAIL("", "not reproduced yet (see the comment above)", Continue);
        QVERIFY2(std::abs((predicted - 1) - (measured - 1)) <= 0.5 * (measured - 1),
                 qPrintable(QStringLiteral("measured %1x, predicted %2x").arg(measured).arg(predicted)));
    }
};

QTEST_GUILESS_MAIN(tst_SoftwareLadder)
#include "tst_software_ladder.moc"
