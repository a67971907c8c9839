// Layout search over the space of the reference's `llm-optimal-execution` (Calculon caa4b11,
// calculon-model.md §9). The outer loops (steps 1-5) make tasks, as the reference's worker pool
// does; tasks run on all cores and their results are merged in task order, so ties keep the
// reference's enumeration order whatever the thread count.
#include "gapstudio/model/search.h"
#include "gapstudio/model/search_bounded.h"

#include "gapstudio/model/limits.h"

#include "search/search_bound.h"
#include "search/search_loops.h"
#include "search/search_top.h"

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <thread>

namespace gapstudio::model {

namespace {

using I = std::int64_t;
using detail::Candidate;
using detail::TopHits;
using detail::Task;
using detail::TaskCount;
using detail::Loops;
using detail::ShapeIndex;
using detail::forEachExecution;
using detail::forEachTask;
using detail::makeTasks;
using detail::loopsOf;
using detail::taskExecution;
using detail::contradictsPins;
using detail::Verdict;

/// A bounded search's score bounds of every block shape of a task (ShapeIndex order), one per
/// TP tier.
std::vector<double> shapeBounds(const Application &app, const System &sys, const SearchSpace &space,
                                const Task &t, const std::vector<I> &localBatchDivisors,
                                const EvaluateOptions &options)
{
    const Loops l = loopsOf(app, sys, space, t, localBatchDivisors);
    const ShapeIndex shape{l.overlaps.size(), l.fused.size(), l.microbatches.size()};
    const std::size_t tiers = sys.networks.size();
    std::vector<double> bounds(l.redo.size() * shape.overlaps * shape.fused * shape.microbatches * tiers);
    Execution e = taskExecution(space, t);
    for (std::size_t ri = 0; ri < l.redo.size(); ++ri)
        for (std::size_t oi = 0; oi < l.overlaps.size(); ++oi)
            for (std::size_t fi = 0; fi < l.fused.size(); ++fi)
                for (std::size_t mi = 0; mi < l.microbatches.size(); ++mi) {
                    e.seqParAgRedo = l.redo[ri];
                    e.tensorParOverlap = l.overlaps[oi];
                    e.fusedActivation = l.fused[fi];
                    e.microbatchSize = l.microbatches[mi];
                    detail::scoreUpperBounds(app, e, sys, options, space.rankBy,
                                             &bounds[shape(ri, oi, fi, mi) * tiers]);
                }
    return bounds;
}

void raiseTo(std::atomic<double> &value, double floor) noexcept
{
    double seen = value.load(std::memory_order_relaxed);
    while (seen < floor && !value.compare_exchange_weak(seen, floor, std::memory_order_relaxed)) {
    }
}

EvaluateOptions searchEvaluateOptions(const SearchSpace &space, const SearchOptions &options, bool systemInRange)
{
    EvaluateOptions evalOptions;
    evalOptions.quirks = space.moeExperts > 0 ? options.moeQuirks : options.quirks;
    evalOptions.features = options.features;
    evalOptions.calibration = options.calibration;
    evalOptions.explain = false;
    evalOptions.checkSystemRanges = !systemInRange; // checked once for the whole search
    return evalOptions;
}

/// What a bounded search shares between its workers: each task's shape bounds, and the
/// highest N-th best score any worker holds (a hit below it cannot enter the merged top N).
struct Bounds {
    std::vector<std::vector<double>> shapes;
    std::atomic<double> floor{-std::numeric_limits<double>::infinity()};
};

TaskCount runTask(const Application &app, const System &sys, const SearchSpace &space,
                  const EvaluateOptions &evalOptions, const Task &task, const std::vector<I> &localBatchDivisors,
                  std::size_t taskIndex, Bounds *bounds, TopHits &top)
{
    TaskCount r;
    const std::vector<double> *shapes = bounds ? &bounds->shapes[taskIndex] : nullptr;
    const auto visit = [&](const Execution &e) {
        const std::uint64_t index = r.configurations++;
        ++r.evaluated;
        Evaluation ev = evaluate(app, e, sys, evalOptions);
        if (!ev.ok)
            return false;
        ++r.valid;
        const double score = space.rankBy == RankBy::Mfu ? ev.stats.total_efficiency : ev.stats.sample_rate;
        // Tasks run in enumeration order per worker, except in a bounded search.
        if (bounds ? top.mayKeep(score) : top.wants(score)) {
            top.offer(Candidate { SearchHit { e, ev.stats, score, index }, taskIndex });
            if (bounds)
                if (const std::optional<double> floor = top.floor())
                    raiseTo(bounds->floor, *floor);
        }
        return true;
    };
    const std::size_t tiers = sys.networks.size();
    // Strictly below: a hit scoring the floor itself may still rank before a kept one.
    const auto below = [&](std::size_t shape, I tpNet) {
        return shapes && (*shapes)[shape * tiers + static_cast<std::size_t>(tpNet)]
                             < bounds->floor.load(std::memory_order_relaxed);
    };
    const auto judge = [&](std::size_t shape) {
        if (!shapes)
            return Verdict::Evaluate;
        const double *tier = &(*shapes)[shape * tiers];
        if (tier[0] == detail::kNoValidLayout)
            return Verdict::NoneValid;
        const double best = *std::max_element(tier, tier + tiers);
        return best < bounds->floor.load(std::memory_order_relaxed) ? Verdict::Below : Verdict::Evaluate;
    };
    const auto skip = [&r](std::uint64_t count) {
        r.configurations += count;
        r.skipped += count;
    };
    forEachExecution(app, sys, space, task, localBatchDivisors, space.mbsBreak, visit, judge, below, skip);
    return r;
}

/// Runs `work(i, thread)` for i in [0, count) on `threads` threads (the caller's is thread 0),
/// each taking the next i in turn.
template <typename Work> void runParallel(std::size_t count, unsigned threads, Work &&work)
{
    std::atomic<std::size_t> next{0};
    const auto worker = [&](unsigned thread) {
        for (std::size_t i = next++; i < count; i = next++)
            work(i, thread);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker, t);
    worker(0);
    for (std::thread &t : pool)
        t.join();
}

} // namespace

std::vector<std::int64_t> divisors(std::int64_t x)
{
    // Pairs (c, x / c) with c <= sqrt(x): O(sqrt x) (counting to x took minutes for 1e12).
    std::vector<std::int64_t> small, large;
    for (std::int64_t c = 1; c <= x / c; ++c) {
        if (x % c != 0)
            continue;
        small.push_back(c);
        if (c != x / c)
            large.push_back(x / c);
    }
    small.insert(small.end(), large.rbegin(), large.rend());
    return small;
}

SearchSpace designSearchSpace(const Execution &e, const LayoutPins &pins)
{
    SearchSpace space;
    space.numProcs = e.numProcs / std::max<I>(1, e.contextPar);
    space.maxBatchSize = e.batchSize;
    space.datatype = e.datatype;
    space.mbsBreak = true;
    space.tpOverlap = e.tensorParOverlap;
    space.tpOverlapVariants = false;
    space.dpOverlap = e.dataParOverlap ? OverlapChoice::On : OverlapChoice::Off;
    space.tpCommTypes = { e.tensorParCommType };
    space.fused = e.fusedActivation ? FusedActivationChoice::True : FusedActivationChoice::False;
    space.attentionType = e.attentionType;
    space.activationFunction = e.activationFunction;
    if (e.modelMoE) {
        space.moeExperts = e.numExperts;
        space.topKExperts = e.topKExperts;
    }
    space.pins = pins;
    space.base = e;
    if (!pins.pipelinePar || *pins.pipelinePar != e.pipelinePar)
        space.base->firstStageBlocks = space.base->lastStageBlocks = 0;
    return space;
}

std::string describeSearchSpace(const SearchSpace &space)
{
    static constexpr const char *kOverlap[] = { "none", "ring", "pipe" };
    static constexpr const char *kCommType[]
        = { "all-reduce", "p2p reduce-scatter/all-gather", "reduce-scatter/all-gather" };
    std::string words = "batch up to " + std::to_string(space.maxBatchSize) + ", " + datatypeName(space.datatype);
    if (space.moeExperts > 0)
        words += ", " + std::to_string(space.moeExperts) + " experts (EP = experts, ES = TP)";
    if (space.base && space.base->contextPar > 1)
        words += ", context parallel " + std::to_string(space.base->contextPar);
    if (space.tpOverlap)
        words += std::string(", TP overlap ") + kOverlap[static_cast<int>(*space.tpOverlap)];
    else
        words += space.tpOverlapVariants ? ", every TP overlap" : ", TP overlap none";
    words += space.dpOverlap == OverlapChoice::On    ? ", DP overlap on"
             : space.dpOverlap == OverlapChoice::Off ? ", DP overlap off"
                                                     : ", DP overlap on and off";
    if (space.tpCommTypes.size() == 1)
        words += std::string(", TP ") + kCommType[static_cast<int>(space.tpCommTypes.front())];
    return words;
}

SearchOptions designSearchOptions(const EvaluateOptions &design)
{
    SearchOptions options;
    options.quirks = design.quirks;
    options.moeQuirks = design.quirks;
    options.features = design.features;
    options.calibration = design.calibration;
    return options;
}

namespace {

/// searchLayouts(), bounded (search_bounded.h) if `bound`.
BoundedSearchResult search(const Application &app, const System &sys, const SearchSpace &space,
                           const SearchOptions &options, bool bound)
{
    std::vector<Task> tasks = makeTasks(app, space);
    std::erase_if(tasks, [&space](const Task &t) { return contradictsPins(t, space.pins); });
    // The microbatch candidates of each local batch, found once (read-only in the workers).
    std::map<I, std::vector<I>> localBatchDivisors;
    for (const Task &t : tasks)
        if (!localBatchDivisors.contains(t.batch / t.dp))
            localBatchDivisors.emplace(t.batch / t.dp, divisors(t.batch / t.dp));
    // Every layout runs on the same system: its ranges (limits.h) are checked once here, for the
    // most demanding execution (every offload on), rather than at each evaluation.
    Execution offloading;
    offloading.weightOffload = offloading.activationsOffload = offloading.optimizerOffload = true;
    Diagnostics ranges;
    checkSystemRanges(offloading, sys, false, ranges);
    const bool systemInRange = ranges.empty();
    const EvaluateOptions evalOptions = searchEvaluateOptions(space, options, systemInRange);
    unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, tasks.size())));
    const auto divisorsOf = [&](const Task &t) -> const std::vector<I> & { return localBatchDivisors.at(t.batch / t.dp); };

    // A bounded search (search_bound.h) first bounds every block shape of every task, then runs
    // the tasks with the highest bound first, so that the N-th best rises early.
    const bool bounded = bound && systemInRange && options.topN > 0 && !sys.networks.empty();
    std::unique_ptr<Bounds> bounds;
    std::vector<std::size_t> order(tasks.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (bounded) {
        bounds = std::make_unique<Bounds>();
        bounds->shapes.resize(tasks.size());
        std::vector<double> best(tasks.size(), detail::kNoValidLayout);
        runParallel(tasks.size(), threads, [&](std::size_t i, unsigned) {
            bounds->shapes[i] = shapeBounds(app, sys, space, tasks[i], divisorsOf(tasks[i]), evalOptions);
            for (double b : bounds->shapes[i])
                best[i] = std::max(best[i], b);
        });
        std::stable_sort(order.begin(), order.end(), [&best](std::size_t a, std::size_t b) { return best[a] > best[b]; });
    }

    std::vector<TaskCount> counts(tasks.size());
    std::atomic<std::size_t> done{0};
    std::atomic<bool> stopped{false};
    std::vector<TopHits> tops(threads, TopHits(options.topN));
    runParallel(tasks.size(), threads, [&](std::size_t k, unsigned thread) {
        if (stopped || (options.cancel && options.cancel->load())) {
            stopped = true;
            return;
        }
        const std::size_t i = order[k];
        counts[i] = runTask(app, sys, space, evalOptions, tasks[i], divisorsOf(tasks[i]), i, bounds.get(), tops[thread]);
        const std::size_t finished = ++done;
        if (options.progress)
            options.progress(finished, tasks.size());
    });

    // Merge (the reference's `determine_best` over its task list): each task's hits get their
    // position in the whole enumeration.
    BoundedSearchResult result;
    SearchResult &out = result.search;
    out.cancelled = stopped;
    std::vector<std::uint64_t> offsets(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        offsets[i] = out.configurations;
        out.configurations += counts[i].configurations;
        out.valid += counts[i].valid;
        result.evaluated += counts[i].evaluated;
        result.skipped += counts[i].skipped;
    }
    TopHits best(options.topN);
    for (TopHits &top : tops)
        for (Candidate &candidate : top.take())
            best.offer(std::move(candidate));
    for (Candidate &candidate : best.take()) {
        candidate.hit.index += offsets[candidate.task];
        out.top.push_back(std::move(candidate.hit));
    }
    return result;
}

} // namespace

