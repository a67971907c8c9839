// Sweeps and sensitivity (model/sweep.h) on small cases: a sweep point is a single evaluation of
// that design; the tornado of a compute-bound design puts FLOPS first; variants and GPU-count
// sweeps agree with direct evaluation and search.
#include "../common/calculon_cases.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/model/sweep.h"

#include <QTest>

#include <map>

using namespace gapstudio;

namespace {

model::Design design(const char *caseName)
{
    const std::string dir = TEST_DATA_DIR "/calculon/cases/" + std::string(caseName) + "/";
    const io::CalculonInputs in = io::loadCalculonInputs(dir + "model.json", dir + "execution.json", dir + "system.json");
    return {in.application, in.execution, in.system};
}

bool sameStats(const model::Stats &a, const model::Stats &b)
{
    bool same = true;
    const auto bs = test::statsByName(b);
    a.forEach([&](std::string_view k, double v) {
        const double w = bs.at(std::string(k));
        if (!(std::isnan(v) && std::isnan(w)) && v != w)
            same = false;
    });
    return same;
}

/// Every number of a design by name (a test-side list, independent of sweep.cpp): the fields
/// scaled() may touch and those it must not.
std::map<std::string, double> numbers(const model::Design &d)
{
    std::map<std::string, double> out;
    const auto table = [&](const std::string &name, const model::EfficiencyTable &t) {
        for (std::size_t i = 0; i < t.rows.size(); ++i) {
            out[name + "/" + std::to_string(i) + "/threshold"] = t.rows[i].first;
            out[name + "/" + std::to_string(i) + "/efficiency"] = t.rows[i].second;
        }
    };
    for (std::size_t i = 0; i < model::kDatatypeCount; ++i) {
        for (const auto &[engines, name] :
             { std::pair { &d.system.matrix, "matrix" }, std::pair { &d.system.vector, "vector" } }) {
            if (const auto &e = (*engines)[i]) {
                const std::string key = std::string(name) + "/" + std::to_string(i);
                out[key + "/peak"] = e->peak_flops;
                table(key, e->efficiency);
            }
        }
    }
    for (const auto &[mem, name] :
         { std::pair { &d.system.mem1, "mem1" }, std::pair { &d.system.mem2, "mem2" } }) {
        out[std::string(name) + "/capacity"] = mem->capacity_B;
        out[std::string(name) + "/bandwidth"] = mem->bandwidth_Bps;
        table(name, mem->efficiency);
    }
    for (std::size_t i = 0; i < d.system.networks.size(); ++i) {
        const model::NetworkTier &n = d.system.networks[i];
        const std::string key = "net" + std::to_string(i);
        out[key + "/bandwidth"] = n.bandwidth_Bps;
        out[key + "/efficiency"] = n.efficiency;
        out[key + "/size"] = static_cast<double>(n.size);
        out[key + "/latency"] = n.latency_s;
        out[key + "/processor_usage"] = n.processorUsage;
        for (const auto &[op, name] : { std::pair { &n.p2p, "p2p" }, std::pair { &n.reduceScatter, "rs" },
                                        std::pair { &n.allGather, "ag" }, std::pair { &n.allReduce, "ar" },
                                        std::pair { &n.allToAll, "a2a" } }) {
            out[key + "/" + name + "/scalar"] = op->scalar;
            out[key + "/" + name + "/offset"] = op->offset;
            out[key + "/" + name + "/efficiency"] = op->efficiency;
        }
    }
    const model::Application &a = d.application;
    for (const auto &[name, value] :
         { std::pair { "hidden", a.hidden }, std::pair { "feedforward", a.feedforward },
           std::pair { "seq", a.seqSize }, std::pair { "heads", a.attnHeads },
           std::pair { "blocks", a.numBlocks } })
        out[std::string("app/") + name] = static_cast<double>(value);
    const model::Execution &e = d.execution;
    for (const auto &[name, value] :
         { std::pair { "tp", e.tensorPar }, std::pair { "pp", e.pipelinePar }, std::pair { "dp", e.dataPar },
           std::pair { "batch", e.batchSize }, std::pair { "mbs", e.microbatchSize },
           std::pair { "procs", e.numProcs } })
        out[std::string("exe/") + name] = static_cast<double>(value);
    return out;
}

/// Case 18 with a third network tier (a copy of tier 1 at a different bandwidth), so that "the
/// last tier" and "tier 1" are different tiers.
model::Design threeTierDesign()
{
    model::Design d = design("18_gpt3-175B_4096_h100_fp8");
    model::NetworkTier spine = d.system.networks.back();
    spine.bandwidth_Bps /= 4;
    spine.latency_s *= 3;
    d.system.networks.push_back(spine);
    return d;
}

} // namespace

