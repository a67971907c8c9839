// Sweeps and sensitivity (model/sweep.h) on small cases: a sweep point is a single evaluation of
// that design; the tornado of a compute-bound design puts FLOPS first; variants and GPU-count
// sweeps agree with direct evaluation and search.
#include "../common/calculon_cases.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/model/sweep.h"

#include <QTest>

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

QTEST_GUILESS_MAIN(tst_Sweep)
#include "tst_sweep.moc"
