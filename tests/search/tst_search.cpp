// The layout search reproduces the reference's searches (tests/data/calculon/loe, the commands
// of its COMMANDS.txt; tests/data/calculon-moe/search, the reduced legacy MoE search of its
// README): the same layouts in the same order (ties included), statistics within 1e-6, and for
// the upstream searches the same counts of configurations and valid ones.
#include "../common/calculon_cases.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/model/search_bounded.h"

#include <QTest>

#include <set>

using namespace gapstudio;

namespace {

std::string data(const std::string &path)
{
    return TEST_DATA_DIR "/" + path;
}

model::Application loadApp(const std::string &path)
{
    return io::parseApplication(io::readJsonFile(data(path)), path);
}

model::System loadSystem(const std::string &path)
{
    return io::parseSystem(io::readJsonFile(data(path)), path);
}

/// Compares one hit with the reference's {"execution", "stats"} entry; returns "" if equal.
std::string compare(const model::SearchHit &hit, const nlohmann::json &ref, bool moe)
{
    const nlohmann::json &e = ref["execution"];
    const model::Execution &x = hit.execution;
    static const char *recompute[] = {"none", "attn_only", "full"};
    static const char *comm[] = {"ar", "p2p_rs_ag", "rs_ag"};
    static const char *overlap[] = {"none", "ring", "pipe"};
    const bool same = e["tensor_par"] == x.tensorPar && e["pipeline_par"] == x.pipelinePar &&
                      e["data_par"] == x.dataPar && e["batch_size"] == x.batchSize &&
                      e["microbatch_size"] == x.microbatchSize && e["pipeline_interleaving"] == x.pipelineInterleaving &&
                      e["activation_recompute"] == recompute[static_cast<int>(x.activationRecompute)] &&
                      e["optimizer_sharding"] == x.optimizerSharding &&
                      e["tensor_par_comm_type"] == comm[static_cast<int>(x.tensorParCommType)] &&
                      e["tensor_par_overlap"] == overlap[static_cast<int>(x.tensorParOverlap)] &&
                      e["seq_par_ag_redo"] == x.seqParAgRedo && e["data_par_overlap"] == x.dataParOverlap &&
                      e["weight_offload"] == x.weightOffload && e["activations_offload"] == x.activationsOffload &&
                      e["optimizer_offload"] == x.optimizerOffload && e["fused_activation"] == x.fusedActivation &&
                      e["tensor_par_net"] == x.tensorParNet && e["pipeline_par_net"] == x.pipelineParNet &&
                      e["data_par_net"] == x.dataParNet &&
                      (!moe || (e["expert_par"] == x.expertPar && e["expert_slice"] == x.expertSlice &&
                                e["data_par_exp"] == x.dataParExp && e["expert_par_net"] == x.expertParNet &&
                                e["expert_slice_net"] == x.expertSliceNet && e["data_par_exp_net"] == x.dataParExpNet));
    if (!same)
        return "execution differs: " + e.dump();
    std::string bad;
    const auto check = [&](std::string_view key, double value) {
        const nlohmann::json &want = ref["stats"][std::string(key)];
        if (!want.is_null() && !test::withinTolerance(value, want.get<double>()))
            bad += std::string(key) + " ";
    };
    if (moe)
        hit.stats.forEachMoe(check);
    else
        hit.stats.forEach(check);
    return bad.empty() ? "" : "stats differ: " + bad;
}

} // namespace

class tst_Search : public QObject {
    Q_OBJECT

private slots:
    void upstream_data();
    void upstream();
    void moeLegacy();
    void deterministicWhateverTheThreads();
    void largeTopKeepsEveryValidLayoutInOrder();
    void divisorsOfLargeNumbers();
    void countStopsAtTheLimit();
    void boundedEqualsExhaustive_data();
    void boundedEqualsExhaustive();
    void correctedModelIsBounded();
};

