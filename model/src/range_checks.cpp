// Inputs the model cannot compute with (limits.h): numbers of the system outside their ranges, and
// integer inputs whose products would exceed limits::kMaxCount. Both are malformed input
// (DiagnosticCode::OutOfRange) found before any formula runs, so that an evaluation never
// overflows its 64-bit counts (seq_size 1e9 once gave a negative step time) and never divides
// by zero (an HBM bandwidth of 0 once gave null statistics).
#include "checks.h"

#include "gapstudio/model/limits.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>

namespace gapstudio::model {

namespace {

std::string number(double value)
{
    std::array<char, 32> text {};
    std::snprintf(text.data(), text.size(), "%.6g", value);
    return text.data();
}

/// Records an OutOfRange diagnostic for each value outside its range (`Report`), or only notes
/// whether all are inside (the quick pass that evaluate() makes on every layout a search tries:
/// no branch per value, fields and messages built only by the reporting pass after a failure).
template <bool Report> class RangeChecker {
public:
    RangeChecker(Diagnostics &out, bool explain)
        : mOut(out)
        , mExplain(explain)
    {
    }

    [[nodiscard]] bool allInside() const noexcept { return mInside; }

    /// `field()` gives the path into the system (e.g. "networks/0/bandwidth"). Inlined so that
    /// each constant range folds into two comparisons.
    template <typename Field>
    [[gnu::always_inline]] void require(double value, const Range &range, Field &&field, const char *what,
                                        const char *unit)
    {
        if constexpr (!Report) {
            mInside &= range.contains(value);
        } else if (!range.contains(value)) {
            fail(value, range, field(), what, unit);
        }
    }

    /// A condition that needs its own message (`message()` gives it).
    template <typename Message>
    [[gnu::always_inline]] void condition(bool holds, const char *field, Message &&message)
    {
        if constexpr (!Report) {
            mInside &= holds;
        } else if (!holds) {
            mOut.push_back(
                { DiagnosticCode::OutOfRange, field, mExplain ? std::string(message()) : std::string() });
        }
    }

    template <typename Field>
    [[gnu::always_inline]] void table(const EfficiencyTable &table, Field &&field, const char *what)
    {
        for (const auto &[threshold, efficiency] : table.rows) {
            require(threshold, limits::kThreshold, field, what, "(threshold)");
            require(efficiency, limits::kEfficiency, field, what, "(efficiency)");
        }
    }

    void engines(const std::array<std::optional<ComputeEngine>, kDatatypeCount> &engines, const char *name)
    {
        for (std::size_t i = 0; i < kDatatypeCount; ++i) {
            if (!engines[i])
                continue;
            const auto field = [&](const char *what) {
                return [name, i, what] {
                    return std::string(name) + "/" + datatypeName(static_cast<Datatype>(i)) + "/" + what;
                };
            };
            require(engines[i]->peak_flops, limits::kPeakFlops, field("peak_flops"), "peak", "flop/s");
            table(engines[i]->efficiency, field("efficiency"), "compute efficiency");
        }
    }

    template <typename Field>
    [[gnu::always_inline]] void op(const NetworkOp &op, Field &&field, bool collective)
    {
        require(op.scalar, limits::kCollectiveScalar, field, "collective scalar", "");
        if (collective)
            require(op.offset, limits::kCollectiveOffset, field, "collective offset", "");
        if (op.efficiency != 0)
            require(op.efficiency, limits::kEfficiency, field, "operation efficiency", "");
    }

private:
    [[gnu::noinline]] void fail(double value, const Range &range, std::string field, const char *what,
                                const char *unit)
    {
        mOut.push_back({ DiagnosticCode::OutOfRange, std::move(field),
                         mExplain ? std::string(what) + " " + number(value) + " " + unit + " is outside "
                                        + range.text() + " " + unit + ", the range the model computes with"
                                  : std::string() });
    }

    Diagnostics &mOut;
    bool mExplain;
    bool mInside = true;
};

/// A field that is a fixed path.
auto path(const char *text)
{
    return [text] { return std::string(text); };
}

/// One count the model forms from integer inputs (with its constant factor), and the inputs.
struct Count {
    const char *what;
    std::initializer_list<std::pair<const char *, double>> factors;
    double constant;
};

} // namespace

std::string Range::text() const
{
    return std::string(lowIncluded ? "[" : "(") + number(low) + ", " + number(high)
           + (highIncluded ? "]" : ")");
}

namespace {

/// The system's values against their ranges, with `c` (a quick or a reporting RangeChecker).
template <typename Checker> void visitSystemRanges(const Execution &exe, const System &sys, Checker &c)
{
    c.engines(sys.matrix, "matrix");
    c.engines(sys.vector, "vector");
    c.require(sys.mem1.capacity_B, limits::kCapacity, path("mem1/capacity"), "HBM capacity", "B");
    c.require(sys.mem1.bandwidth_Bps, limits::kBandwidth, path("mem1/bandwidth"), "HBM bandwidth", "B/s");
    c.table(sys.mem1.efficiency, path("mem1/efficiency"), "HBM efficiency");
    c.require(sys.mem2.capacity_B, limits::kOptionalCapacity, path("mem2/capacity"), "tier-2 capacity", "B");
    c.require(sys.mem2.bandwidth_Bps, limits::kOptionalBandwidth, path("mem2/bandwidth"), "tier-2 bandwidth",
              "B/s");
    c.table(sys.mem2.efficiency, path("mem2/efficiency"), "tier-2 efficiency");
    c.condition(!(exe.weightOffload || exe.activationsOffload || exe.optimizerOffload)
                    || sys.mem2.bandwidth_Bps > 0,
                "mem2/bandwidth", [] { return "offloading needs a tier-2 memory with a bandwidth above 0"; });
    for (std::size_t i = 0; i < sys.networks.size(); ++i) {
        const NetworkTier &n = sys.networks[i];
        const auto field = [i](const char *what) {
            return [i, what] { return "networks/" + std::to_string(i) + "/" + what; };
        };
        c.require(n.bandwidth_Bps, limits::kBandwidth, field("bandwidth"), "network bandwidth", "B/s");
        c.require(n.efficiency, limits::kEfficiency, field("efficiency"), "network efficiency", "");
        c.require(n.latency_s, limits::kLatency, field("latency"), "network latency", "s");
        c.require(n.processorUsage, limits::kProcessorUsage, field("processor_usage"), "processor usage", "");
        c.require(static_cast<double>(n.size), Range { 1, true, 9007199254740992.0, true }, field("size"),
                  "network size", "processors");
        c.op(n.p2p, field("ops/p2p"), false);
        c.op(n.allToAll, field("ops/all_to_all"), false);
        c.op(n.reduceScatter, field("ops/reduce_scatter"), true);
        c.op(n.allGather, field("ops/all_gather"), true);
        c.op(n.allReduce, field("ops/all_reduce"), true);
    }
}

} // namespace

void checkSystemRanges(const Execution &exe, const System &sys, bool explain, Diagnostics &out)
{
    RangeChecker<false> quick(out, explain);
    visitSystemRanges(exe, sys, quick);
    if (quick.allInside())
        return;
    RangeChecker<true> report(out, explain);
    visitSystemRanges(exe, sys, report);
}

void checkCounts(const Application &app, const Execution &exe, bool explain, Diagnostics &out)
{
    // The largest counts the block builders (block_builder.h, block.cpp, moe_block.cpp) and the
    // batch formulas form in int64, with their constant factors, bounded from above in doubles
    // (which cannot overflow here): TP only ever divides them, except in the reductions'
    // act * (peers - 1).
    const auto d = [](std::int64_t v) { return static_cast<double>(v); };
    const double mbs = d(exe.microbatchSize), s = d(app.seqSize), h = d(app.hidden), f = d(app.feedforward);
    const double a = d(app.attnHeads), dh = d(app.attnSize), blocks = d(app.numBlocks),
                 batch = d(exe.batchSize);
    const double tp = d(exe.tensorPar), tokens = mbs * s;
    const double k = exe.modelMoE ? d(exe.topKExperts) : 1, experts = exe.modelMoE ? d(exe.numExperts) : 1;
    const double es = exe.modelMoE ? d(exe.expertSlice) : 1;
    // The corrected model's inputs (calculon_inputs.h): 0 when not modelled.
    const double vocab = d(app.vocabSize);
    const double widest = std::max(
        { f, d(app.sharedExpertFeedforward) * std::max(d(app.sharedExperts), 1.0), d(app.denseFeedforward) });
    const double ranks
        = std::max({ d(app.qLoraRank), d(app.kvLoraRank), d(app.ropeHeadSize), d(app.valueHeadSize) });
    // The counts' values, in the order of `counts` below (whose comments derive them): only
    // when one is too large are the named factor lists built (this runs on every layout a
    // search tries).
    const std::array<double, 12> values { 6 * tokens * h * vocab,
                                          16 * tokens * vocab,
                                          tokens * widest * std::max(4 * h, 16.0),
                                          6 * tokens * std::max(ranks, h) * a * std::max(dh, ranks),
                                          mbs * a * s * s * std::max(4 * dh, 8.0),
                                          6 * tokens * h * a * dh,
                                          tokens * f * std::max(4 * h, 16.0),
                                          tokens * h * std::max(tp, 14.0),
                                          4 * tokens * k * h * f,
                                          tokens * k * es * h * std::max(es, 2.0),
                                          2 * tokens * h * experts,
                                          blocks * batch };
    bool allSmall = true;
    for (const double value : values)
        allSmall &= value <= limits::kMaxCount; // NaN is not small
    if (allSmall)
        return;
    const std::array<Count, 12> counts { {
        // The LM head, forward and backward: 3 * 2 * tokens * h * V (head_block.cpp); the
        // embedding table V * h and its gradient.
        { "LM-head flops",
          { { "seq_size", s }, { "microbatch_size", mbs }, { "hidden", h }, { "vocab_size", vocab } },
          values[0] },
        // The logits and the cross entropy over them: about 16 * tokens * V.
        { "logits", { { "seq_size", s }, { "microbatch_size", mbs }, { "vocab_size", vocab } }, values[1] },
        // Shared experts and dense blocks: MLPs as wide as their feedforward (as "MLP flops").
        { "dense and shared MLP flops",
          { { "seq_size", s },
            { "microbatch_size", mbs },
            { "hidden", h },
            { "dense_feedforward", d(app.denseFeedforward) },
            { "shared_expert_feedforward", d(app.sharedExpertFeedforward) } },
          values[2] },
        // Latent attention's low-rank projections: 2 * tokens * rank * a * dh at most (x 6 with backward).
        { "latent attention flops",
          { { "seq_size", s }, { "microbatch_size", mbs }, { "attn_heads", a }, { "q_lora_rank", ranks } },
          values[3] },
        // BatchMatMul backward: (mbs * a / tp) * 2 * 2 * s * dh * s; softmax backward 8 * a * s^2 * mbs.
        { "attention-score flops",
          { { "seq_size", s }, { "microbatch_size", mbs }, { "attn_heads", a } },
          values[4] },
        // The fused Q, K, V projection: 2 * tokens * h * (a + 2 * kv) * dh, kv <= a.
        { "attention projection flops",
          { { "seq_size", s }, { "microbatch_size", mbs }, { "hidden", h }, { "attn_heads", a } },
          values[5] },
        // The MLP up projection (twice as wide with SwiGLU): 2 * tokens * h * 2f; its activation 15 f.
        { "MLP flops",
          { { "seq_size", s }, { "microbatch_size", mbs }, { "hidden", h }, { "feedforward", f } },
          values[6] },
        // TP reductions: tokens * h * (tp - 1); layer norms 14 * tokens * h.
        { "TP reduction flops", { { "seq_size", s }, { "hidden", h }, { "tensor_par", tp } }, values[7] },
        // Experts: e * 2 * (pairs / e) * h * 2 * (f / ES) with pairs <= tokens * k * ES.
        { "expert flops",
          { { "seq_size", s }, { "hidden", h }, { "feedforward", f }, { "top_k_experts", k } },
          values[8] },
        // The ES all-gather buffer pairs * h and its reduction pairs * h * (ES - 1).
        { "routed activations",
          { { "seq_size", s }, { "hidden", h }, { "top_k_experts", k }, { "expert_slice", es } },
          values[9] },
        { "router flops", { { "seq_size", s }, { "hidden", h }, { "num_experts", experts } }, values[10] },
        { "blocks times microbatches", { { "num_blocks", blocks }, { "batch_size", batch } }, values[11] },
    } };
    for (const Count &count : counts) {
        if (count.constant <= limits::kMaxCount)
            continue;
        // The largest factor is the input to name (and to reduce).
        const auto largest
            = std::max_element(count.factors.begin(), count.factors.end(),
                               [](const auto &x, const auto &y) { return x.second < y.second; });
        std::string inputs;
        for (const auto &[name, value] : count.factors)
            inputs += (inputs.empty() ? "" : ", ") + std::string(name) + " " + number(value);
        out.push_back({ DiagnosticCode::OutOfRange, largest->first,
                        explain ? std::string(largest->first) + " " + number(largest->second)
                                      + " is too large: with " + inputs + " one layer would count "
                                      + number(count.constant) + " " + count.what
                                      + ", more than the 2^62 the model can compute with"
                                : std::string() });
        return; // one is enough: the others name the same inputs
    }
}

} // namespace gapstudio::model
