#pragma once
// The loops of the layout search (Calculon caa4b11 `llm-optimal-execution`, calculon-model.md
// §9; calculon-MoE's `optimal_execution_MoE.py`): the outer loops that make tasks (steps 1-5)
// and the inner loops of one task (step 6), in the reference's order. Internal to the model;
// search.cpp runs them.

#include "gapstudio/model/search.h"
#include "gapstudio/model/search_bounded.h"

#include "gapstudio/model/limits.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace gapstudio::model::detail {

using I = std::int64_t;

/// One worker task: the reference's `search()` arguments (steps 1-5).
struct Task {
    I tp, pp, dp, interleaving, batch;
    Recompute recompute;
    bool sharding;
    TpCommType commType;
    I ep = 1, es = 1, dpExp = 1; // MoE search only
};

inline std::vector<I> interleavings(I blocks, I pp)
{
    return pp == 1 ? std::vector<I> { 1 } : divisors(blocks / pp);
}

/// calculon-MoE's legacy search outer loops (its `optimal_execution_MoE.py`): EP = E, TP over the
/// divisors of N/EP that divide h and the heads, ES = TP, PP over the divisors of
/// min(N/(TP*EP), L), DP = N/(PP*TP), expert DP = N/(TP*EP*PP), recompute none/full/attn_only.
/// N is the GPUs over context parallelism (SearchSpace::numProcs); expert DP also spans the
/// context-parallel ranks: EP x ES x PP x expert DP = every GPU, as evaluate() checks
/// (checks.cpp) and as the published CP run presets/measurements/dgxc-benchmarking-moe/
/// dgxc-h100-grok1proxy-512gpu-fp8.json is laid out (TP 4, PP 8, DP 8, CP 2; EP 8, ES 1,
/// expert DP 8).
/// `visit(task)` returns false to stop.
template <typename Visit> void forEachMoeTask(const Application &app, const SearchSpace &space, Visit &&visit)
{
    const I n = space.numProcs;
    const I cp = space.base ? std::max<I>(1, space.base->contextPar) : 1;
    const I ep = space.moeExperts;
    if (n % ep != 0)
        return;
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
                for (Recompute r : { Recompute::None, Recompute::Full, Recompute::AttnOnly })
                    for (bool sharding :
                         dp > 1 ? std::vector<bool> { true, false } : std::vector<bool> { false })
                        for (TpCommType c : space.tpCommTypes)
                            if (!visit(Task { tp, pp, dp, v, batch, r, sharding, c, ep, tp,
                                              n / tp / ep / pp * cp }))
                                return;
        }
    }
}

/// The reference's outer loops (steps 1-5), in its order; `visit(task)` returns false to stop.
template <typename Visit> void forEachTask(const Application &app, const SearchSpace &space, Visit &&visit)
{
    if (space.moeExperts > 0)
        return forEachMoeTask(app, space, visit);
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
                for (Recompute r : { Recompute::Full, Recompute::AttnOnly, Recompute::None })
                    for (bool sharding :
                         dp > 1 ? std::vector<bool> { true, false } : std::vector<bool> { false })
                        for (TpCommType c : space.tpCommTypes)
                            if (!visit(Task { tp, pp, dp, v, batch, r, sharding, c }))
                                return;
        }
    }
}

inline std::vector<Task> makeTasks(const Application &app, const SearchSpace &space)
{
    std::vector<Task> tasks;
    forEachTask(app, space, [&tasks](const Task &t) {
        tasks.push_back(t);
        return true;
    });
    return tasks;
}

/// Whether a task contradicts a choice the user pinned.
inline bool contradictsPins(const Task &t, const LayoutPins &pins)
{
    return (pins.tensorPar && t.tp != *pins.tensorPar) || (pins.pipelinePar && t.pp != *pins.pipelinePar)
           || (pins.dataPar && t.dp != *pins.dataPar)
           || (pins.pipelineInterleaving && t.interleaving != *pins.pipelineInterleaving)
           || (pins.recompute && t.recompute != *pins.recompute)
           || (pins.optimizerSharding && t.sharding != *pins.optimizerSharding);
}

struct TaskCount {
    std::uint64_t configurations = 0;
    std::uint64_t valid = 0;
    std::uint64_t evaluated = 0;
    std::uint64_t skipped = 0;
};

