// The final guard of an evaluation: results are finite and non-negative, or the evaluation is an
// error. The range checks (range_checks.cpp) keep inputs where the formulas stay finite; this
// guard catches what they miss (a new formula, an unforeseen combination), so that garbage never
// leaves the model as a result.
#include "engine/checks.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace gapstudio::model {

namespace {

/// The one result that may be negative (Stats: uneven stages can shorten the pipeline's fill and
/// drain); it must still be finite.
constexpr std::string_view kSignedStatistic = "stage_imbalance_time";

// The fast path reads Stats as the array of doubles it is (one per statistic, stats.h), two
// statistics per instruction: some 2.3 instructions a statistic where one at a time took four
// (README, "Command-line tool", `bench`).
#define GAPSTUDIO_GUARD_COUNT(name) +1
constexpr std::size_t kStatistics = 0 GAPSTUDIO_CALCULON_STATS(GAPSTUDIO_GUARD_COUNT)
    GAPSTUDIO_CALCULON_MOE_EXTRA_STATS(GAPSTUDIO_GUARD_COUNT)
        GAPSTUDIO_CORRECTED_EXTRA_STATS(GAPSTUDIO_GUARD_COUNT);
#undef GAPSTUDIO_GUARD_COUNT
static_assert(std::is_standard_layout_v<Stats> && std::is_trivially_copyable_v<Stats>);
static_assert(sizeof(Stats) == kStatistics * sizeof(double),
              "the guard reads Stats as its statistics, all doubles");
constexpr std::size_t kSignedIndex = offsetof(Stats, stage_imbalance_time) / sizeof(double);

/// Two statistics in one SSE2 register (the GCC and Clang vector extension).
using FieldPair = double __attribute__((vector_size(2 * sizeof(double))));

/// The lane-wise minimum; a NaN in `b` may become it (its sum is then not finite either).
FieldPair lower(FieldPair a, FieldPair b) noexcept
{
    return a < b ? a : b;
}

/// Four pairs of sums and minima: one chain of some hundred and fifty dependent additions
/// would wait on each one's latency.
struct GuardLanes {
    FieldPair sum[4] = {};
    FieldPair minimum[4] = {};
};

/// Adds Stats' doubles [begin, end) of `fields` (its object representation) to the lanes.
void scanFields(const unsigned char *fields, std::size_t begin, std::size_t end, GuardLanes &lanes) noexcept
{
    std::size_t i = begin;
    // Not unrolled: unrolled over the constant bounds, GCC 12 loads every pair first and spills.
#pragma GCC unroll 1
    for (; i + 8 <= end; i += 8) {
        for (std::size_t k = 0; k < 4; ++k) {
            FieldPair pair;
            std::memcpy(&pair, fields + (i + 2 * k) * sizeof(double), sizeof pair);
            lanes.sum[k] += pair;
            lanes.minimum[k] = lower(lanes.minimum[k], pair);
        }
    }
    for (; i < end; ++i) {
        double value = 0;
        std::memcpy(&value, fields + i * sizeof(double), sizeof value);
        const FieldPair pair = { value, 0.0 }; // 0 changes no sum, and the minima start at 0
        lanes.sum[0] += pair;
        lanes.minimum[0] = lower(lanes.minimum[0], pair);
    }
}

struct Suspect {
    std::string field;
    double value;
    double distance; ///< decades away from a typical value
};

double decades(double value, double typical)
{
    return value > 0 ? std::fabs(std::log10(value / typical)) : 400.0;
}

/// The input furthest (in decades) from a typical design: the likeliest cause of a result the
/// formulas cannot represent. Typical values: a GPT-3-class model on H100s (calculon-model.md).
Suspect likeliestCause(const Application &app, const Execution &exe, const System &sys)
{
    const auto d = [](std::int64_t v) { return static_cast<double>(v); };
    std::vector<Suspect> all = {
        { "seq_size", d(app.seqSize), decades(d(app.seqSize), 4096) },
        { "hidden", d(app.hidden), decades(d(app.hidden), 8192) },
        { "feedforward", d(app.feedforward), decades(d(app.feedforward), 32768) },
        { "attn_heads", d(app.attnHeads), decades(d(app.attnHeads), 64) },
        { "attn_size", d(app.attnSize), decades(d(app.attnSize), 128) },
        { "num_blocks", d(app.numBlocks), decades(d(app.numBlocks), 96) },
        { "batch_size", d(exe.batchSize), decades(d(exe.batchSize), 2048) },
        { "microbatch_size", d(exe.microbatchSize), decades(d(exe.microbatchSize), 2) },
        { "mem1/bandwidth", sys.mem1.bandwidth_Bps, decades(sys.mem1.bandwidth_Bps, 3e12) },
        { "mem1/capacity", sys.mem1.capacity_B, decades(sys.mem1.capacity_B, 8.6e10) },
    };
    const auto dt = static_cast<std::size_t>(exe.datatype);
    for (const auto &[engines, name, typical] :
         { std::tuple { &sys.matrix, "matrix", 1e15 }, std::tuple { &sys.vector, "vector", 1e14 } }) {
        if (const auto &engine = (*engines)[dt]) {
            const std::string field = std::string(name) + "/" + datatypeName(exe.datatype);
            all.push_back(
                { field + "/peak_flops", engine->peak_flops, decades(engine->peak_flops, typical) });
            for (const auto &[threshold, efficiency] : engine->efficiency.rows)
                all.push_back({ field + "/efficiency", efficiency, decades(efficiency, 0.5) });
        }
    }
    for (std::size_t i = 0; i < sys.networks.size(); ++i) {
        const NetworkTier &n = sys.networks[i];
        const std::string tier = "networks/" + std::to_string(i);
        all.push_back({ tier + "/bandwidth", n.bandwidth_Bps, decades(n.bandwidth_Bps, 1e11) });
        all.push_back({ tier + "/latency", n.latency_s, n.latency_s > 0 ? decades(n.latency_s, 1e-5) : 0 });
        all.push_back({ tier + "/efficiency", n.efficiency, decades(n.efficiency, 0.8) });
        all.push_back({ tier + "/processor_usage", n.processorUsage, decades(1 - n.processorUsage, 0.9) });
    }
    Suspect worst = all.front();
    for (const Suspect &s : all)
        if (s.distance > worst.distance)
            worst = s;
    return worst;
}

} // namespace

