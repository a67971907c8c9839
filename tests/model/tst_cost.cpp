// The cost model (model/cost.h): switch counts of fat trees against hand counts and Al-Fares et
// al. (SIGCOMM 2008), the bill of materials of small clusters counted by hand, and the cost
// formulas against hand-computed values.
#include "gapstudio/model/cost.h"

#include <QTest>

#include <cmath>

using namespace gapstudio::model;

namespace {

bool near(double a, double b, double relative = 1e-12)
{
    return std::fabs(a - b) <= relative * std::max(std::fabs(a), std::fabs(b));
}

#define QCOMPARE_NEAR(actual, expected)                                                                      \
    QVERIFY2(near((actual), (expected)),                                                                     \
             qPrintable(QStringLiteral("%1 vs %2").arg(actual, 0, 'g', 17).arg(expected, 0, 'g', 17)))

/// A link technology with figures that make every count visible in the prices.
LinkCost parts(double portSpeed_Gbps, std::int64_t radix)
{
    LinkCost c;
    c.portSpeed_bps = portSpeed_Gbps * 1e9;
    c.switchRadix = radix;
    c.switchPrice_USD = 1000;
    c.switchPower_W = 100;
    c.nicPrice_USD = 10;
    c.nicPower_W = 1;
    c.opticsPrice_USD = 2;
    c.opticsPower_W = 0.5;
    c.cablePrice_USD = 1;
    c.source = "test figures";
    return c;
}

} // namespace

class tst_Cost : public QObject {
    Q_OBJECT

private slots:
    void fatTreeCounts_data();
    void fatTreeCounts();
    void twoTierBom();
    void threeTierBom();
    void fullFlatBom();
    void partialDomainAndMissingFigures();
    void costFormulas();
    void facilityChargeAndIdlePower();
    void gapInDollarsSumsToRun();
};

void tst_Cost::fatTreeCounts_data()
{
    QTest::addColumn<qint64>("endpoints");
    QTest::addColumn<qint64>("planes");
    QTest::addColumn<qint64>("radix");
    QTest::addColumn<qint64>("levels");
    QTest::addColumn<double>("oversubscription");
    QTest::addColumn<QList<qint64>>("perLevel");
    QTest::addColumn<qint64>("links");
    // 8 GPUs x 18 NVLink ports on 64-port switches: one level, ceil(144 / 64) = 3 switches.
    QTest::newRow("one level, shared by planes")
        << 8LL << 18LL << 64LL << 0LL << 1.0 << QList<qint64> { 3 } << 144LL;
    // 128 GPUs, radix 64: leaves have 32 ports down and 32 up -> 128 / 32 = 4 leaves; 128 uplinks on
    // 64-port spines -> 2 spines. Links: 128 GPU-leaf + 128 leaf-spine.
    QTest::newRow("two-tier 128 GPUs radix 64")
        << 128LL << 1LL << 64LL << 0LL << 1.0 << QList<qint64> { 4, 2 } << 256LL;
    // Al-Fares et al. 2008 with k = 8: k^3/4 = 128 hosts, k^2/2 = 32 edge, 32 aggregation and
    // k^2/4 = 16 core switches (5k^2/4 = 80), 3 x 128 links.
    QTest::newRow("Al-Fares k=8") << 128LL << 1LL << 8LL << 3LL << 1.0 << QList<qint64> { 32, 32, 16 }
                                  << 384LL;
    // Three levels, 1024 GPUs, radix 64, spine 2:1: 1024 / 32 = 32 leaves; spines take
    // floor(64 x 2/3) = 42 down -> ceil(1024 / 42) = 25; 1024 / 2 = 512 uplinks -> 8 core.
    QTest::newRow("three-tier 2:1") << 1024LL << 1LL << 64LL << 3LL << 2.0 << QList<qint64> { 32, 25, 8 }
                                    << 2LL * 1024 + 512;
    // 3000 endpoints exceed two levels of radix 64 (2 x 32^2 = 2048): three levels are chosen.
    // ceil(3000 / 32) = 94 leaves, 94 spines, ceil(3000 / 64) = 47 core; two planes double all.
    QTest::newRow("levels chosen, two planes")
        << 3000LL << 2LL << 64LL << 0LL << 1.0 << QList<qint64> { 188, 188, 94 } << 2LL * 3 * 3000;
}

