// Network tiers after a topology change (model/network_tiers.h), each expectation worked out by
// hand from the tier sizes: the degrees on each tier must fit it, the innermost parallelism
// (then TP, CP, ES, EP, expert DP, DP, PP) gets the innermost tier it fits in.
#include "gapstudio/model/network_tiers.h"

#include <QTest>

#include <initializer_list>
#include <utility>

using namespace gapstudio::model;

namespace {

/// A system whose tiers have the given sizes (tier 0 first); the first must be filled if `filled`.
System systemOf(std::initializer_list<std::int64_t> sizes, bool filled = false)
{
    System sys;
    for (std::int64_t size : sizes) {
        NetworkTier tier;
        tier.size = size;
        tier.mustBeFilled = filled && sys.networks.empty();
        sys.networks.push_back(tier);
    }
    return sys;
}

/// TP 8 on tier 0; PP 16 and DP 32 on tier 1: 4,096 GPUs on a two-tier design.
Execution denseLayout()
{
    Execution e;
    e.numProcs = 4096;
    e.tensorPar = 8;
    e.pipelinePar = 16;
    e.dataPar = 32;
    e.tensorParNet = 0;
    e.pipelineParNet = 1;
    e.dataParNet = 1;
    return e;
}

using Tiers = std::vector<std::int64_t>; // TP, PP, DP, and for MoE EP, ES, expert DP

Tiers tiersOf(const Execution &e)
{
    Tiers t { e.tensorParNet, e.pipelineParNet, e.dataParNet };
    if (e.modelMoE)
        t.insert(t.end(), { e.expertParNet, e.expertSliceNet, e.dataParExpNet });
    return t;
}

} // namespace

class tst_NetworkTiers : public QObject {
    Q_OBJECT

private slots:
    // A fitting layout is returned as it is.
    void aFittingLayoutIsKept()
    {
        const auto fitted
            = fitNetworkTiers(denseLayout(), systemOf({ 8, 4096 }, true), Features::corrected());
        QVERIFY(fitted);
        QCOMPARE(tiersOf(*fitted), (Tiers { 0, 1, 1 }));
    }

    // Two-tier to three-tier (domains of 8, leaves of 256, the spine 4,096): PP 16 x DP 32 = 512
    // does not fit a leaf. Among the tier-1 pair DP goes first (Megatron-Core's order) and fits
    // the leaf (32 <= 256); PP then needs 16 x 32 = 512 > 256 and goes to the spine.
    void twoTierLayoutOnThreeTiers()
    {
        const auto fitted
            = fitNetworkTiers(denseLayout(), systemOf({ 8, 256, 4096 }, true), Features::corrected());
        QVERIFY(fitted);
        QCOMPARE(tiersOf(*fitted), (Tiers { 0, 2, 1 }));
    }

    // Leaves of 512 hold both: PP 16 x DP 32 = 512 <= 512, both stay on tier 1.
    void bothFitALargerLeaf()
    {
        const auto fitted
            = fitNetworkTiers(denseLayout(), systemOf({ 8, 512, 4096 }, true), Features::corrected());
        QVERIFY(fitted);
        QCOMPARE(tiersOf(*fitted), (Tiers { 0, 1, 1 }));
    }

    // Three-tier to two-tier: tier 2 no longer exists; DP comes in to tier 1 beside PP.
    void threeTierLayoutOnTwoTiers()
    {
        Execution e = denseLayout();
        e.dataParNet = 2;
        const auto fitted = fitNetworkTiers(e, systemOf({ 8, 4096 }, true), Features::corrected());
        QVERIFY(fitted);
        QCOMPARE(tiersOf(*fitted), (Tiers { 0, 1, 1 }));
    }

    // A smaller scale-up domain (4 GPUs): TP 8 no longer fits tier 0 and moves out to tier 1,
    // where TP 8 x DP 32 = 256 fits a 256 leaf and PP goes to the spine.
    void tensorParallelismLeavesASmallDomain()
    {
        const auto fitted
            = fitNetworkTiers(denseLayout(), systemOf({ 4, 256, 4096 }, true), Features::corrected());
        QVERIFY(fitted);
        QCOMPARE(tiersOf(*fitted), (Tiers { 1, 2, 1 }));
    }

    // A tier that must be filled takes only degrees that divide it: TP 8 in a domain of 12
    // (12 % 8 != 0) goes out to tier 1 with DP.
    void aFilledTierNeedsADivisor()
    {
        const auto fitted
            = fitNetworkTiers(denseLayout(), systemOf({ 12, 4096 }, true), Features::corrected());
        QVERIFY(fitted);
        QCOMPARE(tiersOf(*fitted), (Tiers { 1, 1, 1 }));
    }

    // No mapping fits when the degrees outgrow the tiers: on tiers of 8 and 256, tier 0 takes
    // only TP 8 (any other degree times 8 exceeds 8, and alone PP 16 and DP 32 exceed it too), and
    // tier 1 cannot hold PP 16 x DP 32 = 512.
    void nothingFitsTooLargeALayout()
    {
        QVERIFY(!fitNetworkTiers(denseLayout(), systemOf({ 8, 256 }, true), Features::corrected()));
    }

    // MoE: each side is checked on its own. Attention side TP 2, PP 8, DP 64; expert side EP 16,
    // ES 2, PP 8, expert DP 4 (2 x 8 x 64 = 16 x 2 x 8 x 4 = 1,024), tiers of 8 (filled), 128 and
    // 1,024. Innermost first: TP, ES and EP (tier 0), then expert DP, DP and PP (tier 1).
    // TP 2 and ES 2 fit tier 0 (8 / 2); EP 16 does not (2 x 16 > 8) and goes to tier 1; expert
    // DP may not go inside EP, tier 1: 16 x 4 = 64; DP 64, tier 1 (attention side alone: 64);
    // PP 8 on tier 1 would make 64 x 8 = 512 > 128 on the attention side: the spine.
    void moeSidesAreCheckedApart()
    {
        Execution e;
        e.modelMoE = true;
        e.numProcs = 1024;
        e.tensorPar = 2;
        e.pipelinePar = 8;
        e.dataPar = 64;
        e.expertPar = 16;
        e.expertSlice = 2;
        e.dataParExp = 4;
        e.tensorParNet = 0;
        e.pipelineParNet = 1;
        e.dataParNet = 1;
        e.expertParNet = 0;
        e.expertSliceNet = 0;
        e.dataParExpNet = 1;
        const auto fitted = fitNetworkTiers(e, systemOf({ 8, 128, 1024 }, true), Features::corrected());
        QVERIFY(fitted);
        // TP, PP, DP, EP, ES, expert DP.
        QCOMPARE(tiersOf(*fitted), (Tiers { 0, 2, 1, 1, 0, 1 }));
    }
};

QTEST_APPLESS_MAIN(tst_NetworkTiers)
#include "tst_network_tiers.moc"
