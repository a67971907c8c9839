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

std::vector<I> divisors(I x)
{
    std::vector<I> out;
    for (I c = 1; c <= x; ++c)
        if (x % c == 0)
            out.push_back(c);
    return out;
}

/// One worker task: the reference's `search()` arguments (steps 1-5).
struct Task {
    I tp, pp, dp, interleaving, batch;
    Recompute recompute;
    bool sharding;
    TpCommType commType;
};

std::vector<Task> makeTasks(const Application &app, const SearchSpace &space)
{
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
            const std::vector<I> interleavings = pp == 1 ? std::vector<I>{1} : divisors(app.numBlocks / pp);
            for (I v : interleavings)
                for (Recompute r : {Recompute::Full, Recompute::AttnOnly, Recompute::None})
                    for (bool sharding : dp > 1 ? std::vector<bool>{true, false} : std::vector<bool>{false})
                        for (TpCommType c : {TpCommType::Ar, TpCommType::P2pRsAg, TpCommType::RsAg})
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
template <typename Visit>
void forEachExecution(const Application &app, const System &sys, const SearchSpace &space, const Task &t,
                      bool mbsBreak, Visit &&visit)
{
    const bool mem2 = sys.mem2.capacity_B > 0;
    const I nets = static_cast<I>(sys.networks.size());
    const bool canRedo = t.commType == TpCommType::RsAg && t.recompute != Recompute::Full;
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
    const std::vector<TpOverlap> overlaps = t.tp > 1 && space.tpOverlapVariants
                                                ? std::vector<TpOverlap>{TpOverlap::None, TpOverlap::Ring, TpOverlap::Pipe}
                                                : std::vector<TpOverlap>{TpOverlap::None};
    Execution e;
    e.numProcs = space.numProcs;
    e.tensorPar = t.tp;
    e.pipelinePar = t.pp;
    e.dataPar = t.dp;
    e.batchSize = t.batch;
    e.datatype = space.datatype;
    e.attentionType = AttentionType::MultiHead;
    e.activationRecompute = t.recompute;
    e.pipelineInterleaving = t.interleaving;
    e.optimizerSharding = t.sharding;
    e.tensorParCommType = t.commType;
    e.training = true;
    for (bool redo : pick(canRedo, tf, f))
        for (bool dpOverlap : pick(t.dp > 1 && space.dpOverlapVariants, tf, f))
            for (TpOverlap overlap : overlaps)
                for (bool wOff : pick(mem2, tf, f))
                    for (bool aOff : pick(mem2 && t.recompute != Recompute::Full, tf, f))
                        for (bool oOff : pick(mem2, tf, f))
                            for (bool fusedActivation : fused)
                                for (I mbs : microbatches) {
                                    bool anyValid = false;
                                    for (I tn = 0; tn < (t.tp > 1 ? nets : 1); ++tn)
                                        for (I pn = 0; pn < (t.pp > 1 ? nets : 1); ++pn)
                                            for (I dn = 0; dn < (t.dp > 1 ? nets : 1); ++dn) {
                                                e.seqParAgRedo = redo;
                                                e.dataParOverlap = dpOverlap;
                                                e.tensorParOverlap = overlap;
                                                e.weightOffload = wOff;
                                                e.activationsOffload = aOff;
                                                e.optimizerOffload = oOff;
                                                e.fusedActivation = fusedActivation;
                                                e.microbatchSize = mbs;
                                                e.tensorParNet = tn;
                                                e.pipelineParNet = pn;
                                                e.dataParNet = dn;
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
    evalOptions.quirks = options.quirks;
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