void tst_Cost::fatTreeCounts()
{
    QFETCH(qint64, endpoints);
    QFETCH(qint64, planes);
    QFETCH(qint64, radix);
    QFETCH(qint64, levels);
    QFETCH(double, oversubscription);
    QFETCH(QList<qint64>, perLevel);
    QFETCH(qint64, links);
    const FabricCount count = fatTree(endpoints, planes, radix, levels, oversubscription);
    QCOMPARE(QList<qint64>(count.switchesPerLevel.begin(), count.switchesPerLevel.end()), perLevel);
    qint64 total = 0;
    for (qint64 n : perLevel)
        total += n;
    QCOMPARE(count.switches, total);
    QCOMPARE(count.links, links);
    QCOMPARE(count.ports, endpoints * planes);
}

void tst_Cost::twoTierBom()
{
    // 128 GPUs in 16 servers of 8; scale-up: 18 NVLink ports per GPU (450 GB/s over 200 Gb/s ports)
    // on 64-port switches, 3 per domain; scale-out: one 400 Gb/s port per GPU (50 GB/s) on a
    // two-level fat tree of radix 64 (4 leaves + 2 spines, 256 links).
    ClusterSpec spec;
    spec.gpus = 128;
    spec.gpu = { 25000, 700, 8, 40000, 3000, "test" };
    spec.gpuHasCost = true;
    spec.scaleUpDomainSize = 8;
    spec.scaleUp = { 450e9, parts(200, 64), true, 0, 1 };
    spec.scaleOut = { 50e9, parts(400, 64), true, 0, 1 };
    const BillOfMaterials bom = billOfMaterials(spec);
    QCOMPARE(bom.servers, 16);
    QCOMPARE(bom.domains, 16);
    QCOMPARE(bom.scaleUp.switches, 16 * 3);
    QCOMPARE(bom.scaleUp.planes, 18);
    QCOMPARE(bom.scaleOut.switches, 6);
    QCOMPARE(bom.line("scale_out_nics")->count, 128.0);
    QCOMPARE(bom.line("scale_out_optics")->count, 2.0 * 256);
    QCOMPARE(bom.line("scale_out_cables")->count, 256.0);
    QCOMPARE(bom.line("scale_up_nics")->count, 128.0 * 18);
    // Capex: 128 x 25000 + 16 x 40000 + switches (48 + 6) x 1000 + NICs (2304 + 128) x 10
    // + optics 2 x (2304 + 256) x 2 + cables (2304 + 256) x 1.
    const double expected
        = 128 * 25000.0 + 16 * 40000.0 + 54 * 1000.0 + 2432 * 10.0 + 2 * 2560 * 2.0 + 2560 * 1.0;
    QCOMPARE_NEAR(bom.capex_USD(), expected);
    QVERIFY(bom.notes.empty());
}

void tst_Cost::threeTierBom()
{
    // 1024 GPUs, domains of 8, scale-out a three-level tree of radix 64 with a 2:1 spine:
    // 32 + 25 + 8 = 65 switches (the hand count of fatTreeCounts).
    ClusterSpec spec;
    spec.gpus = 1024;
    spec.gpu = { 1, 0, 8, 0, 0, "test" };
    spec.gpuHasCost = true;
    spec.scaleUpDomainSize = 8;
    spec.scaleUp = { 450e9, parts(200, 64), true, 0, 1 };
    spec.scaleOut = { 50e9, parts(400, 64), true, 3, 2 };
    const BillOfMaterials bom = billOfMaterials(spec);
    QCOMPARE(bom.scaleOut.switches, 65);
    QCOMPARE(bom.scaleOut.levels, 3);
    QCOMPARE(bom.line("scale_out_switches")->count, 65.0);
    QCOMPARE(bom.scaleUp.switches, 128 * 3);
}

