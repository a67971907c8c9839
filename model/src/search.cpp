// Layout search over the space of the reference's `llm-optimal-execution` (Calculon caa4b11,
// calculon-model.md §9). The outer loops (steps 1-5) make tasks, as the reference's worker pool
// does; tasks run on all cores and their results are merged in task order, so ties keep the
// reference's enumeration order whatever the thread count.
#include "gapstudio/model/search.h"

#include <algorithm>
#include <array>
#include <thread>

namespace gapstudio::model {

namespace {

using I = std::int64_t;

/// One worker task: the reference's `search()` arguments (steps 1-5).
struct Task {
    I tp, pp, dp, interleaving, batch;
    Recompute recompute;
    bool sharding;
    TpCommType commType;
    I ep = 1, es = 1, dpExp = 1; // MoE search only
};

std::vector<I> interleavings(I blocks, I pp)
{
    return pp == 1 ? std::vector<I>{1} : divisors(blocks / pp);
}

/// calculon-MoE's legacy search outer loops (its `optimal_execution_MoE.py`): EP = E, TP over the
/// divisors of N/EP that divide h and the heads, ES = TP, PP over the divisors of
/// min(N/(TP*EP), L), DP = N/(PP*TP), expert DP = N/(TP*EP*PP), recompute none/full/attn_only.
std::vector<Task> makeMoeTasks(const Application &app, const SearchSpace &space)
{
    std::vector<Task> tasks;
    const I n = space.numProcs;
    const I ep = space.moeExperts;
    if (n % ep != 0)
        return tasks;
    for (I tp : divisors(n / ep)) {
        if (app.hidden % tp != 0 || app.attnHeads % tp != 0)
            continue;
        for (I pp : divisors(std::min(n / (tp * ep), app.numBlocks))) {
            if (n % (tp * ep * pp) != 0 || app.numBlocks % pp != 0)
                continue;
            const I dp = n / pp / tp;
            if (dp > space.maxBatchSize)
                continue;
            const I batch = space.maxBatchSize / dp * dp;
            for (I v : interleavings(app.numBlocks, pp))
                for (Recompute r : {Recompute::None, Recompute::Full, Recompute::AttnOnly})
                    for (bool sharding : dp > 1 ? std::vector<bool>{true, false} : std::vector<bool>{false})
                        for (TpCommType c : space.tpCommTypes)
                            tasks.push_back({tp, pp, dp, v, batch, r, sharding, c, ep, tp, n / tp / ep / pp});
        }
    }
    return tasks;
}

std::vector<Task> makeTasks(const Application &app, const SearchSpace &space)
{
    if (space.moeExperts > 0)
        return makeMoeTasks(app, space);
    std::vector<Task> tasks;
    const I n = space.numProcs;
    for (I tp : divisors(n)) {
        if (app.hidden % tp != 0 || app.attnHeads % tp != 0)
            continue;
        for (I pp : divisors(std::min(n / tp, app.numBlocks))) {
            if (n % (tp * pp) != 0 || app.numBlocks % pp != 0)
                continue;
            const I dp = n / (tp * pp);
            if (dp > space.maxBatchSize)
                continue;
            const I batch = space.maxBatchSize / dp * dp; // largest multiple of dp
            for (I v : interleavings(app.numBlocks, pp))
                for (Recompute r : {Recompute::Full, Recompute::AttnOnly, Recompute::None})
                    for (bool sharding : dp > 1 ? std::vector<bool>{true, false} : std::vector<bool>{false})
                        for (TpCommType c : space.tpCommTypes)
                            tasks.push_back({tp, pp, dp, v, batch, r, sharding, c});
        }
    }
    return tasks;
}

struct TaskResult {
    std::uint64_t configurations = 0;
    std::uint64_t valid = 0;
    std::vector<SearchHit> top;
};

/// Keeps the best `n` hits, best first; a later hit with an equal score goes after the
/// earlier ones (the reference's stable sort).
void offer(std::vector<SearchHit> &top, std::size_t n, SearchHit &&hit)
{
    if (top.size() == n && !(hit.score > top.back().score))
        return;
    const auto at = std::upper_bound(top.begin(), top.end(), hit.score,
                                     [](double score, const SearchHit &h) { return score > h.score; });
    top.insert(at, std::move(hit));
    if (top.size() > n)
        top.pop_back();
}

template <typename T> std::vector<T> pick(bool condition, std::vector<T> yes, std::vector<T> no)
{
    return condition ? yes : no;
}

/// Step 6: the executions of one task, in the reference's loop order. `visit(execution)`
/// returns whether the execution was valid; with -m a microbatch size without any valid
/// network mapping ends the microbatch loop.
std::vector<bool> overlapChoices(bool possible, OverlapChoice choice)
{
    if (!possible || choice == OverlapChoice::Off)
        return {false};
    return choice == OverlapChoice::On ? std::vector<bool>{true} : std::vector<bool>{true, false};
}

/// Step 6: the executions of one task, in the reference's loop order. `visit(execution)`
/// returns whether the execution was valid; with -m a microbatch size without any valid
/// network mapping ends the microbatch loop. The MoE search also maps DPe, EP and ES onto tiers
/// and has no offloading or all-gather redo.
template <typename Visit>
void forEachExecution(const Application &app, const System &sys, const SearchSpace &space, const Task &t,
                      bool mbsBreak, Visit &&visit)
{
    const bool moe = space.moeExperts > 0;
    const bool mem2 = !moe && sys.mem2.capacity_B > 0;
    const I nets = static_cast<I>(sys.networks.size());
    const bool canRedo = !moe && t.commType == TpCommType::RsAg && t.recompute != Recompute::Full;
    const std::vector<bool> tf = {true, false};
    const std::vector<bool> f = {false};
    std::vector<bool> fused;
    if (space.fused != FusedActivationChoice::False)
        fused.push_back(true);
    if (space.fused != FusedActivationChoice::True)
        fused.push_back(false);
    std::vector<I> microbatches;
    for (I mbs : divisors(t.batch / t.dp))
        if (mbs * app.seqSize % t.tp == 0)
            microbatches.push_back(mbs);
    std::vector<TpOverlap> overlaps{TpOverlap::None};
    if (t.tp > 1 && space.tpOverlap)
        overlaps = {*space.tpOverlap};
    else if (t.tp > 1 && space.tpOverlapVariants)
        overlaps = {TpOverlap::None, TpOverlap::Ring, TpOverlap::Pipe};
    const auto tiers = [nets](I degree) { return degree > 1 ? nets : 1; };
    Execution e = space.base.value_or(Execution {});
    e.numProcs = space.numProcs;
    e.tensorPar = t.tp;
    e.pipelinePar = t.pp;
    e.dataPar = t.dp;
    e.batchSize = t.batch;
    e.datatype = space.datatype;
    e.attentionType = space.attentionType.value_or(AttentionType::MultiHead);
    e.activationFunction = space.activationFunction.value_or(ActivationFunction::Gelu);
    e.activationRecompute = t.recompute;
    e.pipelineInterleaving = t.interleaving;
    e.optimizerSharding = t.sharding;
    e.tensorParCommType = t.commType;
    e.training = true;
    if (moe) {
        e.modelMoE = space.moeExperts > 1;
        e.numExperts = space.moeExperts;
        e.topKExperts = space.topKExperts.value_or(std::min<I>(2, space.moeExperts));
        e.expertPar = t.ep;
        e.expertSlice = t.es;
        e.dataParExp = t.dpExp;
    }
    for (bool redo : pick(canRedo, tf, f))
        for (bool dpOverlap : overlapChoices(t.dp > 1, space.dpOverlap))
            for (TpOverlap overlap : overlaps)
                for (bool wOff : pick(mem2, tf, f))
                    for (bool aOff : pick(mem2 && t.recompute != Recompute::Full, tf, f))
                        for (bool oOff : pick(mem2, tf, f))
                            for (bool fusedActivation : fused)
                                for (I mbs : microbatches) {
                                    bool anyValid = false;
                                    e.seqParAgRedo = redo;
                                    e.dataParOverlap = dpOverlap;
                                    e.tensorParOverlap = overlap;
                                    e.weightOffload = wOff;
                                    e.activationsOffload = aOff;
                                    e.optimizerOffload = oOff;
                                    e.fusedActivation = fusedActivation;
                                    e.microbatchSize = mbs;
                                    for (I tn = 0; tn < tiers(t.tp); ++tn)
                                        for (I pn = 0; pn < tiers(t.pp); ++pn)
                                            for (I dn = 0; dn < tiers(t.dp); ++dn)
                                                for (I xn = 0; xn < (moe ? tiers(t.dpExp) : 1); ++xn)
                                                    for (I en = 0; en < (moe ? tiers(t.ep) : 1); ++en)
                                                        for (I sn = 0; sn < (moe ? tiers(t.es) : 1); ++sn) {
                                                            e.tensorParNet = tn;
                                                            e.pipelineParNet = pn;
                                                            e.dataParNet = dn;
                                                            e.dataParExpNet = xn;
                                                            e.expertParNet = en;
                                                            e.expertSliceNet = sn;
                                                            anyValid |= visit(e);
                                                        }
                                    if (mbsBreak && !anyValid)
                                        break;
                                }
}

TaskResult runTask(const Application &app, const System &sys, const SearchSpace &space, const SearchOptions &options,
                   const Task &task)
{
    TaskResult r;
    EvaluateOptions evalOptions;
    evalOptions.quirks = space.moeExperts > 0 ? options.moeQuirks : options.quirks;
    evalOptions.features = options.features;
    evalOptions.calibration = options.calibration;
    evalOptions.explain = false;
    forEachExecution(app, sys, space, task, space.mbsBreak, [&](const Execution &e) {
        const std::uint64_t index = r.configurations++;
        Evaluation ev = evaluate(app, e, sys, evalOptions);
        if (!ev.ok)
            return false;
        ++r.valid;
        const double score = space.rankBy == RankBy::Mfu ? ev.stats.total_efficiency : ev.stats.sample_rate;
        if (r.top.size() < options.topN || score > r.top.back().score)
            offer(r.top, options.topN, SearchHit{e, ev.stats, score, index});
        return true;
    });
    return r;
}

} // namespace

std::vector<std::int64_t> divisors(std::int64_t x)
{
    std::vector<std::int64_t> out;
    for (std::int64_t c = 1; c <= x; ++c)
        if (x % c == 0)
            out.push_back(c);
    return out;
}

SearchResult searchLayouts(const Application &app, const System &sys, const SearchSpace &space,
                           const SearchOptions &options)
{
    const std::vector<Task> tasks = makeTasks(app, space);
    std::vector<TaskResult> results(tasks.size());
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::atomic<bool> stopped{false};
    const auto worker = [&] {
        for (std::size_t i = next++; i < tasks.size(); i = next++) {
            if (options.cancel && options.cancel->load()) {
                stopped = true;
                return;
            }
            results[i] = runTask(app, sys, space, options, tasks[i]);
            const std::size_t finished = ++done;
            if (options.progress)
                options.progress(finished, tasks.size());
        }
    };
    unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, tasks.size())));
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < threads; ++i)
        pool.emplace_back(worker);
    worker();
    for (std::thread &t : pool)
        t.join();

    // Merge in task order (the reference's `determine_best` over its task list).
    SearchResult out;
    out.cancelled = stopped;
    std::uint64_t offset = 0;
    for (TaskResult &r : results) {
        out.configurations += r.configurations;
        out.valid += r.valid;
        for (SearchHit &h : r.top) {
            h.index += offset;
            offer(out.top, options.topN, std::move(h));
        }
        offset += r.configurations;
    }
    return out;
}

std::uint64_t countLayouts(const Application &app, const System &sys, const SearchSpace &space)
{
    std::uint64_t count = 0;
    for (const Task &t : makeTasks(app, space))
        forEachExecution(app, sys, space, t, false, [&](const Execution &) {
            ++count;
            return true;
        });
    return count;
}

} // namespace gapstudio::model