void tst_Search::upstream_data()
{
    QTest::addColumn<QString>("modelPath");
    QTest::addColumn<QString>("systemPath");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<qint64>("procs");
    QTest::addColumn<qint64>("maxBatch");
    QTest::addColumn<QString>("datatype");
    QTest::addColumn<bool>("noOverlap");
    QTest::addColumn<qint64>("configurations");
    QTest::addColumn<qint64>("valid");
    // COMMANDS.txt of tests/data/calculon/loe (counts from the .log files).
    QTest::newRow("gpt3-175B 4096 a100 no mem2") << "calculon/cases/19_gpt3-175B_4096_a100_plain/model.json"
                                                << "calculon/systems_derived/a100_80g_nomem2.json"
                                                << "calculon/loe/loe_gpt3-175B_4096_a100nomem2_top5.json" << qint64(4096)
                                                << qint64(2048) << "float16" << true << qint64(77952) << qint64(14531);
    QTest::newRow("turing-530B 5128 a100") << "calculon/cases/05_val_turing-530B_full/model.json"
                                          << "calculon/cases/05_val_turing-530B_full/system.json"
                                          << "calculon/loe/loe_turing-530B_5128_a100_top10.json" << qint64(5128)
                                          << qint64(2520) << "float16" << false << qint64(8112) << qint64(1080);
    QTest::newRow("turing-530B 5128 h100 fp8") << "calculon/cases/05_val_turing-530B_full/model.json"
                                              << "calculon/cases/18_gpt3-175B_4096_h100_fp8/system.json"
                                              << "calculon/loe/loe_turing-530B_5128_h100fp8_top10.json" << qint64(5128)
                                              << qint64(2520) << "float8" << false << qint64(8832) << qint64(1760);
}

void tst_Search::upstream()
{
    QFETCH(QString, modelPath);
    QFETCH(QString, systemPath);
    QFETCH(QString, expected);
    QFETCH(qint64, procs);
    QFETCH(qint64, maxBatch);
    QFETCH(QString, datatype);
    QFETCH(bool, noOverlap);
    QFETCH(qint64, configurations);
    QFETCH(qint64, valid);
    const nlohmann::json reference = test::readJson(data(expected.toStdString()));
    model::SearchSpace space;
    space.numProcs = procs;
    space.maxBatchSize = maxBatch;
    space.datatype = *model::datatypeFromName(datatype.toStdString());
    space.mbsBreak = true;
    if (noOverlap) {
        space.tpOverlapVariants = false;
        space.dpOverlap = model::OverlapChoice::Off;
    }
    model::SearchOptions options;
    options.topN = reference.size();
    const model::SearchResult result =
        model::searchLayouts(loadApp(modelPath.toStdString()), loadSystem(systemPath.toStdString()), space, options);
    QCOMPARE(static_cast<qint64>(result.configurations), configurations);
    QCOMPARE(static_cast<qint64>(result.valid), valid);
    QCOMPARE(result.top.size(), reference.size());
    for (std::size_t i = 0; i < result.top.size(); ++i) {
        const std::string difference = compare(result.top[i], reference[std::to_string(i)], false);
        QVERIFY2(difference.empty(), qPrintable(QStringLiteral("rank %1: ").arg(i) + QString::fromStdString(difference)));
    }
}

void tst_Search::moeLegacy()
{
    // calculon-moe/search/legacy_..._Fullflat.json: TP comm type rs_ag only, DP overlap on only;
    // the reference also skipped mappings failing the tier-size check (here counted, not valid).
    const nlohmann::json reference = test::readJson(data("calculon-moe/search/legacy_gpt1.8T_4096_2048_float8_Fullflat.json"));
    model::SearchSpace space;
    space.numProcs = reference["num_procs"];
    space.maxBatchSize = reference["max_batch_size"];
    space.datatype = model::Datatype::Float8;
    space.moeExperts = reference["num_experts"];
    space.tpCommTypes = {model::TpCommType::RsAg};
    space.dpOverlap = model::OverlapChoice::On;
    model::SearchOptions options;
    options.topN = reference["top"].size();
    const model::SearchResult result = model::searchLayouts(
        loadApp("calculon-moe/cases/moe18_4096_fullflat_base/model.json"),
        loadSystem("calculon-moe/cases/moe18_4096_fullflat_base/system.json"), space, options);
    QCOMPARE(static_cast<qint64>(result.valid), reference["good"].get<qint64>());
    QCOMPARE(result.top.size(), reference["top"].size());
    for (std::size_t i = 0; i < result.top.size(); ++i) {
        const std::string difference = compare(result.top[i], reference["top"][i], true);
        QVERIFY2(difference.empty(), qPrintable(QStringLiteral("rank %1: ").arg(i) + QString::fromStdString(difference)));
    }
}

