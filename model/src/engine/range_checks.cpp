// Inputs the model cannot compute with (limits.h): numbers of the system outside their ranges, and
// integer inputs whose products would exceed limits::kMaxCount. Both are malformed input
// (DiagnosticCode::OutOfRange) found before any formula runs, so that an evaluation never
// overflows its 64-bit counts (seq_size 1e9 once gave a negative step time) and never divides
// by zero (an HBM bandwidth of 0 once gave null statistics).
#include "engine/checks.h"

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

namespace {

/// The inputs of the counts checkCounts() bounds, as doubles (which cannot overflow here).
struct CountInputs {
    double mbs, s, h, f, a, dh, blocks, batch, tp, tokens, k, experts, es;
    // The corrected model's inputs (calculon_inputs.h): 0 when not modelled.
    double vocab, denseFeedforward, sharedExpertFeedforward, widest, ranks;
};

CountInputs countInputs(const Application &app, const Execution &exe)
{
    const auto d = [](std::int64_t v) { return static_cast<double>(v); };
    CountInputs c {};
    c.mbs = d(exe.microbatchSize);
    c.s = d(app.seqSize);
    c.h = d(app.hidden);
    c.f = d(app.feedforward);
    c.a = d(app.attnHeads);
    c.dh = d(app.attnSize);
    c.blocks = d(app.numBlocks);
    c.batch = d(exe.batchSize);
    c.tp = d(exe.tensorPar);
    c.tokens = c.mbs * c.s;
    c.k = exe.modelMoE ? d(exe.topKExperts) : 1;
    c.experts = exe.modelMoE ? d(exe.numExperts) : 1;
    c.es = exe.modelMoE ? d(exe.expertSlice) : 1;
    c.vocab = d(app.vocabSize);
    c.denseFeedforward = d(app.denseFeedforward);
    c.sharedExpertFeedforward = d(app.sharedExpertFeedforward);
    c.widest = std::max(
        { c.f, c.sharedExpertFeedforward * std::max(d(app.sharedExperts), 1.0), c.denseFeedforward });
    c.ranks = std::max({ d(app.qLoraRank), d(app.kvLoraRank), d(app.ropeHeadSize), d(app.valueHeadSize) });
    return c;
}

/// The largest counts the block builders (block_builder.h, block.cpp, moe_block.cpp) and the
/// batch formulas form in int64, with their constant factors, bounded from above: TP only ever
/// divides them, except in the reductions' act * (peers - 1). In the order of checkCounts()'s
/// names.
std::array<double, 12> countValues(const CountInputs &c)
{
    const double tokens = c.tokens, h = c.h;
    return {
        // The LM head, forward and backward: 3 * 2 * tokens * h * V (head_block.cpp); the
        // embedding table V * h and its gradient.
        6 * tokens * h * c.vocab,
        // The logits and the cross entropy over them: about 16 * tokens * V.
        16 * tokens * c.vocab,
        // Shared experts and dense blocks: MLPs as wide as their feedforward (as "MLP flops").
        tokens * c.widest * std::max(4 * h, 16.0),
        // Latent attention's low-rank projections: 2 * tokens * rank * a * dh at most (x 6 with
        // backward).
        6 * tokens * std::max(c.ranks, h) * c.a * std::max(c.dh, c.ranks),
        // BatchMatMul backward: (mbs * a / tp) * 2 * 2 * s * dh * s; softmax backward 8 * a * s^2 * mbs.
        c.mbs * c.a * c.s * c.s * std::max(4 * c.dh, 8.0),
        // The fused Q, K, V projection: 2 * tokens * h * (a + 2 * kv) * dh, kv <= a.
        6 * tokens * h * c.a * c.dh,
        // The MLP up projection (twice as wide with SwiGLU): 2 * tokens * h * 2f; its activation 15 f.
        tokens * c.f * std::max(4 * h, 16.0),
        // TP reductions: tokens * h * (tp - 1); layer norms 14 * tokens * h.
        tokens * h * std::max(c.tp, 14.0),
        // Experts: e * 2 * (pairs / e) * h * 2 * (f / ES) with pairs <= tokens * k * ES.
        4 * tokens * c.k * h * c.f,
        // The ES all-gather buffer pairs * h and its reduction pairs * h * (ES - 1).
        tokens * c.k * c.es * h * std::max(c.es, 2.0),
        // The router's logits.
        2 * tokens * h * c.experts,
        c.blocks * c.batch,
    };
}

/// The OutOfRange diagnostic of a count too large, naming its largest input.
void reportTooLarge(const Count &count, bool explain, Diagnostics &out)
{
    const auto largest = std::max_element(count.factors.begin(), count.factors.end(),
                                          [](const auto &x, const auto &y) { return x.second < y.second; });
    std::string inputs;
    for (const auto &[name, value] : count.factors)
        inputs += (inputs.empty() ? "" : ", ") + std::string(name) + " " + number(value);
    out.push_back({ DiagnosticCode::OutOfRange, largest->first,
                    explain
                        ? std::string(largest->first) + " " + number(largest->second) + " is too large: with "
                              + inputs + " one layer would count " + number(count.constant) + " " + count.what
                              + ", more than the 2^62 the model can compute with"
                        : std::string() });
}

} // namespace