class tst_Sweep : public QObject {
    Q_OBJECT

private slots:
    void pointEqualsSingleEvaluation_data();
    void pointEqualsSingleEvaluation();
    void computeBoundPutsFlopsFirst();
    void moreBandwidthNeverHurts();
    void variants();
    void fullFlatVariantIsThePapersFullflat();
    void gpuCountSweepUsesTheBestLayout();
    void scaledChangesExactlyItsField_data();
    void scaledChangesExactlyItsField();
    void sweepPointsAreTheScaledValues();
    void sensitivityFlagsAParameterThatDidNotMove();
};

void tst_Sweep::pointEqualsSingleEvaluation_data()
{
    QTest::addColumn<int>("parameter");
    for (model::HardwareParameter p : model::kHardwareParameters)
        QTest::newRow(model::parameterKey(p)) << static_cast<int>(p);
}

void tst_Sweep::pointEqualsSingleEvaluation()
{
    QFETCH(int, parameter);
    const auto p = static_cast<model::HardwareParameter>(parameter);
    const model::Design d = design("18_gpt3-175B_4096_h100_fp8");
    const std::vector<model::SweepPoint> points = model::sweepParameter(d, p, {0.5, 1.0, 2.0});
    QCOMPARE(points.size(), std::size_t{3});
    const model::Evaluation direct = model::evaluate(d.application, d.execution, d.system);
    QVERIFY(points[1].evaluation.ok);
    QVERIFY(sameStats(points[1].evaluation.stats, direct.stats));
    QCOMPARE(points[1].x, model::parameterValue(d, p));
    // The doubled point is the evaluation of the design with the parameter doubled.
    const model::Design twice = model::scaled(d, p, 2.0);
    QCOMPARE(points[2].x, model::parameterValue(twice, p));
    const model::Evaluation doubled = model::evaluate(twice.application, twice.execution, twice.system);
    QCOMPARE(points[2].evaluation.ok, doubled.ok);
    QVERIFY(sameStats(points[2].evaluation.stats, doubled.stats));
}

void tst_Sweep::computeBoundPutsFlopsFirst()
{
    // Case 01: megatron-22B on one 8-GPU NVLink node, compute time is ~55% of the step and no
    // tier-1 traffic: FLOPS must buy the most, with a negative elasticity of step time.
    const model::Design d = design("01_val_megatron-22B_full");
    const std::vector<model::Elasticity> tornado = model::sensitivity(d);
    QCOMPARE(tornado.size(), std::size(model::kHardwareParameters));
    QCOMPARE(tornado.front().parameter, model::HardwareParameter::PeakFlops);
    QVERIFY(tornado.front().valid);
    QVERIFY(tornado.front().stepTime < -0.3);
    QVERIFY(tornado.front().stepTime > -1.0);
    // Scale-out bandwidth does not matter here (everything is on tier 0).
    for (const model::Elasticity &e : tornado)
        if (e.parameter == model::HardwareParameter::ScaleOutBandwidth)
            QVERIFY(std::fabs(e.stepTime) < 1e-9);
}

void tst_Sweep::moreBandwidthNeverHurts()
{
    const model::Design d = design("19_gpt3-175B_4096_a100_plain");
    for (model::HardwareParameter p : {model::HardwareParameter::HbmBandwidth, model::HardwareParameter::ScaleUpBandwidth,
                                       model::HardwareParameter::ScaleOutBandwidth}) {
        const std::vector<model::SweepPoint> points = model::sweepParameter(d, p, {0.5, 1, 2, 4});
        for (std::size_t i = 1; i < points.size(); ++i)
            QVERIFY(points[i].evaluation.stats.total_time <= points[i - 1].evaluation.stats.total_time);
    }
}