void tst_Search::deterministicWhateverTheThreads()
{
    model::SearchSpace space;
    space.numProcs = 5128;
    space.maxBatchSize = 2520;
    space.mbsBreak = true;
    const model::Application app = loadApp("calculon/cases/05_val_turing-530B_full/model.json");
    const model::System sys = loadSystem("calculon/cases/05_val_turing-530B_full/system.json");
    model::SearchOptions one;
    one.topN = 25;
    one.threads = 1;
    model::SearchOptions many = one;
    many.threads = 5;
    const model::SearchResult a = model::searchLayouts(app, sys, space, one);
    const model::SearchResult b = model::searchLayouts(app, sys, space, many);
    QCOMPARE(a.configurations, b.configurations);
    QCOMPARE(a.top.size(), b.top.size());
    for (std::size_t i = 0; i < a.top.size(); ++i) {
        QCOMPARE(a.top[i].index, b.top[i].index);
        QCOMPARE(a.top[i].score, b.top[i].score);
    }
    // Counting without evaluating agrees with the search (without -m).
    space.mbsBreak = false;
    QCOMPARE(model::countLayouts(app, sys, space), model::searchLayouts(app, sys, space, one).configurations);
}

void tst_Search::largeTopKeepsEveryValidLayoutInOrder()
{
    // "--top 100000 never ends" (a sorted vector took O(valid x N)). A top larger than
    // the valid layouts keeps them all: best first, ties in enumeration order, each once; and
    // its first entries are the small top's.
    model::SearchSpace space;
    space.numProcs = 1024;
    space.maxBatchSize = 32;
    space.datatype = model::Datatype::Float8;
    space.tpOverlapVariants = false;
    space.tpCommTypes = {model::TpCommType::RsAg};
    space.dpOverlap = model::OverlapChoice::Off;
    const model::Application app = loadApp("calculon/cases/18_gpt3-175B_4096_h100_fp8/model.json");
    const model::System sys = loadSystem("calculon/cases/18_gpt3-175B_4096_h100_fp8/system.json");
    model::SearchOptions all;
    all.topN = 100000;
    all.threads = 2;
    const model::SearchResult big = model::searchLayouts(app, sys, space, all);
    QVERIFY(big.valid > 10000 && big.valid < all.topN);
    QCOMPARE(big.top.size(), static_cast<std::size_t>(big.valid));
    std::set<std::uint64_t> seen;
    for (std::size_t i = 0; i < big.top.size(); ++i) {
        QVERIFY(seen.insert(big.top[i].index).second);
        QVERIFY(big.top[i].index < big.configurations);
        if (i > 0) {
            const model::SearchHit &a = big.top[i - 1], &b = big.top[i];
            QVERIFY(a.score > b.score || (a.score == b.score && a.index < b.index));
        }
    }
    model::SearchOptions few = all;
    few.topN = 7;
    const model::SearchResult small = model::searchLayouts(app, sys, space, few);
    QCOMPARE(small.top.size(), std::size_t{7});
    for (std::size_t i = 0; i < small.top.size(); ++i)
        QCOMPARE(small.top[i].index, big.top[i].index);
}

void tst_Search::divisorsOfLargeNumbers()
{
    // O(sqrt n): a prime near 1e12 (NUM_PROCS 999999999989 once took minutes) and 2^53.
    QCOMPARE(model::divisors(999999999989), (std::vector<std::int64_t>{1, 999999999989}));
    const std::vector<std::int64_t> powers = model::divisors(std::int64_t{1} << 53);
    QCOMPARE(powers.size(), std::size_t{54});
    for (std::size_t i = 0; i < powers.size(); ++i)
        QCOMPARE(powers[i], std::int64_t{1} << i);
    QCOMPARE(model::divisors(36), (std::vector<std::int64_t>{1, 2, 3, 4, 6, 9, 12, 18, 36}));
    QCOMPARE(model::divisors(1), (std::vector<std::int64_t>{1}));
}