void checkCounts(const Application &app, const Execution &exe, bool explain, Diagnostics &out)
{
    const CountInputs c = countInputs(app, exe);
    const std::array<double, 12> values = countValues(c);
    // The named factor lists are built only when a count is too large (this runs on every
    // layout a search tries).
    bool allSmall = true;
    for (const double value : values)
        allSmall &= value <= limits::kMaxCount; // NaN is not small
    if (allSmall)
        return;
    const double mbs = c.mbs, s = c.s, h = c.h;
    const std::array<Count, 12> counts { {
        { "LM-head flops",
          { { "seq_size", s }, { "microbatch_size", mbs }, { "hidden", h }, { "vocab_size", c.vocab } },
          values[0] },
        { "logits", { { "seq_size", s }, { "microbatch_size", mbs }, { "vocab_size", c.vocab } }, values[1] },
        { "dense and shared MLP flops",
          { { "seq_size", s },
            { "microbatch_size", mbs },
            { "hidden", h },
            { "dense_feedforward", c.denseFeedforward },
            { "shared_expert_feedforward", c.sharedExpertFeedforward } },
          values[2] },
        { "latent attention flops",
          { { "seq_size", s },
            { "microbatch_size", mbs },
            { "attn_heads", c.a },
            { "q_lora_rank", c.ranks } },
          values[3] },
        { "attention-score flops",
          { { "seq_size", s }, { "microbatch_size", mbs }, { "attn_heads", c.a } },
          values[4] },
        { "attention projection flops",
          { { "seq_size", s }, { "microbatch_size", mbs }, { "hidden", h }, { "attn_heads", c.a } },
          values[5] },
        { "MLP flops",
          { { "seq_size", s }, { "microbatch_size", mbs }, { "hidden", h }, { "feedforward", c.f } },
          values[6] },
        { "TP reduction flops", { { "seq_size", s }, { "hidden", h }, { "tensor_par", c.tp } }, values[7] },
        { "expert flops",
          { { "seq_size", s }, { "hidden", h }, { "feedforward", c.f }, { "top_k_experts", c.k } },
          values[8] },
        { "routed activations",
          { { "seq_size", s }, { "hidden", h }, { "top_k_experts", c.k }, { "expert_slice", c.es } },
          values[9] },
        { "router flops", { { "seq_size", s }, { "hidden", h }, { "num_experts", c.experts } }, values[10] },
        { "blocks times microbatches",
          { { "num_blocks", c.blocks }, { "batch_size", c.batch } },
          values[11] },
    } };
    for (const Count &count : counts) {
        if (count.constant <= limits::kMaxCount)
            continue;
        reportTooLarge(count, explain, out);
        return; // one is enough: the others name the same inputs
    }
}

} // namespace gapstudio::model