void tst_Sweep::variants()
{
    const model::Design d = design("18_gpt3-175B_4096_h100_fp8");
    const std::vector<model::SweepPoint> v = model::sweepVariants(d);
    const auto find = [&](const std::string &label) -> const model::SweepPoint & {
        for (const model::SweepPoint &p : v)
            if (p.label == label)
                return p;
        qFatal("variant %s missing", label.c_str());
    };
    QVERIFY(find("hardware collectives").evaluation.stats.total_time < find("software collectives").evaluation.stats.total_time);
    QVERIFY(find("overlap on").evaluation.stats.total_time < find("overlap off").evaluation.stats.total_time);
    // The scale-out tier at NVLink bandwidth: a faster step (PP and DP traffic are on tier 1).
    QVERIFY(find("full-flat fabric").evaluation.stats.total_time < find("as designed").evaluation.stats.total_time);
    // h100_80g_nvl8 has float16 and float8, no float4.
    QVERIFY(find("float8").evaluation.stats.total_time < find("float16").evaluation.stats.total_time);
    for (const model::SweepPoint &p : v)
        QVERIFY(p.label != "float4");
    QVERIFY(sameStats(find("as designed").evaluation.stats, model::evaluate(d.application, d.execution, d.system).stats));
}

void tst_Sweep::fullFlatVariantIsThePapersFullflat()
{
    // The paper's TwoTiered_HBD64 and Fullflat systems differ only in the scale-out bandwidth:
    // the full-flat variant of the HBD64 design is the Fullflat design.
    const auto moe = [](const char *name) {
        const std::string dir = TEST_DATA_DIR "/calculon-moe/cases/" + std::string(name) + "/";
        const io::CalculonInputs in = io::loadCalculonInputs(dir + "model.json", dir + "execution.json", dir + "system.json");
        return std::pair{model::Design{in.application, in.execution, in.system}, in.referenceQuirks()};
    };
    const auto [hbd64, quirks] = moe("moe18_4096_hbd64_base");
    const auto [fullflat, unused] = moe("moe18_4096_fullflat_base");
    model::EvaluateOptions options;
    options.quirks = quirks;
    const std::vector<model::SweepPoint> v = model::sweepVariants(hbd64, options);
    const auto flat = std::find_if(v.begin(), v.end(), [](const model::SweepPoint &p) { return p.label == "full-flat fabric"; });
    QVERIFY(flat != v.end());
    const model::Evaluation direct = model::evaluate(fullflat.application, fullflat.execution, fullflat.system, options);
    QVERIFY(test::withinTolerance(flat->evaluation.stats.total_time, direct.stats.total_time, 1e-12));
}

void tst_Sweep::gpuCountSweepUsesTheBestLayout()
{
    const model::Design d = design("05_val_turing-530B_full");
    model::SearchSpace space;
    space.maxBatchSize = 2520;
    space.mbsBreak = true;
    space.tpOverlapVariants = false;
    space.dpOverlap = model::OverlapChoice::Off;
    model::SearchOptions options;
    const std::vector<model::SweepPoint> points = model::sweepGpuCount(d.application, d.system, space, {280, 560}, options);
    QCOMPARE(points.size(), std::size_t{2});
    for (const model::SweepPoint &p : points) {
        QVERIFY(p.evaluation.ok && p.layout);
        space.numProcs = static_cast<std::int64_t>(p.x);
        const model::SearchResult best = model::searchLayouts(d.application, d.system, space, options);
        QCOMPARE(p.evaluation.stats.sample_rate, best.top.front().stats.sample_rate);
        QCOMPARE(p.layout->numProcs, space.numProcs);
    }
    QVERIFY(points[1].evaluation.stats.sample_rate > points[0].evaluation.stats.sample_rate);
}