void tst_Search::countStopsAtTheLimit()
{
    model::SearchSpace space;
    space.numProcs = 5128;
    space.maxBatchSize = 2520;
    const model::Application app = loadApp("calculon/cases/05_val_turing-530B_full/model.json");
    const model::System sys = loadSystem("calculon/cases/05_val_turing-530B_full/system.json");
    const std::uint64_t total = model::countLayouts(app, sys, space);
    QVERIFY(total > 1000);
    const std::uint64_t limited = model::countLayouts(app, sys, space, 1000);
    QVERIFY(limited > 1000 && limited <= total); // more than the limit: that is all it says
    QCOMPARE(model::countLayouts(app, sys, space, total), total);
}

void tst_Search::boundedEqualsExhaustive_data()
{
    QTest::addColumn<QString>("modelPath");
    QTest::addColumn<QString>("systemPath");
    QTest::addColumn<qint64>("procs");
    QTest::addColumn<qint64>("maxBatch");
    QTest::addColumn<QString>("datatype");
    QTest::addColumn<bool>("mbsBreak");
    QTest::addColumn<bool>("noOverlap");
    QTest::addColumn<qint64>("moeExperts");
    // The three reference searches of upstream() (with -m) ...
    QTest::newRow("gpt3-175B 4096 a100 no mem2") << "calculon/cases/19_gpt3-175B_4096_a100_plain/model.json"
                                                << "calculon/systems_derived/a100_80g_nomem2.json" << qint64(4096)
                                                << qint64(2048) << "float16" << true << true << qint64(0);
    QTest::newRow("turing-530B 5128 a100") << "calculon/cases/05_val_turing-530B_full/model.json"
                                          << "calculon/cases/05_val_turing-530B_full/system.json" << qint64(5128)
                                          << qint64(2520) << "float16" << true << false << qint64(0);
    QTest::newRow("turing-530B 5128 h100 fp8") << "calculon/cases/05_val_turing-530B_full/model.json"
                                              << "calculon/cases/18_gpt3-175B_4096_h100_fp8/system.json"
                                              << qint64(5128) << qint64(2520) << "float8" << true << false << qint64(0);
    // ... without -m (whole groups skipped), with every TP overlap, DP overlap and comm type ...
    QTest::newRow("gpt3-13B 16 a100, every variant") << "calculon/cases/12_gpt3-13B_tp4pp2dp4_a100_pipe/model.json"
                                                    << "calculon/systems_derived/a100_80g_nomem2.json" << qint64(16)
                                                    << qint64(32) << "float16" << false << false << qint64(0);
    // ... and moeLegacy()'s MoE search on fewer GPUs (sizes for CI under the sanitizers).
    QTest::newRow("moe gpt1.8T 128 fullflat") << "calculon-moe/cases/moe18_4096_fullflat_base/model.json"
                                             << "calculon-moe/cases/moe18_4096_fullflat_base/system.json"
                                             << qint64(128) << qint64(32) << "float8" << false << false << qint64(16);
}