SearchResult searchLayouts(const Application &app, const System &sys, const SearchSpace &space,
                           const SearchOptions &options)
{
    return search(app, sys, space, options, false).search;
}

BoundedSearchResult searchLayoutsBounded(const Application &app, const System &sys, const SearchSpace &space,
                                         const SearchOptions &options)
{
    return search(app, sys, space, options, true);
}

std::uint64_t countLayouts(const Application &app, const System &sys, const SearchSpace &space,
                           std::uint64_t limit)
{
    // The product of each task's loop sizes: no execution is built. The divisors of a local
    // batch are found once (tasks share them, and for a batch near 2^53 each search takes ~0.3 s).
    std::map<I, std::vector<I>> localBatchDivisors;
    std::uint64_t count = 0;
    forEachTask(app, space, [&](const Task &t) {
        if (contradictsPins(t, space.pins))
            return true;
        const I local = t.batch / t.dp;
        auto it = localBatchDivisors.find(local);
        if (it == localBatchDivisors.end())
            it = localBatchDivisors.emplace(local, divisors(local)).first;
        if (__builtin_add_overflow(count, loopsOf(app, sys, space, t, it->second).count(), &count))
            count = UINT64_MAX;
        return count <= limit;
    });
    return count;
}

} // namespace gapstudio::model