template <typename T> std::vector<T> pick(bool condition, std::vector<T> yes, std::vector<T> no)
{
    return condition ? yes : no;
}

/// The data_par_overlap values tried: none without DP, else as the user chose.
inline std::vector<bool> overlapChoices(bool possible, OverlapChoice choice)
{
    if (!possible || choice == OverlapChoice::Off)
        return { false };
    return choice == OverlapChoice::On ? std::vector<bool> { true } : std::vector<bool> { true, false };
}

/// Step 6: the executions of one task, in the reference's loop order. `visit(execution)`
/// returns whether the execution was valid; with -m a microbatch size without any valid
/// network mapping ends the microbatch loop. The MoE search also maps DPe, EP and ES onto tiers
/// and has no offloading or all-gather redo.
/// The inner loops of one task (step 6): the values each takes, in the reference's order.
struct Loops {
    std::vector<bool> redo, dpOverlap;
    std::vector<TpOverlap> overlaps;
    std::vector<bool> weightOffload, activationsOffload, optimizerOffload, fused;
    std::vector<I> microbatches;
    I tpNets = 1, ppNets = 1, dpNets = 1, dpExpNets = 1, epNets = 1, esNets = 1;

    /// Executions of the task (without -m), saturated at UINT64_MAX.
    [[nodiscard]] std::uint64_t count() const noexcept
    {
        std::uint64_t n = 1;
        for (const std::size_t size :
             { redo.size(), dpOverlap.size(), overlaps.size(), weightOffload.size(),
               activationsOffload.size(), optimizerOffload.size(), fused.size(), microbatches.size() })
            if (__builtin_mul_overflow(n, static_cast<std::uint64_t>(size), &n))
                return UINT64_MAX;
        for (const I nets : { tpNets, ppNets, dpNets, dpExpNets, epNets, esNets })
            if (__builtin_mul_overflow(n, static_cast<std::uint64_t>(nets), &n))
                return UINT64_MAX;
        return n;
    }
};

/// `localBatchDivisors`: divisors(t.batch / t.dp), the microbatch sizes before the TP rule.
inline Loops loopsOf(const Application &app, const System &sys, const SearchSpace &space, const Task &t,
                     const std::vector<I> &localBatchDivisors)
{
    const bool moe = space.moeExperts > 0;
    const bool mem2 = !moe && sys.mem2.capacity_B > 0;
    const I nets = static_cast<I>(sys.networks.size());
    const bool canRedo = !moe && t.commType == TpCommType::RsAg && t.recompute != Recompute::Full;
    const std::vector<bool> tf = { true, false };
    const std::vector<bool> f = { false };
    Loops l;
    l.redo = pick(canRedo, tf, f);
    l.dpOverlap = overlapChoices(t.dp > 1, space.dpOverlap);
    l.overlaps = { TpOverlap::None };
    if (t.tp > 1 && space.tpOverlap)
        l.overlaps = { *space.tpOverlap };
    else if (t.tp > 1 && space.tpOverlapVariants)
        l.overlaps = { TpOverlap::None, TpOverlap::Ring, TpOverlap::Pipe };
    l.weightOffload = pick(mem2, tf, f);
    l.activationsOffload = pick(mem2 && t.recompute != Recompute::Full, tf, f);
    l.optimizerOffload = pick(mem2, tf, f);
    if (space.fused != FusedActivationChoice::False)
        l.fused.push_back(true);
    if (space.fused != FusedActivationChoice::True)
        l.fused.push_back(false);
    // mbs * seq_size may exceed 64 bits (both are up to 2^53): multiplied in 128 bits.
    __extension__ using Wide = __int128;
    for (I mbs : localBatchDivisors)
        if (static_cast<Wide>(mbs) * app.seqSize % t.tp == 0
            && (!space.pins.microbatchSize || mbs == *space.pins.microbatchSize))
            l.microbatches.push_back(mbs);
    const auto tiers = [nets](I degree) { return degree > 1 ? nets : 1; };
    l.tpNets = tiers(t.tp);
    l.ppNets = tiers(t.pp);
    l.dpNets = tiers(t.dp);
    if (moe) {
        l.dpExpNets = tiers(t.dpExp);
        l.epNets = tiers(t.ep);
        l.esNets = tiers(t.es);
    }
    return l;
}