void tst_Search::boundedEqualsExhaustive()
{
    // The bounded search (search_bound.h) must return the exhaustive search's top 100 exactly:
    // the same layouts with the same scores, ties in the same order. A bound that is not a
    // lower bound on the step time (say 1.5x too high) skips layouts of the top and fails here.
    QFETCH(QString, modelPath);
    QFETCH(QString, systemPath);
    QFETCH(qint64, procs);
    QFETCH(qint64, maxBatch);
    QFETCH(QString, datatype);
    QFETCH(bool, mbsBreak);
    QFETCH(bool, noOverlap);
    QFETCH(qint64, moeExperts);
    model::SearchSpace space;
    space.numProcs = procs;
    space.maxBatchSize = maxBatch;
    space.datatype = *model::datatypeFromName(datatype.toStdString());
    space.mbsBreak = mbsBreak;
    if (noOverlap) {
        space.tpOverlapVariants = false;
        space.dpOverlap = model::OverlapChoice::Off;
    }
    if (moeExperts > 0) { // moeLegacy()'s reduced space
        space.moeExperts = moeExperts;
        space.tpCommTypes = {model::TpCommType::RsAg};
        space.dpOverlap = model::OverlapChoice::On;
    }
    const model::Application app = loadApp(modelPath.toStdString());
    const model::System sys = loadSystem(systemPath.toStdString());
    model::SearchOptions options;
    options.topN = 100;
    options.threads = 2;
    const model::SearchResult all = model::searchLayouts(app, sys, space, options);
    const model::BoundedSearchResult bounded = model::searchLayoutsBounded(app, sys, space, options);
    const model::SearchResult &some = bounded.search;
    // The same enumeration (with -m, the microbatch loops stop at the same sizes) ...
    QCOMPARE(some.configurations, all.configurations);
    QCOMPARE(bounded.evaluated + bounded.skipped, some.configurations);
    // ... of which the bound skips some (with -m fewer: a skipped group is still evaluated until
    // one layout is valid, to stop the microbatch loop where the exhaustive search stops). How
    // many depends on which worker took which task (each raises the floor from its own top N), so
    // the count is taken on one worker, whose order is fixed: with two, a slow machine once split
    // the tasks so that neither worker's top filled before the last skippable group (0 skipped).
    model::SearchOptions oneWorker = options;
    oneWorker.threads = 1;
    const model::BoundedSearchResult alone = model::searchLayoutsBounded(app, sys, space, oneWorker);
    QCOMPARE(alone.search.configurations, all.configurations);
    QVERIFY2(alone.skipped > (mbsBreak ? 0 : some.configurations / 2),
             qPrintable(QStringLiteral("skipped %1 of %2").arg(alone.skipped).arg(some.configurations)));
    QVERIFY(all.top.size() == 100 || all.top.size() == all.valid);
    // ... and the same top 100, in the same order, at the same enumeration positions.
    QCOMPARE(some.top.size(), all.top.size());
    for (std::size_t i = 0; i < all.top.size(); ++i) {
        QCOMPARE(some.top[i].index, all.top[i].index);
        QCOMPARE(some.top[i].score, all.top[i].score);
        QCOMPARE(some.top[i].stats.total_time, all.top[i].stats.total_time);
        QCOMPARE(some.top[i].execution.microbatchSize, all.top[i].execution.microbatchSize);
        QCOMPARE(some.top[i].execution.tensorParNet, all.top[i].execution.tensorParNet);
    }
}

void tst_Search::correctedModelIsBounded()
{
    // The bound holds for the corrected model too (search_bound.cpp, points 6 and 7): with its
    // features (calibrated kernel times, here every GEMM at 0.95 of the peak, above the
    // reference's own tables, an overhead per block, embedding and head) the bounded search
    // skips layouts and returns the exhaustive search's top exactly, by sample rate and by MFU.
    // tst_search_corrected checks it on shipped designs, layout by layout.
    model::SearchSpace space;
    space.numProcs = 16;
    space.maxBatchSize = 32;
    space.datatype = model::Datatype::Float16;
    space.mbsBreak = false;
    const model::Application app = loadApp("calculon/cases/12_gpt3-13B_tp4pp2dp4_a100_pipe/model.json");
    const model::System sys = loadSystem("calculon/systems_derived/a100_80g_nomem2.json");
    model::SearchOptions options;
    options.topN = 50;
    options.threads = 2;
    options.features = model::Features::corrected();
    options.calibration.gemmEfficiency.fill(0.95);
    options.calibration.blockOverhead_s = 20e-6;
    for (const model::RankBy rankBy : { model::RankBy::SampleRate, model::RankBy::Mfu }) {
        space.rankBy = rankBy;
        const model::SearchResult all = model::searchLayouts(app, sys, space, options);
        const model::BoundedSearchResult bounded = model::searchLayoutsBounded(app, sys, space, options);
        QVERIFY(all.valid > 0);
        QVERIFY(bounded.skipped > all.configurations / 2);
        QCOMPARE(bounded.evaluated + bounded.skipped, all.configurations);
        QCOMPARE(bounded.search.top.size(), all.top.size());
        for (std::size_t i = 0; i < all.top.size(); ++i) {
            QCOMPARE(bounded.search.top[i].index, all.top[i].index);
            QCOMPARE(bounded.search.top[i].score, all.top[i].score);
            QCOMPARE(bounded.search.top[i].stats.total_time, all.top[i].stats.total_time);
        }
    }
}

QTEST_GUILESS_MAIN(tst_Search)
#include "tst_search.moc"
