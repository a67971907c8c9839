// Goodput under failures (model/goodput.h) against numbers derived by hand: Young's interval and
// Daly's expected wall time, the Llama 3 405B pre-training run (Dubey et al. 2024, section
// 3.3.4: 16,384 H100, 419 unexpected interruptions in 54 days, "higher than 90 %" effective
// training time; section 3.3.1: storage at 2 TB/s sustained), the checkpoint counted once over
// replicas, properties (never above 1, lower with more failures, larger checkpoints or longer
// restarts), asynchronous checkpoints (a snapshot over PCIe 5.0 x16, the write in the
// background), the pipeline (a design that cannot run has none), the scenario's `reliability.*`
// overrides and `gapstudio-cli eval --goodput`; hot spares (a Poisson queue of servers in repair)
// by hand, in the bill of materials and through the CLI.
#include "gapstudio/io/input_error.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/cost.h"
#include "gapstudio/model/goodput.h"
#include "gapstudio/scenario/pipeline.h"
#include "gapstudio/scenario/self_contained.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <string>
#include <utility>

using namespace gapstudio;

namespace {

void near(double actual, double expected, double tolerance = 1e-12)
{
    QVERIFY2(
        std::fabs(actual - expected) <= tolerance * std::fabs(expected),
        qPrintable(QStringLiteral("%1 vs expected %2").arg(actual, 0, 'g', 17).arg(expected, 0, 'g', 17)));
}

/// The hand-worked case: one interruption every 3 hours over 1,000 GPUs (M = 10,800 s), storage
/// at 1 GB/s, a 240 s job restart.
model::ReliabilityAssumptions everyThreeHours()
{
    model::ReliabilityAssumptions a;
    a.interruptionsPerGpuHour = 1.0 / (3 * 1000);
    a.storage_Bps = 1e9;
    a.jobRestart_s = 240;
    return a;
}

/// The shipped default scenario file as JSON (discarded when it cannot be read), for a test to
/// change and write as a user would.
nlohmann::json defaultScenarioJson()
{
    QFile in(QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json"));
    if (!in.open(QIODevice::ReadOnly))
        return nlohmann::json::value_t::discarded;
    const QByteArray bytes = in.readAll();
    return nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
}

} // namespace

class tst_Goodput : public QObject {
    Q_OBJECT

private slots:
    void youngAndDalyByHand()
    {
        // One interruption every 3 hours (M = 10,800 s) over 1,000 GPUs; a 60 GB checkpoint at
        // 1 GB/s (delta = 60 s); restart 240 s plus reading it back (R = 300 s).
        // Young: tau = sqrt(2 x 60 x 10,800) = sqrt(1,296,000) = 1,138.41995766 s.
        // Daly: wall / work = M e^(R/M) (e^((tau + delta)/M) - 1) / tau
        //   = 10,800 x e^0.0277778 x (e^0.1109648 - 1) / 1,138.41996 = 1.1446968, goodput 0.87359721.
        model::ReliabilityAssumptions a = everyThreeHours();
        const model::GoodputResult g = model::goodputOf(a, model::ReliabilityParts { .gpus = 1000 }, 60e9);
        QVERIFY(g.valid);
        near(g.mtti_s, 10800);
        near(g.checkpointWrite_s, 60);
        near(g.restart_s, 300);
        near(g.interval_s, 1138.4199576606165);
        near(g.goodput, 0.8735972093609292, 1e-9);
        // The losses split 1 - goodput in the first-order proportions delta/(tau + delta) :
        // (tau + delta)/(2M) : R/M = 0.0500 : 0.0555 : 0.0278.
        near(g.checkpointShare + g.lostWorkShare + g.restartShare, 1 - g.goodput, 1e-12);
        near(g.checkpointShare / g.restartShare, (60 / 1198.4199576606165) / (300.0 / 10800), 1e-12);
        // A fixed interval replaces Young's.
        a.checkpointInterval_s = 3600;
        near(model::goodputOf(a, model::ReliabilityParts { .gpus = 1000 }, 60e9).interval_s, 3600);
    }