/// The execution of a task before its inner loops (step 6) set their fields.
inline Execution taskExecution(const SearchSpace &space, const Task &t)
{
    const bool moe = space.moeExperts > 0;
    Execution e = space.base.value_or(Execution {});
    e.numProcs = space.numProcs * e.contextPar;
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
    return e;
}

/// What a bounded search knows of a group (the executions of one task that differ only in
/// their network mapping) before evaluating it.
enum class Verdict : std::uint8_t {
    Evaluate,  ///< it may rank
    Below,     ///< its sample-rate bound is below the N-th best found: none can rank
    NoneValid, ///< none can be valid
};

/// The index of a group's block shape (redo, TP overlap, fused activation, microbatch) in a
/// task: the fields the step-time bound depends on within a task (search_bound.h).
struct ShapeIndex {
    std::size_t overlaps, fused, microbatches;
    [[nodiscard]] std::size_t operator()(std::size_t r, std::size_t o, std::size_t f,
                                         std::size_t m) const noexcept
    {
        return ((r * overlaps + o) * fused + f) * microbatches + m;
    }
};

/// Step 6: the executions of one task, in the reference's loop order. `visit(execution)`
/// returns whether the execution was valid; with -m a microbatch size without any valid
/// network mapping ends the microbatch loop. The MoE search also maps DPe, EP and ES onto tiers
/// and has no offloading or all-gather redo. `judge(shape)` decides each group of network
/// mappings and `below(shape, tpNet)` each execution of a group that may rank; the executions
/// that cannot rank are passed to `skip(count)`, except that with -m they are evaluated until
/// one of the group is valid (so the loop stops where the exhaustive search stops).
template <typename Visit, typename Judge, typename Below, typename Skip>
void forEachExecution(const Application &app, const System &sys, const SearchSpace &space, const Task &t,
                      const std::vector<I> &localBatchDivisors, bool mbsBreak, Visit &&visit, Judge &&judge,
                      Below &&below, Skip &&skip)
{
    const Loops l = loopsOf(app, sys, space, t, localBatchDivisors);
    const ShapeIndex shape { l.overlaps.size(), l.fused.size(), l.microbatches.size() };
    const std::uint64_t mappings = static_cast<std::uint64_t>(l.tpNets * l.ppNets * l.dpNets)
                                   * static_cast<std::uint64_t>(l.dpExpNets * l.epNets * l.esNets);
    Execution e = taskExecution(space, t);
    for (std::size_t ri = 0; ri < l.redo.size(); ++ri)
        for (bool dpOverlap : l.dpOverlap)
            for (std::size_t oi = 0; oi < l.overlaps.size(); ++oi)
                for (bool wOff : l.weightOffload)
                    for (bool aOff : l.activationsOffload)
                        for (bool oOff : l.optimizerOffload)
                            for (std::size_t fi = 0; fi < l.fused.size(); ++fi)
                                for (std::size_t mi = 0; mi < l.microbatches.size(); ++mi) {
                                    bool anyValid = false;
                                    e.seqParAgRedo = l.redo[ri];
                                    e.dataParOverlap = dpOverlap;
                                    e.tensorParOverlap = l.overlaps[oi];
                                    e.weightOffload = wOff;
                                    e.activationsOffload = aOff;
                                    e.optimizerOffload = oOff;
                                    e.fusedActivation = l.fused[fi];
                                    e.microbatchSize = l.microbatches[mi];
                                    const std::size_t sh = shape(ri, oi, fi, mi);
                                    const Verdict verdict = judge(sh);
                                    if (verdict == Verdict::NoneValid
                                        || (verdict == Verdict::Below && !mbsBreak)) {
                                        skip(mappings);
                                        continue; // anyValid = false: with -m (NoneValid) the loop stops
                                    }
                                    for (I tn = 0; tn < l.tpNets; ++tn)
                                        for (I pn = 0; pn < l.ppNets; ++pn)
                                            for (I dn = 0; dn < l.dpNets; ++dn)
                                                for (I xn = 0; xn < l.dpExpNets; ++xn)
                                                    for (I en = 0; en < l.epNets; ++en)
                                                        for (I sn = 0; sn < l.esNets; ++sn) {
                                                            if ((verdict == Verdict::Below || below(sh, tn))
                                                                && (anyValid || !mbsBreak)) {
                                                                skip(1);
                                                                continue;
                                                            }
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

} // namespace gapstudio::model::detail
