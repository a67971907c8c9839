// Goodput under failures (model/goodput.h) against numbers derived by hand: Young's interval and
// Daly's expected wall time, the Llama 3 405B pre-training run (Dubey et al. 2024, section
// 3.3.4: 16,384 H100, 419 unexpected interruptions in 54 days, "higher than 90 %" effective
// training time; section 3.3.1: storage at 2 TB/s sustained), the checkpoint counted once over
// replicas, properties (never above 1, lower with more failures, larger checkpoints or longer
// restarts), asynchronous checkpoints (a snapshot over PCIe 5.0 x16, the write in the
// background), hot spares (a Poisson queue of servers in repair) by hand and in the bill of
// materials. The pipeline, the scenario's overrides and the CLI: tst_goodput_scenario.cpp.
#include "relative_near.h"

#include "gapstudio/model/cost.h"
#include "gapstudio/model/goodput.h"

#include <QTest>

#include <cmath>
#include <map>
#include <string>

using namespace gapstudio;

namespace {

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
        test::relativeNear(g.mtti_s, 10800);
        test::relativeNear(g.checkpointWrite_s, 60);
        test::relativeNear(g.restart_s, 300);
        test::relativeNear(g.interval_s, 1138.4199576606165);
        test::relativeNear(g.goodput, 0.8735972093609292, 1e-9);
        // The losses split 1 - goodput in the first-order proportions delta/(tau + delta) :
        // (tau + delta)/(2M) : R/M = 0.0500 : 0.0555 : 0.0278.
        test::relativeNear(g.checkpointShare + g.lostWorkShare + g.restartShare, 1 - g.goodput, 1e-12);
        test::relativeNear(g.checkpointShare / g.restartShare, (60 / 1198.4199576606165) / (300.0 / 10800),
                           1e-12);
        // A fixed interval replaces Young's.
        a.checkpointInterval_s = 3600;
        test::relativeNear(model::goodputOf(a, model::ReliabilityParts { .gpus = 1000 }, 60e9).interval_s,
                           3600);
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
        test::relativeNear(g.checkpointWrite_s, 60);
        test::relativeNear(g.checkpointStall_s, 0.03);
        test::relativeNear(g.restart_s, 300);
        test::relativeNear(g.rework_s, 60);
        test::relativeNear(g.interval_s, 60);
        test::relativeNear(g.goodput, 0.9640485116630186, 1e-9);
        // The split: delta/(tau + delta) : ((tau + delta)/2 + write)/M : R/M = 0.0005 : 0.0083 : 0.0278.
        test::relativeNear(g.checkpointShare + g.lostWorkShare + g.restartShare, 1 - g.goodput, 1e-12);
        test::relativeNear(g.lostWorkShare / g.restartShare, ((60.03 / 2 + 60) / 10800) / (300.0 / 10800),
                           1e-12);
        // A fixed interval longer than the write is kept: 10,800 e^(1/30) (e^(3,600.03/10,800) - 1) / 3,600.
        a.checkpointInterval_s = 3600;
        test::relativeNear(model::goodputOf(a, parts, 60e9).goodput, 0.8149445949684608, 1e-9);
        // One shorter than the write waits for it.
        a.checkpointInterval_s = 10;
        test::relativeNear(model::goodputOf(a, parts, 60e9).interval_s, 60);
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
        test::relativeNear(withoutRepairs, 0.8735972093609292, 1e-9); // a healthy server always at hand
        a.repair_s = 24 * 3600;
        const model::GoodputResult g = model::goodputOf(a, parts, 60e9);
        QVERIFY(g.valid);
        test::relativeNear(g.noSpareProbability, 0.3710888983704834, 1e-12);
        test::relativeNear(g.spareWait_s, 3026.810069381776, 1e-12);
        test::relativeNear(g.restart_s, 300); // the wait is its own term of R
        test::relativeNear(g.goodput, 0.6600787981057605, 1e-9);
        test::relativeNear(g.checkpointShare + g.lostWorkShare + g.restartShare, 1 - g.goodput, 1e-12);
        // No spare: every hardware failure waits the whole repair, 356/419 x 86,400 s.
        a.spareServers = 0;
        test::relativeNear(model::goodputOf(a, parts, 60e9).spareWait_s, 73409.0692124105, 1e-12);
        test::relativeNear(model::goodputOf(a, parts, 60e9).goodput, 0.0009757814638664987, 1e-9);
        // More spares, more goodput, up to the case of a server always at hand.
        double previous = 0;
        for (const std::int64_t spares : { 0, 1, 2, 4, 8, 16, 32 }) {
            a.spareServers = spares;
            const double goodput = model::goodputOf(a, parts, 60e9).goodput;
            QVERIFY2(goodput > previous && goodput < withoutRepairs, qPrintable(QString::number(spares)));
            previous = goodput;
        }
        a.spareServers = 1000;
        test::relativeNear(model::goodputOf(a, parts, 60e9).goodput, withoutRepairs, 1e-12);
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
        test::relativeNear(with.capex_USD() - without.capex_USD(), 24 * 30000.0 + 3 * 100000.0);
        model::CostAssumptions assumptions;
        assumptions.gpuIdlePowerFraction = 0.25;
        const model::CostActivity activity {
            .tokensPerSecond = 1e5, .stepTime_s = 1, .batchSamples = 64, .seqSize = 2048, .gpuActivity = 0.8
        };
        const model::CostResult before = model::costOf(without, activity, assumptions, 1000);
        const model::CostResult after = model::costOf(with, activity, assumptions, 1000);
        test::relativeNear(after.itPower_W - before.itPower_W, 24 * 1000 * 0.25 + 3 * 2000.0);
        double perHour = 0;
        for (const model::CostShare &share : after.usdPerHour)
            perHour += share.value;
        test::relativeNear(perHour, after.clusterUsdPerHour, 1e-12);
        QCOMPARE(after.usdPerHour.size(), before.usdPerHour.size() + 1);
        // The job's interruptions come from the job's parts, not the idle spares.
        test::relativeNear(model::reliabilityParts(with).gpus, 64);
        test::relativeNear(model::reliabilityParts(with).servers, 8);
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
        test::relativeNear(g.mtti_s, 11135.083532219569, 1e-12);
        test::relativeNear(g.interval_s, 251.26862841923773, 1e-12);
        test::relativeNear(g.goodput, 0.926084626059465, 1e-9);
        QVERIFY(g.goodput > 0.90);
        // Table 5's causes by part: GPUs 196, HBM 72, servers 46, adapters 7, links 35, software 63.
        const std::map<std::string, double> byCause = { { "gpu", 196 }, { "hbm", 72 },  { "server", 46 },
                                                        { "nic", 7 },   { "link", 35 }, { "software", 63 } };
        QCOMPARE(g.sources.size(), byCause.size());
        for (const model::InterruptionSource &s : g.sources)
            test::relativeNear(s.perHour * 54 * 24, byCause.at(s.key), 1e-12);
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
        test::relativeNear(model::checkpointBytes(exe, s), 1000);
        exe.optimizerSharding = false; // the optimizer state replicated too: 16 x (2.5 + 15) = 280
        test::relativeNear(model::checkpointBytes(exe, s), 280);
        // An MoE: replicas are counted over expert data parallelism (2): 16 x (5 + 30) = 560.
        exe.modelMoE = true;
        exe.dataParExp = 2;
        test::relativeNear(model::checkpointBytes(exe, s), 560);
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
};

QTEST_MAIN(tst_Goodput)
#include "tst_goodput.moc"