void tst_Cost::fullFlatBom()
{
    // FullFlat: 4096 GPUs, each with 1600 GB/s of optics = 16 ports of 800 Gb/s, one plane per
    // port on 512-port switches: per plane 4096 / 256 = 16 leaves and 4096 / 512 = 8 spines, so
    // 16 x 24 = 384 switches and 16 x 2 x 4096 = 131072 links (262144 optical ends).
    ClusterSpec spec;
    spec.gpus = 4096;
    spec.gpu = { 1, 0, 4, 0, 0, "test" };
    spec.gpuHasCost = true;
    spec.scaleUpDomainSize = 64;
    spec.scaleUp = { 1600e9, parts(800, 512), true, 0, 1 };
    spec.scaleOut = { 1600e9, parts(800, 512), true, 0, 1 };
    const BillOfMaterials bom = billOfMaterials(spec);
    QCOMPARE(bom.scaleOut.planes, 16);
    QCOMPARE(bom.scaleOut.switches, 384);
    QCOMPARE(bom.line("scale_out_optics")->count, 262144.0);
    // Scale-up: 64 GPUs x 16 ports = 1024 ports on 512-port switches = 2 per domain, 64 domains.
    QCOMPARE(bom.domains, 64);
    QCOMPARE(bom.scaleUp.switches, 128);
}

void tst_Cost::partialDomainAndMissingFigures()
{
    // 100 GPUs in domains of 8: 12 full domains of 3 switches and one of 4 GPUs, whose 72 ports
    // need ceil(72 / 64) = 2: 38. Servers ceil(100 / 8) = 13. No scale-out figures: a note.
    ClusterSpec spec;
    spec.gpus = 100;
    spec.gpu = { 0, 700, 8, 0, 0, "" };
    spec.scaleUpDomainSize = 8;
    spec.scaleUp = { 450e9, parts(200, 64), true, 0, 1 };
    const BillOfMaterials bom = billOfMaterials(spec);
    QCOMPARE(bom.servers, 13);
    QCOMPARE(bom.scaleUp.switches, 38);
    QCOMPARE(bom.scaleOut.switches, 0);
    QCOMPARE(bom.notes.size(), std::size_t(3)); // no GPU price, no server figures, no scale-out figures
    QVERIFY(bom.line("scale_out_switches") == nullptr);
}

void tst_Cost::costFormulas()
{
    // 1000 GPUs at $10,000 and 700 W; 125 servers at $40,000 and 2000 W; nothing else.
    BillOfMaterials bom;
    bom.gpus = 1000;
    bom.servers = 125;
    bom.lines = { { "gpus", "GPUs", 1000, 10000, 700, "" }, { "servers", "Servers", 125, 40000, 2000, "" } };
    CostAssumptions a;
    a.usdPerKWh = 0.1;
    a.pue = 1.5;
    a.depreciationYears = 4;
    a.facilityUsdPerMWYear = 0;
    a.gpuIdlePowerFraction = 0.25;
    a.tokenBudget = 1e12;
    CostActivity act;
    act.tokensPerSecond = 2e5; // 1000 samples x 2000 tokens per 10 s step
    act.stepTime_s = 10;
    act.batchSamples = 1000;
    act.seqSize = 2000;
    act.gpuActivity = 0.6;
    const CostResult r = costOf(bom, act, a, 700);
    // GPUs: 1000 x 700 x (0.25 + 0.75 x 0.6) = 490 kW; servers 250 kW; IT 740 kW; x 1.5 = 1110 kW.
    QCOMPARE_NEAR(r.itPower_W, 740e3);
    QCOMPARE_NEAR(r.facilityPower_W, 1110e3);
    QCOMPARE_NEAR(r.megawatts, 1.11);
    // Capex $15M over 4 x 8766 h = 35064 h; energy 1110 kW x $0.1 = $111/h.
    const double capexPerHour = 15e6 / 35064.0;
    QCOMPARE_NEAR(r.capexUsdPerHour, capexPerHour);
    QCOMPARE_NEAR(r.energyUsdPerHour, 111.0);
    QCOMPARE_NEAR(r.clusterUsdPerHour, capexPerHour + 111.0);
    // 2e5 tokens/s = 7.2e8 tokens/h: $/M tokens = $/h / 720; J/token = 1.11e6 W / 2e5 = 5.55.
    QCOMPARE_NEAR(r.usdPerMillionTokens, (capexPerHour + 111.0) / 720.0);
    QCOMPARE_NEAR(r.joulesPerToken, 5.55);
    QCOMPARE_NEAR(r.tokensPerSecondPerMegawatt, 2e5 / 1.11);
    // 1e12 tokens = 5e5 steps of 10 s = 5e6 s; 1000 GPUs -> 1.3889e6 GPU-hours; 1.11 MW x 5e6 s.
    QCOMPARE_NEAR(r.runSeconds, 5e6);
    QCOMPARE_NEAR(r.gpuHours, 1000 * 5e6 / 3600);
    QCOMPARE_NEAR(r.runUsd, (capexPerHour + 111.0) * 5e6 / 3600);
    QCOMPARE_NEAR(r.runMegawattHours, 1.11 * 5e6 / 3600);
    // The $/hour breakdown sums to the total; capex of GPUs is 10/15 of the capex.
    double sum = 0;
    for (const CostShare &s : r.usdPerHour)
        sum += s.value;
    QCOMPARE_NEAR(sum, r.clusterUsdPerHour);
    QCOMPARE_NEAR(r.usdPerHour.front().value, 10e6 / 35064.0);
}