    void asynchronousCheckpointsByHand()
    {
        // The case above (M = 10,800 s, 1,000 GPUs, a 60 GB checkpoint, storage at 1 GB/s: a 60 s
        // write; restart 240 s plus 60 s reading back), with asynchronous checkpoints: each GPU
        // snapshots 60e9 / 1,000 = 60 MB to host memory at 2 GB/s, delta = 0.03 s. Young would
        // checkpoint every sqrt(2 x 0.03 x 10,800) = 25.46 s, but the next snapshot waits for the
        // 60 s write: tau = 60 s. A failure loses the write too: R = 300 + 60 = 360 s in Daly's
        // wall / work = 10,800 x e^(360/10,800) x (e^(60.03/10,800) - 1) / 60 = 1.0372922 (first
        // order 1 + 0.0333 + 0.0028 + 0.0005 = 1.0366), goodput 0.96404851 against 0.87359721
        // synchronous.
        model::ReliabilityAssumptions a = everyThreeHours();
        a.asyncCheckpoint = true;
        a.snapshot_Bps = 2e9;
        const model::ReliabilityParts parts { .gpus = 1000 };
        const model::GoodputResult g = model::goodputOf(a, parts, 60e9);
        QVERIFY(g.valid && g.asynchronous);
        near(g.checkpointWrite_s, 60);
        near(g.checkpointStall_s, 0.03);
        near(g.restart_s, 300);
        near(g.rework_s, 60);
        near(g.interval_s, 60);
        near(g.goodput, 0.9640485116630186, 1e-9);
        // The split: delta/(tau + delta) : ((tau + delta)/2 + write)/M : R/M = 0.0005 : 0.0083 : 0.0278.
        near(g.checkpointShare + g.lostWorkShare + g.restartShare, 1 - g.goodput, 1e-12);
        near(g.lostWorkShare / g.restartShare, ((60.03 / 2 + 60) / 10800) / (300.0 / 10800), 1e-12);
        // A fixed interval longer than the write is kept: 10,800 e^(1/30) (e^(3,600.03/10,800) - 1) / 3,600.
        a.checkpointInterval_s = 3600;
        near(model::goodputOf(a, parts, 60e9).goodput, 0.8149445949684608, 1e-9);
        // One shorter than the write waits for it.
        a.checkpointInterval_s = 10;
        near(model::goodputOf(a, parts, 60e9).interval_s, 60);
        // A slower snapshot stalls longer: goodput falls with it.
        a.checkpointInterval_s = 0;
        double previous = 2;
        for (const double snapshot : { 1e12, 63e9, 2e9, 1e8, 1e7 }) {
            a.snapshot_Bps = snapshot;
            const double goodput = model::goodputOf(a, parts, 60e9).goodput;
            QVERIFY2(goodput > 0 && goodput <= 1 && goodput < previous,
                     qPrintable(QString::number(snapshot)));
            previous = goodput;
        }
        a.snapshot_Bps = 0;
        QVERIFY(!model::goodputOf(a, parts, 60e9).valid);
    }

    void hotSparesByHand()
    {
        // The case above (M = 10,800 s: 1/3 interruption per hour, 356/419 of them hardware as in
        // the Llama 3 table, so 0.2832 per hour take a server out) with servers repaired in 24 h:
        // m = 0.2832 x 24 = 6.797136 servers in repair on average. With 8 spares a failure finds
        // none with P(Poisson(6.797) >= 8) = 1 - sum_{k<8} e^-m m^k / k! = 0.37108890 and then waits
        // 24 h / 9 for the first repaired server: 356/419 x 0.3711 x 9,600 s = 3,026.81 s per
        // interruption, R = 300 + 3,026.81 s; Daly (tau = 1,138.42 s, delta = 60 s) gives 0.66007880.
        // Values from a separate script (the sums written out), not from this code.
        model::ReliabilityAssumptions a = everyThreeHours();
        const model::ReliabilityParts parts { .gpus = 1000 };
        a.spareServers = 8;
        const double withoutRepairs = model::goodputOf(a, parts, 60e9).goodput;
        near(withoutRepairs, 0.8735972093609292, 1e-9); // a healthy server always at hand
        a.repair_s = 24 * 3600;
        const model::GoodputResult g = model::goodputOf(a, parts, 60e9);
        QVERIFY(g.valid);
        near(g.noSpareProbability, 0.3710888983704834, 1e-12);
        near(g.spareWait_s, 3026.810069381776, 1e-12);
        near(g.restart_s, 300); // the wait is its own term of R
        near(g.goodput, 0.6600787981057605, 1e-9);
        near(g.checkpointShare + g.lostWorkShare + g.restartShare, 1 - g.goodput, 1e-12);
        // No spare: every hardware failure waits the whole repair, 356/419 x 86,400 s.
        a.spareServers = 0;
        near(model::goodputOf(a, parts, 60e9).spareWait_s, 73409.0692124105, 1e-12);
        near(model::goodputOf(a, parts, 60e9).goodput, 0.0009757814638664987, 1e-9);
        // More spares, more goodput, up to the case of a server always at hand.
        double previous = 0;
        for (const std::int64_t spares : { 0, 1, 2, 4, 8, 16, 32 }) {
            a.spareServers = spares;
            const double goodput = model::goodputOf(a, parts, 60e9).goodput;
            QVERIFY2(goodput > previous && goodput < withoutRepairs, qPrintable(QString::number(spares)));
            previous = goodput;
        }
        a.spareServers = 1000;
        near(model::goodputOf(a, parts, 60e9).goodput, withoutRepairs, 1e-12);
        // Longer repairs, less goodput.
        a.spareServers = 8;
        previous = 2;
        for (const double hours : { 1, 6, 24, 72, 720 }) {
            a.repair_s = hours * 3600;
            const double goodput = model::goodputOf(a, parts, 60e9).goodput;
            QVERIFY2(goodput < previous, qPrintable(QString::number(hours)));
            previous = goodput;
        }
        // Software interruptions take no server out: no wait however slow the repairs.
        model::ReliabilityAssumptions software;
        software.gpuFit = software.hbmFit = software.serverFit = software.nicFit = software.linkFit = 0;
        software.repair_s = 1e6;
        QCOMPARE(model::goodputOf(software, parts, 60e9).spareWait_s, 0.0);
        software.repair_s = -1;
        QVERIFY(!model::goodputOf(software, parts, 60e9).valid);
    }