std::optional<Diagnostic> checkResults(const Application &app, const Execution &exe, const System &sys,
                                       const Stats &stats, bool explain)
{
    // Fast path (evaluate() runs this on every layout a search tries): scanFields() without
    // branches. A NaN or an infinity makes a sum non-finite; a minimum catches a negative. A sum
    // that overflows only sends a fine result to the exact scan below.
    const auto *fields = reinterpret_cast<const unsigned char *>(&stats);
    GuardLanes lanes;
    scanFields(fields, 0, kSignedIndex, lanes);
    lanes.sum[0] += FieldPair { stats.stage_imbalance_time, 0.0 }; // finite, of either sign
    scanFields(fields, kSignedIndex + 1, kStatistics, lanes);
    const FieldPair sum = (lanes.sum[0] + lanes.sum[1]) + (lanes.sum[2] + lanes.sum[3]);
    const FieldPair low
        = lower(lower(lanes.minimum[0], lanes.minimum[1]), lower(lanes.minimum[2], lanes.minimum[3]));
    if (std::isfinite(sum[0] + sum[1]) && std::min(low[0], low[1]) >= 0)
        return std::nullopt;
    const char *bad = nullptr;
    double badValue = 0;
    const auto check = [&](std::string_view name, double value) {
        if (bad || (value >= 0 && std::isfinite(value)))
            return;
        if (name == kSignedStatistic && std::isfinite(value))
            return;
        // The reference's None: no checkpoint buffer with offloading in inference.
        if (std::isnan(value) && !exe.training && name == "act_checkpoint_size_with_offload")
            return;
        bad = name.data();
        badValue = value;
    };
#define GAPSTUDIO_GUARD_FIELD(name) check(#name, stats.name);
    GAPSTUDIO_CALCULON_STATS(GAPSTUDIO_GUARD_FIELD)
    GAPSTUDIO_CALCULON_MOE_EXTRA_STATS(GAPSTUDIO_GUARD_FIELD)
    GAPSTUDIO_CORRECTED_EXTRA_STATS(GAPSTUDIO_GUARD_FIELD)
#undef GAPSTUDIO_GUARD_FIELD
    if (!bad)
        return std::nullopt;
    const Suspect cause = likeliestCause(app, exe, sys);
    std::string message;
    if (explain) {
        char value[32];
        std::snprintf(value, sizeof value, "%g", badValue);
        char input[32];
        std::snprintf(input, sizeof input, "%g", cause.value);
        message = std::string("the model cannot compute this design: ") + bad + " came out as " + value
                  + " (not a finite, non-negative number); the input furthest from a usual design is "
                  + cause.field + " = " + input;
    }
    return Diagnostic { DiagnosticCode::NonFiniteResult, cause.field, message };
}

} // namespace gapstudio::model