void tst_Cost::facilityChargeAndIdlePower()
{
    // One 1000 W GPU, idle fraction 0.5, activity 0: 500 W IT. A facility charge of $876,600 per
    // MW-year = $100 per MW-hour -> 0.0005 MW x 100 = $0.05/h. PUE 1 and free energy.
    BillOfMaterials bom;
    bom.gpus = 1;
    bom.lines = { { "gpus", "GPUs", 1, 0, 1000, "" } };
    CostAssumptions a;
    a.usdPerKWh = 0;
    a.pue = 1;
    a.gpuIdlePowerFraction = 0.5;
    a.facilityUsdPerMWYear = 876600;
    const CostResult r = costOf(bom, CostActivity {}, a, 1000);
    QCOMPARE_NEAR(r.itPower_W, 500.0);
    QCOMPARE_NEAR(r.facilityUsdPerHour, 0.05);
    QCOMPARE_NEAR(r.clusterUsdPerHour, 0.05);
    QCOMPARE(r.usdPerMillionTokens, 0.0); // no tokens: no per-token figures
}

void tst_Cost::gapInDollarsSumsToRun()
{
    EfficiencyGap gap;
    gap.mfu = 0.4;
    gap.losses = { { "tp", "TP communication", 0.35 }, { "bubble", "Pipeline bubble", 0.25 } };
    const std::vector<CostShare> shares = gapInDollars(gap, 1000);
    QCOMPARE(shares.size(), std::size_t(3));
    QCOMPARE_NEAR(shares[0].value, 400.0);
    QCOMPARE_NEAR(shares[1].value, 350.0);
    QCOMPARE_NEAR(shares[2].value, 250.0);
    // Failures take 0.04 of peak from the 0.4 MFU: goodput 0.36 / 0.4 = 0.9, so the run of the
    // budget costs 1000 / 0.9 = 1111.11 and failures the 111.11 over the failure-free 1000.
    gap.failures = 0.04;
    const std::vector<CostShare> withFailures = gapInDollars(gap, 1000);
    QCOMPARE(withFailures.size(), std::size_t(4));
    QCOMPARE(withFailures[1].key, std::string("failures"));
    QCOMPARE_NEAR(withFailures[1].value, 1000.0 / 9);
    double sum = 0;
    for (const CostShare &share : withFailures)
        sum += share.value;
    QCOMPARE_NEAR(sum, 1000 / 0.9);
}

QTEST_APPLESS_MAIN(tst_Cost)
#include "tst_cost.moc"