    void poissonTail()
    {
        // P(N >= k) against the sum written out term by term.
        for (const double mean : { 0.1, 1.0, 6.797136038186157, 30.0, 200.0 })
            for (const std::int64_t k : { 1, 2, 5, 8, 20, 60, 250 }) {
                double below = 0, term = std::exp(-mean);
                for (std::int64_t j = 0; j < k; ++j, term *= mean / static_cast<double>(j))
                    below += term;
                QVERIFY2(std::fabs(model::poissonAtLeast(mean, k) - (1 - below)) <= 1e-12,
                         qPrintable(QStringLiteral("mean %1, k %2").arg(mean).arg(k)));
            }
        QCOMPARE(model::poissonAtLeast(5, 0), 1.0);
        QCOMPARE(model::poissonAtLeast(0, 3), 0.0);
        // Huge means: about a half at the mean, 2.3 % two standard deviations above it, and never a
        // hang (the number of spares is up to a billion).
        QVERIFY(std::fabs(model::poissonAtLeast(4e6, 4'000'000) - 0.5) < 1e-3);
        QVERIFY(std::fabs(model::poissonAtLeast(4e6, 4'004'000) - 0.02275) < 1e-3);
        QCOMPARE(model::poissonAtLeast(1e3, 1'000'000'000), 0.0);
        QCOMPARE(model::poissonAtLeast(1e12, 1'000'000'000), 1.0);
    }

    void sparesInTheBillOfMaterials()
    {
        // 64 GPUs in servers of 8 with 3 spare servers: 24 spare GPUs and 3 spare servers at the
        // job's prices; they wait powered on, GPUs at idle draw.
        model::ClusterSpec spec;
        spec.gpus = 64;
        spec.gpu = { 30000, 1000, 8, 100000, 2000, "test" };
        spec.gpuHasCost = true;
        const model::BillOfMaterials without = model::billOfMaterials(spec);
        spec.spareServers = 3;
        const model::BillOfMaterials with = model::billOfMaterials(spec);
        QCOMPARE(with.gpus, std::int64_t(64));
        QCOMPARE(with.servers, std::int64_t(8));
        QCOMPARE(with.spareGpus, std::int64_t(24));
        near(with.capex_USD() - without.capex_USD(), 24 * 30000.0 + 3 * 100000.0);
        model::CostAssumptions assumptions;
        assumptions.gpuIdlePowerFraction = 0.25;
        const model::CostActivity activity {
            .tokensPerSecond = 1e5, .stepTime_s = 1, .batchSamples = 64, .seqSize = 2048, .gpuActivity = 0.8
        };
        const model::CostResult before = model::costOf(without, activity, assumptions, 1000);
        const model::CostResult after = model::costOf(with, activity, assumptions, 1000);
        near(after.itPower_W - before.itPower_W, 24 * 1000 * 0.25 + 3 * 2000.0);
        double perHour = 0;
        for (const model::CostShare &share : after.usdPerHour)
            perHour += share.value;
        near(perHour, after.clusterUsdPerHour, 1e-12);
        QCOMPARE(after.usdPerHour.size(), before.usdPerHour.size() + 1);
        // The job's interruptions come from the job's parts, not the idle spares.
        near(model::reliabilityParts(with).gpus, 64);
        near(model::reliabilityParts(with).servers, 8);
    }

    void llama3Pretraining()
    {
        // The default assumptions are the Llama 3 run's interruptions by cause over its cluster's
        // parts (16,384 GPUs, 2,048 servers of 8, one adapter per GPU, 1 + 1 + 1/7 links per GPU in
        // its three-level Clos with 1:7 at the top): on that cluster they add up to the run's
        // 419 / (54 x 24 h x 16,384 GPUs) per GPU-hour, so M = 54 x 24 / 419 h = 11,135.08 s on 16,384 GPUs,
        // and 2 TB/s storage. Its checkpoint: 405e9 parameters x (2 B BF16 weights + 12 B FP32 master weights
        // and two Adam moments) = 5.67e12 B, delta = 2.835 s; R = 600 s (the restart estimate) + 2.835 s. tau
        // = sqrt(2 x 2.835 x 11,135.08) = 251.2686 s; Daly: goodput 0.92608 (first order: 1 - 0.0112 - 0.0114
        // - 0.0541 = 0.9233), within the report's "higher than 90 %".
        const model::ReliabilityParts llama3 {
            .gpus = 16384, .servers = 2048, .nics = 16384, .links = 16384 * (2 + 1.0 / 7)
        };
        const model::GoodputResult g = model::goodputOf(model::ReliabilityAssumptions {}, llama3, 405e9 * 14);
        QVERIFY(g.valid);
        near(g.mtti_s, 11135.083532219569, 1e-12);
        near(g.interval_s, 251.26862841923773, 1e-12);
        near(g.goodput, 0.926084626059465, 1e-9);
        QVERIFY(g.goodput > 0.90);
        // Table 5's causes by part: GPUs 196, HBM 72, servers 46, adapters 7, links 35, software 63.
        const std::map<std::string, double> byCause = { { "gpu", 196 }, { "hbm", 72 },  { "server", 46 },
                                                        { "nic", 7 },   { "link", 35 }, { "software", 63 } };
        QCOMPARE(g.sources.size(), byCause.size());
        for (const model::InterruptionSource &s : g.sources)
            near(s.perHour * 54 * 24, byCause.at(s.key), 1e-12);
        // More parts fail more often: a fabric with twice the links loses goodput.
        model::ReliabilityParts moreLinks = llama3;
        moreLinks.links *= 2;
        QVERIFY(model::goodputOf(model::ReliabilityAssumptions {}, moreLinks, 405e9 * 14).goodput
                < g.goodput);
    }

    void checkpointCountedOnceOverReplicas()
    {
        // 16 GPUs, DP 4: per GPU 10 B of weights and 60 B of optimizer state (sharded over DP).
        // Weights are held 4 times over, the sharded optimizer state once: 16 x (10/4 + 60) = 1000.
        model::Execution exe;
        exe.numProcs = 16;
        exe.tensorPar = 4;
        exe.dataPar = 4;
        exe.optimizerSharding = true;
        model::Stats s;
        s.stage_weight_space = 10;
        s.stage_optimizer_space = 60;
        near(model::checkpointBytes(exe, s), 1000);
        exe.optimizerSharding = false; // the optimizer state replicated too: 16 x (2.5 + 15) = 280
        near(model::checkpointBytes(exe, s), 280);
        // An MoE: replicas are counted over expert data parallelism (2): 16 x (5 + 30) = 560.
        exe.modelMoE = true;
        exe.dataParExp = 2;
        near(model::checkpointBytes(exe, s), 560);
    }

    void propertiesHold()
    {
        model::ReliabilityAssumptions a;
        double previous = 2;
        for (const double rate : { 0.0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3 }) {
            a.interruptionsPerGpuHour = rate;
            const double g = model::goodputOf(a, model::ReliabilityParts { .gpus = 4096 }, 1e12).goodput;
            QVERIFY2(g > 0 && g <= 1 && g < previous + 1e-15, qPrintable(QString::number(rate)));
            previous = g;
        }
        a = {};
        previous = 2;
        for (const double bytes : { 0.0, 1e9, 1e12, 1e13, 1e14 }) {
            const double g = model::goodputOf(a, model::ReliabilityParts { .gpus = 4096 }, bytes).goodput;
            QVERIFY(g > 0 && g <= 1 && g < previous);
            previous = g;
        }
        previous = 2;
        for (const double restart : { 0.0, 60.0, 600.0, 3600.0 }) {
            a.jobRestart_s = restart;
            const double g = model::goodputOf(a, model::ReliabilityParts { .gpus = 4096 }, 1e12).goodput;
            QVERIFY(g > 0 && g <= 1 && g < previous);
            previous = g;
        }
        QVERIFY(!model::goodputOf(a, model::ReliabilityParts {}, 1e12).valid);
        a.storage_Bps = 0;
        QVERIFY(!model::goodputOf(a, model::ReliabilityParts { .gpus = 4096 }, 1e12).valid);
    }

    void pipelineHasItExactlyForRunnableDesigns()
    {
        const scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
        scenario::Scenario s
            = io::loadScenario(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json");
        const scenario::PipelineResult ok = scenario::runScenario(s, library, {});
        QVERIFY(ok.ok() && ok.goodput && ok.goodput->valid);
        // Throughput and cost of wall time: the failure-free ones scaled by the goodput.
        near(ok.goodput->effectiveTokensPerSecond, ok.analysis->tokensPerSecond * ok.goodput->goodput);
        near(ok.goodput->effectiveUsdPerMillionTokens, ok.cost->usdPerMillionTokens / ok.goodput->goodput);
        // The MFU over the wall time, and the efficiency gap's loss after the MFU: what failures,
        // checkpoints and restarts take from it.
        const double mfu = ok.evaluation.stats.total_efficiency;
        near(ok.goodput->effectiveMfu, mfu * ok.goodput->goodput);
        near(ok.analysis->gap.failures, mfu * (1 - ok.goodput->goodput));
        // The parts that fail are the bill of materials': GPUs, servers, scale-out adapters, links.
        const model::BillOfMaterials &bom = ok.cost->bom;
        QVERIFY(bom.scaleOut.links > 0 && !ok.goodput->networkEstimated);
        const std::map<std::string, double> parts = { { "gpu", double(bom.gpus) },
                                                      { "hbm", double(bom.gpus) },
                                                      { "server", double(bom.servers) },
                                                      { "nic", double(bom.scaleOut.ports) },
                                                      { "link", double(bom.scaleOut.links) },
                                                      { "software", double(bom.gpus) } };
        for (const model::InterruptionSource &source : ok.goodput->sources)
            QCOMPARE(source.parts, parts.at(source.key));
        // A scale-out network without cost figures has Llama 3's parts per GPU: one adapter and
        // 1 + 1 + 1/7 links (goodput.cpp), and says so.
        model::BillOfMaterials uncounted;
        uncounted.gpus = 16;
        uncounted.servers = 2;
        uncounted.domains = 2;
        const model::ReliabilityParts estimated = model::reliabilityParts(uncounted);
        QVERIFY(estimated.networkEstimated);
        QCOMPARE(estimated.nics, 16.0);
        near(estimated.links, 16 * 15.0 / 7);
        s.overrides["gpu_count"] = 3000; // TP x PP x DP cannot fill it
        const scenario::PipelineResult bad = scenario::runScenario(s, library, {});
        QVERIFY(!bad.ok());
        QVERIFY(!bad.goodput);
    }

    void overridesSetTheAssumptions()
    {
        // Every figure of the goodput model is a scenario override (presets/README.md).
        const scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
        scenario::Scenario s
            = io::loadScenario(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json");
        s.overrides["reliability.storage_GBps"] = 500;
        s.overrides["reliability.job_restart_s"] = 120;
        s.overrides["reliability.checkpoint_interval_s"] = 1800;
        const scenario::PipelineResult r = scenario::runScenario(s, library, {});
        QVERIFY(r.ok() && r.goodput && r.goodput->valid);
        near(r.goodput->checkpointWrite_s, r.goodput->checkpoint_B / 500e9);
        near(r.goodput->restart_s, 120 + r.goodput->checkpoint_B / 500e9);
        near(r.goodput->interval_s, 1800);
        // Without failures only the checkpoints cost time: tau / (tau + delta).
        s.overrides["reliability.interruptions_per_gpu_hour"] = 0;
        const scenario::PipelineResult none = scenario::runScenario(s, library, {});
        near(none.goodput->goodput, 1800 / (1800 + none.goodput->checkpointWrite_s));
        // Asynchronous checkpoints: each GPU snapshots its share at PCIe 5.0 x16's 32 GT/s x 16
        // lanes x 128/130 / 8 bits = 63.015 GB/s, unless overridden.
        s.overrides.erase("reliability.interruptions_per_gpu_hour");
        s.overrides["reliability.async_checkpoint"] = 1;
        const scenario::PipelineResult async = scenario::runScenario(s, library, {});
        QVERIFY(async.ok() && async.goodput && async.goodput->asynchronous);
        near(async.goodput->checkpointStall_s, async.goodput->checkpoint_B / 4096 / 63.015384615384615e9);
        QVERIFY(async.goodput->goodput > r.goodput->goodput);
        s.overrides["reliability.snapshot_GBps"] = 10;
        near(scenario::runScenario(s, library, {}).goodput->checkpointStall_s,
             async.goodput->checkpoint_B / 4096 / 10e9);
        s.overrides["reliability.async_checkpoint"] = 0.5; // a switch: 0 or 1
        QVERIFY(!scenario::runScenario(s, library, {}).ok());
        s.overrides.erase("reliability.async_checkpoint");
        s.overrides.erase("reliability.snapshot_GBps");
        // A value out of range is a diagnostic naming the key.
        s.overrides["reliability.interruptions_per_gpu_hour"] = -1;
        const scenario::PipelineResult bad = scenario::runScenario(s, library, {});
        QVERIFY(!bad.ok() && !bad.goodput);
        QCOMPARE(QString::fromStdString(bad.diagnostics.front().field),
                 QStringLiteral("overrides/reliability.interruptions_per_gpu_hour"));
    }

    void cliPrintsItLast()
    {
        QProcess cli;
        cli.start(QStringLiteral(GAPSTUDIO_CLI),
                  { QStringLiteral("eval"), QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json"),
                    QStringLiteral("--cost"), QStringLiteral("--goodput") });
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        const QByteArray text = cli.readAllStandardOutput();
        const nlohmann::ordered_json out = nlohmann::ordered_json::parse(text.begin(), text.end());
        QCOMPARE(QString::fromStdString(out.items().begin().key()), QStringLiteral("block_fw_flops"));
        QCOMPARE(QString::fromStdString(std::prev(out.end()).key()), QStringLiteral("goodput"));
        const auto &g = out["goodput"];
        const double goodput = g["goodput"].get<double>();
        QVERIFY(goodput > 0 && goodput < 1);
        const double losses = g["losses"]["checkpoints"].get<double>()
                              + g["losses"]["lost_work"].get<double>()
                              + g["losses"]["restarts"].get<double>();
        near(losses, 1 - goodput, 1e-12);
        // The interruptions by cause add up to the job's rate, the inverse of its MTTI.
        double perHour = 0;
        for (const auto &cause : g["interruptions"])
            perHour += cause["per_hour"].get<double>();
        QCOMPARE(g["interruptions"].size(), std::size_t(6));
        near(perHour * g["mtti_hours"].get<double>(), 1, 1e-12);
        near(g["effective_usd_per_million_tokens"].get<double>(),
             out["cost"]["usd_per_million_tokens"].get<double>() / goodput, 1e-12);
        near(g["effective_mfu"].get<double>(), out["total_efficiency"].get<double>() * goodput, 1e-12);
    }

    void cliAsynchronousCheckpoints()
    {
        // A scenario file that turns asynchronous checkpoints on, as a user writes it.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        nlohmann::json scenario = defaultScenarioJson();
        QVERIFY(scenario.is_object());
        const auto evalGoodput = [&](const QString &path) {
            QProcess cli;
            cli.start(QStringLiteral(GAPSTUDIO_CLI),
                      { QStringLiteral("eval"), path, QStringLiteral("--goodput") });
            cli.waitForFinished(120000);
            const QByteArray text = cli.readAllStandardOutput();
            return std::make_pair(cli.exitCode(),
                                  nlohmann::json::parse(text.begin(), text.end(), nullptr, false));
        };
        const auto [syncCode, sync]
            = evalGoodput(QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json"));
        QCOMPARE(syncCode, 0);
        QCOMPARE(sync["goodput"]["assumptions"]["async_checkpoint"].get<bool>(), false);
        near(sync["goodput"]["checkpoint_stall_s"].get<double>(),
             sync["goodput"]["checkpoint_write_s"].get<double>());
        scenario["overrides"] = { { "reliability.async_checkpoint", 1 } };
        const QString path = dir.filePath(QStringLiteral("async.gapstudio.json"));
        {
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(QByteArray::fromStdString(scenario.dump(4)));
        }
        const auto [asyncCode, async] = evalGoodput(path);
        QCOMPARE(asyncCode, 0);
        const auto &g = async["goodput"];
        QCOMPARE(g["assumptions"]["async_checkpoint"].get<bool>(), true);
        // 4,096 GPUs each snapshot their share at PCIe 5.0 x16's 63.015 GB/s.
        near(g["checkpoint_stall_s"].get<double>(),
             g["checkpoint_bytes"].get<double>() / 4096 / 63.015384615384615e9, 1e-12);
        QVERIFY(g["checkpoint_interval_s"].get<double>() >= g["checkpoint_write_s"].get<double>());
        QVERIFY(g["goodput"].get<double>() > sync["goodput"]["goodput"].get<double>());
    }

    void storageBlock()
    {
        // A storage block sets the write and read bandwidths and, priced, joins the bill of
        // materials as one line: 2 M$ and 30 kW on top of the design without one.
        const scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
        scenario::Scenario s = io::loadScenario(PRESETS_DIR "/scenarios/default.gapstudio.json");
        const scenario::PipelineResult none = scenario::runScenario(s, library, {});
        QVERIFY(none.ok() && none.cost && none.goodput && none.cost->bom.complete());
        QVERIFY(!none.cost->bom.line("storage"));
        scenario::Storage fast;
        fast.info = { "test-fast", "Fast storage", "test" };
        fast.write_Bps = 500e9;
        fast.read_Bps = 1000e9;
        fast.price_USD = 2e6;
        fast.power_W = 30000;
        s.storage = { {}, fast };
        const scenario::PipelineResult with = scenario::runScenario(s, library, {});
        QVERIFY(with.ok() && with.cost && with.goodput && with.cost->bom.complete());
        const double B = with.goodput->checkpoint_B;
        near(B, none.goodput->checkpoint_B);
        near(with.goodput->checkpointWrite_s, B / 500e9);
        near(with.goodput->restart_s, 600 + B / 1000e9); // the restart estimate, then the read
        near(with.cost->capex_USD - none.cost->capex_USD, 2e6);
        near(with.cost->itPower_W - none.cost->itPower_W, 30000);
        QVERIFY(with.goodput->goodput < none.goodput->goodput); // slower than 2 TB/s
        // An override of the storage bandwidth wins over the block, both ways.
        s.overrides["reliability.storage_GBps"] = 100;
        const scenario::PipelineResult overridden = scenario::runScenario(s, library, {});
        near(overridden.goodput->checkpointWrite_s, B / 100e9);
        near(overridden.goodput->restart_s, 600 + B / 100e9);
        s.overrides.clear();
        // The shipped Tectonic has no public price: the $ figures say they leave it out.
        s.storage = { "llama3-tectonic", std::nullopt };
        const scenario::PipelineResult tectonic = scenario::runScenario(s, library, {});
        QVERIFY(tectonic.ok() && !tectonic.cost->bom.complete());
        QCOMPARE(tectonic.cost->bom.unpriced, std::vector<std::string> { "storage" });
        QVERIFY(QString::fromStdString(model::unpricedWarning(tectonic.cost->bom))
                    .contains(QStringLiteral("the checkpoint storage")));
        near(tectonic.goodput->goodput, none.goodput->goodput); // Llama 3's 2 TB/s, the default
        // A storage id the library lacks is a diagnostic naming the field.
        s.storage = { "no-such-storage", std::nullopt };
        const scenario::PipelineResult missing = scenario::runScenario(s, library, {});
        QVERIFY(!missing.ok());
        QCOMPARE(QString::fromStdString(missing.diagnostics.front().field), QStringLiteral("storage"));
    }

    void storageFiles()
    {
        // The preset format: written and read back unchanged, inline in a scenario too; a bandwidth
        // of 0 is an error naming file and key.
        scenario::Storage storage;
        storage.info = { "test-storage", "Test storage", "test" };
        storage.write_Bps = 123.4e9;
        storage.read_Bps = 500e9;
        storage.price_USD = 1.5e6;
        storage.power_W = 12000;
        QCOMPARE(io::parseStorage(io::toJson(storage), "storage.json"), storage);
        scenario::Storage unpriced = storage;
        unpriced.price_USD.reset();
        unpriced.power_W = 0;
        QCOMPARE(io::parseStorage(io::toJson(unpriced), "storage.json"), unpriced);
        scenario::Scenario s = io::loadScenario(PRESETS_DIR "/scenarios/default.gapstudio.json");
        s.storage = { {}, storage };
        QCOMPARE(io::parseScenario(io::toJson(s), "s.gapstudio.json"), s);
        nlohmann::json bad = io::toJson(storage);
        bad["write_GBps"] = 0;
        try {
            (void)io::parsePresetFile(bad, "bad.json");
            QFAIL("a storage block without write bandwidth was accepted");
        } catch (const io::InputError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("/write_GBps")), e.what());
        }
        // A user's storage block goes inline when the scenario is saved for another machine.
        scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
        const scenario::PresetLibrary shipped = library;
        library.storage["test-storage"] = storage;
        s.storage = { "test-storage", std::nullopt };
        const scenario::Scenario saved = scenario::withUnshippedBlocksInline(s, library, shipped);
        QVERIFY(saved.storage.inlineBlock && *saved.storage.inlineBlock == storage);
    }

    void interruptionRatesFromPresets()
    {
        // A GPU preset's HBM rate and the scale-out link preset's link rate replace the defaults;
        // an override wins over both.
        const scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
        scenario::Scenario s
            = io::loadScenario(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json");
        const scenario::PipelineResult before = scenario::runScenario(s, library, {});
        QVERIFY(before.ok() && before.goodput && !s.scaleOut.presetId.empty());
        scenario::Gpu gpu = library.gpus.at(s.gpu.presetId);
        gpu.reliability = scenario::PartFits { { { "hbm_fit", 5000 } }, "test: a vendor's HBM figure" };
        scenario::Interconnect link = library.interconnects.at(s.scaleOut.presetId);
        link.reliability = scenario::PartFits { { { "link_fit", 20 } }, "test" };
        s.gpu = { {}, gpu };
        s.scaleOut = { {}, link };
        const auto rate = [](const scenario::PipelineResult &r, const std::string &key) {
            for (const model::InterruptionSource &source : r.goodput->sources)
                if (source.key == key)
                    return std::make_pair(source.parts, source.perHour);
            return std::make_pair(0.0, 0.0);
        };
        const scenario::PipelineResult after = scenario::runScenario(s, library, {});
        QVERIFY(after.ok() && after.goodput);
        const auto [gpus, hbmPerHour] = rate(after, "hbm");
        near(hbmPerHour, gpus * 5000 / 1e9);
        const auto [links, linkPerHour] = rate(after, "link");
        QVERIFY(links > 0);
        near(linkPerHour, links * 20 / 1e9);
        near(rate(after, "gpu").second, rate(before, "gpu").second); // not given: the default
        s.overrides["reliability.hbm_fit"] = 100;
        near(rate(scenario::runScenario(s, library, {}), "hbm").second, gpus * 100 / 1e9);
        // The preset format keeps them, and refuses a rate of a part the block does not have.
        QCOMPARE(io::parseGpu(io::toJson(gpu), "gpu.json"), gpu);
        QCOMPARE(io::parseInterconnect(io::toJson(link), "link.json"), link);
        nlohmann::json bad = io::toJson(gpu);
        bad["reliability"]["link_fit"] = 3;
        try {
            (void)io::parsePresetFile(bad, "gpu.json");
            QFAIL("a GPU with a link rate was accepted");
        } catch (const io::InputError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("link_fit")), e.what());
        }
        bad = io::toJson(gpu);
        bad["reliability"] = { { "source", "nothing" } };
        QVERIFY_THROWS_EXCEPTION(io::InputError, (void)io::parsePresetFile(bad, "gpu.json"));
    }

    void cliHotSpares()
    {
        // A scenario file with servers repaired in two days, as a user writes it, with and
        // without 16 spare servers.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        nlohmann::json scenario = defaultScenarioJson();
        QVERIFY(scenario.is_object());
        const auto evalWith = [&](const nlohmann::json &overrides) {
            scenario["overrides"] = overrides;
            const QString path = dir.filePath(QStringLiteral("spares.gapstudio.json"));
            QFile out(path);
            out.open(QIODevice::WriteOnly);
            out.write(QByteArray::fromStdString(scenario.dump(4)));
            out.close();
            QProcess cli;
            cli.start(QStringLiteral(GAPSTUDIO_CLI), { QStringLiteral("eval"), path, QStringLiteral("--cost"),
                                                       QStringLiteral("--goodput") });
            cli.waitForFinished(120000);
            const QByteArray text = cli.readAllStandardOutput();
            return std::make_pair(cli.exitCode(),
                                  nlohmann::json::parse(text.begin(), text.end(), nullptr, false));
        };
        const auto [noneCode, none] = evalWith({ { "reliability.repair_hours", 48 } });
        const auto [sparesCode, spares]
            = evalWith({ { "reliability.repair_hours", 48 }, { "reliability.spare_servers", 16 } });
        const auto [atHandCode, atHand] = evalWith(nlohmann::json::object());
        QCOMPARE(noneCode, 0);
        QCOMPARE(sparesCode, 0);
        QCOMPARE(atHandCode, 0);
        const auto goodput
            = [](const nlohmann::json &out) { return out["goodput"]["goodput"].get<double>(); };
        QVERIFY(goodput(none) < goodput(spares) && goodput(spares) < goodput(atHand));
        QCOMPARE(spares["goodput"]["assumptions"]["spare_servers"].get<int>(), 16);
        near(spares["goodput"]["assumptions"]["repair_hours"].get<double>(), 48);
        QVERIFY(spares["goodput"]["spare_wait_s"].get<double>() > 0);
        QCOMPARE(atHand["goodput"]["spare_wait_s"].get<double>(), 0.0);
        // The spares' capital: 16 servers and their GPUs at the bill of materials' unit prices.
        const auto line = [](const nlohmann::json &out, const std::string &key) {
            for (const auto &l : out["cost"]["bill_of_materials"])
                if (l["part"] == key)
                    return l;
            return nlohmann::json();
        };
        const nlohmann::json gpus = line(spares, "gpus"), servers = line(spares, "servers");
        const double perServer = gpus["count"].get<double>() / servers["count"].get<double>();
        QCOMPARE(line(spares, "spares_servers")["count"].get<double>(), 16.0);
        QCOMPARE(line(spares, "spares_gpus")["count"].get<double>(), 16 * perServer);
        near(
            spares["cost"]["capex_usd"].get<double>() - atHand["cost"]["capex_usd"].get<double>(),
            16 * (perServer * gpus["unit_price_usd"].get<double>() + servers["unit_price_usd"].get<double>()),
            1e-12);
        // The shipped Tectonic storage named in the file: its id in the assumptions, and the $
        // figures marked incomplete for its missing price.
        scenario["storage"] = "llama3-tectonic";
        const auto [storageCode, storage] = evalWith(nlohmann::json::object());
        QCOMPARE(storageCode, 0);
        QCOMPARE(storage["goodput"]["assumptions"]["storage"].get<std::string>(),
                 std::string("llama3-tectonic"));
        QVERIFY(atHand["goodput"]["assumptions"]["storage"].is_null());
        QCOMPARE(storage["cost"]["complete"].get<bool>(), false);
        QVERIFY(storage["cost"]["unpriced"] == nlohmann::json::array({ "storage" }));
        QCOMPARE(line(storage, "storage")["count"].get<double>(), 1.0);
        scenario.erase("storage");
        // Out of range: a diagnostic naming the key, exit 2.
        QCOMPARE(evalWith({ { "reliability.spare_servers", 1.5 } }).first, 2);
        QCOMPARE(evalWith({ { "reliability.repair_hours", -1 } }).first, 2);
    }
};

QTEST_GUILESS_MAIN(tst_Goodput)
#include "tst_goodput.moc"