void tst_Sweep::scaledChangesExactlyItsField_data()
{
    // The fields each parameter names (sweep.h): scale-up = tier 0, scale-out = the last tier.
    QTest::addColumn<int>("parameter");
    QTest::addColumn<QStringList>("changed");
    const auto row = [](model::HardwareParameter p, QStringList changed) {
        QTest::newRow(model::parameterKey(p)) << static_cast<int>(p) << changed;
    };
    row(model::HardwareParameter::PeakFlops,
        { "matrix/0/peak", "matrix/1/peak", "vector/0/peak", "vector/1/peak" });
    row(model::HardwareParameter::HbmBandwidth, { "mem1/bandwidth" });
    row(model::HardwareParameter::HbmCapacity, { "mem1/capacity" });
    row(model::HardwareParameter::ScaleUpBandwidth, { "net0/bandwidth" });
    row(model::HardwareParameter::ScaleOutBandwidth, { "net2/bandwidth" });
    row(model::HardwareParameter::NetworkLatency, { "net0/latency", "net1/latency", "net2/latency" });
    row(model::HardwareParameter::ScaleUpDomainSize, { "net0/size" });
}

void tst_Sweep::scaledChangesExactlyItsField()
{
    QFETCH(int, parameter);
    QFETCH(QStringList, changed);
    const auto p = static_cast<model::HardwareParameter>(parameter);
    const model::Design d = threeTierDesign();
    const std::map<std::string, double> before = numbers(d);
    const std::map<std::string, double> after = numbers(model::scaled(d, p, 2.0));
    QCOMPARE(after.size(), before.size());
    // Case 18's system (h100_80g_nvl8) has float8 (index 0) and float16 (index 1) engines only.
    QVERIFY(before.contains("matrix/0/peak") && before.contains("matrix/1/peak")
            && !before.contains("matrix/2/peak"));
    for (const auto &[key, value] : before) {
        const double expected = changed.contains(QString::fromStdString(key)) ? 2 * value : value;
        QVERIFY2(after.at(key) == expected, qPrintable(QStringLiteral("%1: %2 -> %3")
                                                           .arg(QString::fromStdString(key))
                                                           .arg(value)
                                                           .arg(after.at(key))));
    }
}

void tst_Sweep::sweepPointsAreTheScaledValues()
{
    // x of each point is the parameter's value in SI units, times the factor.
    const model::Design d = threeTierDesign();
    const std::vector<model::SweepPoint> hbm
        = model::sweepParameter(d, model::HardwareParameter::HbmBandwidth, { 0.5, 3 });
    QCOMPARE(hbm[0].x, 0.5 * 3072e9); // h100_80g_nvl8: mem1 GBps 3072
    QCOMPARE(hbm[1].x, 3 * 3072e9);
    const std::vector<model::SweepPoint> out
        = model::sweepParameter(d, model::HardwareParameter::ScaleOutBandwidth, { 2 });
    QCOMPARE(out[0].x, 2 * d.system.networks[2].bandwidth_Bps);
    QVERIFY(out[0].x != 2 * d.system.networks[1].bandwidth_Bps);
    const std::vector<model::SweepPoint> up
        = model::sweepParameter(d, model::HardwareParameter::ScaleUpBandwidth, { 2 });
    QCOMPARE(up[0].x, 2 * 450e9); // tier 0: NVLink, 450 GB/s
}

void tst_Sweep::sensitivityFlagsAParameterThatDidNotMove()
{
    // A domain of 8 GPUs scaled by 1 +- 1 % rounds back to 8: there is no elasticity to report,
    // and 0 (what a 1 % change of an irrelevant parameter gives) would be a wrong answer.
    const model::Design d = design("01_val_megatron-22B_full");
    QCOMPARE(d.system.networks.front().size, std::int64_t { 8 });
    bool seen = false;
    for (const model::Elasticity &e : model::sensitivity(d)) {
        if (e.parameter != model::HardwareParameter::ScaleUpDomainSize) {
            QVERIFY(e.moved);
            continue;
        }
        seen = true;
        QVERIFY(!e.valid);
        QVERIFY(!e.moved);
    }
    QVERIFY(seen);
}

QTEST_GUILESS_MAIN(tst_Sweep)
#include "tst_sweep.moc"
