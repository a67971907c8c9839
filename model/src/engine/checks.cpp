// Validity checks of the reference model (calculon-model.md §2): its assertions become
// "malformed input" diagnostics, its `Llm.Error`s "infeasible layout" diagnostics. The messages
// start with the reference's own text so that scripts matching it keep working.
#include "gapstudio/model/evaluate.h"

#include "engine/checks.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

namespace gapstudio::model {

namespace {

std::string str(std::int64_t v)
{
    return std::to_string(v);
}

/// a * b, saturated at INT64_MAX: products of unchecked inputs must not overflow (positive only).
std::int64_t times(std::int64_t a, std::int64_t b) noexcept
{
    std::int64_t product = 0;
    return __builtin_mul_overflow(a, b, &product) ? INT64_MAX : product;
}

} // namespace

std::int64_t layoutGpuCount(const Execution &e, bool contextParallel) noexcept
{
    const std::int64_t cp = contextParallel ? e.contextPar : 1;
    return times(times(times(e.tensorPar, cp), e.pipelinePar), e.dataPar);
}

std::int64_t expertLayoutGpuCount(const Execution &e) noexcept
{
    return times(times(times(e.expertPar, e.expertSlice), e.pipelinePar), e.dataParExp);
}

namespace {

class Checker {
public:
    Checker(Diagnostics &out, bool explain) : mOut(out), mExplain(explain) {}

    /// Records a diagnostic when `condition` fails. The message is built only then: these
    /// checks run on every evaluation of a layout search.
    template <typename Message>
    bool require(bool condition, DiagnosticCode code, const char *field, Message &&message)
    {
        if (!condition)
            mOut.push_back({code, field, mExplain ? std::string(message()) : std::string()});
        return condition;
    }

    template <typename Message> bool malformed(bool condition, const char *field, Message &&message)
    {
        return require(condition, DiagnosticCode::MalformedExecution, field, std::forward<Message>(message));
    }

private:
    Diagnostics &mOut;
    bool mExplain;
};

void checkApplication(const Application &app, Checker &c)
{
    const std::array<std::pair<const char *, std::int64_t>, 6> fields = {{{"hidden", app.hidden},
                                                                           {"feedforward", app.feedforward},
                                                                           {"seq_size", app.seqSize},
                                                                           {"attn_heads", app.attnHeads},
                                                                           {"attn_size", app.attnSize},
                                                                           {"num_blocks", app.numBlocks}}};
    for (const auto &[name, value] : fields)
        c.malformed(value > 0, name, [&] { return std::string(std::string("model ") + name + " must be positive, got " + str(value)); });
}

/// The reference's `Llm.Execution` assertions (calculon-model.md §2, "plain asserts"); the
/// corrected model adds context parallelism to the GPU count.
bool checkExecutionRules(const Execution &e, Checker &c, const Features &features)
{
    bool ok = c.malformed(e.tensorPar > 0, "tensor_par", [&] { return std::string("tensor_par must be positive, got " + str(e.tensorPar)); });
    ok &= c.malformed(e.pipelinePar > 0, "pipeline_par", [&] { return std::string("pipeline_par must be positive, got " + str(e.pipelinePar)); });
    ok &= c.malformed(e.dataPar > 0, "data_par", [&] { return std::string("data_par must be positive, got " + str(e.dataPar)); });
    ok &= c.malformed(e.batchSize > 0, "batch_size", [&] { return std::string("batch_size must be positive, got " + str(e.batchSize)); });
    ok &= c.malformed(e.microbatchSize > 0, "microbatch_size", [&] { return std::string("microbatch_size must be positive, got " + str(e.microbatchSize)); });
    ok &= c.malformed(e.pipelineInterleaving > 0, "pipeline_interleaving", [&] { return std::string("pipeline_interleaving must be positive, got " + str(e.pipelineInterleaving)); });
    if (!ok)
        return false;
    // Context parallelism (a corrected-model feature) is one more factor of the GPUs.
    const std::int64_t cp = features.attention ? e.contextPar : 1;
    const std::int64_t procs = layoutGpuCount(e, features.attention);
    ok &= c.malformed(e.numProcs == procs, "num_procs", [&] {
        return "num_procs " + str(e.numProcs) + " must equal tensor_par * "
               + (cp > 1 ? std::string("context_par * ") : std::string()) + "pipeline_par * data_par = " + str(procs);
    });
    if (c.malformed(e.batchSize % e.dataPar == 0, "batch_size", [&] { return std::string("batch_size " + str(e.batchSize) + " must be divisible by data_par " + str(e.dataPar)); })) {
        const std::int64_t local = e.batchSize / e.dataPar;
        ok &= c.malformed(local % e.microbatchSize == 0, "microbatch_size", [&] { return std::string("microbatch_size " + str(e.microbatchSize) + " must divide the local batch " + str(local)); });
    } else {
        ok = false;
    }
    ok &= c.malformed(e.training || e.activationRecompute == Recompute::None, "activation_recompute", [&] { return std::string("activation recompute needs training"); });
    ok &= c.malformed(e.pipelinePar > 1 || e.pipelineInterleaving == 1, "pipeline_interleaving", [&] { return std::string("pipeline_interleaving " + str(e.pipelineInterleaving) + " needs pipeline_par > 1"); });
    ok &= c.malformed(!e.optimizerSharding || e.dataPar > 1, "optimizer_sharding", [&] { return std::string("optimizer_sharding needs data_par > 1"); });
    ok &= c.malformed(e.tensorParOverlap == TpOverlap::None || e.tensorPar > 1, "tensor_par_overlap", [&] { return std::string("tensor_par_overlap needs tensor_par > 1"); });
    ok &= c.malformed(!e.seqParAgRedo || e.tensorParCommType == TpCommType::RsAg, "seq_par_ag_redo", [&] { return std::string("seq_par_ag_redo needs tensor_par_comm_type rs_ag"); });
    ok &= c.malformed(!e.seqParAgRedo || e.activationRecompute != Recompute::Full, "seq_par_ag_redo", [&] { return std::string("seq_par_ag_redo cannot be combined with full recompute"); });
    ok &= c.malformed(!e.dataParOverlap || (e.training && e.dataPar > 1), "data_par_overlap", [&] { return std::string("data_par_overlap needs training and data_par > 1"); });
    ok &= c.malformed(!e.optimizerOffload || e.training, "optimizer_offload", [&] { return std::string("optimizer_offload needs training"); });
    return ok;
}

struct TierUse {
    const char *field;      ///< the execution key naming the tier
    const char *degreeName; ///< the execution key of the degree
    std::int64_t tier;
    std::int64_t degree;
};

/// The product of the degrees mapped onto each tier must fit in it and, if the tier must be
/// filled, divide its size (reference `Llm._check_network_assignments`; calculon-MoE checks the
/// MoE side and the attention side separately, `side` names it in the message).
template <std::size_t N>
bool checkTierProducts(const std::array<TierUse, N> &uses, const System &sys, Checker &c, const char *side)
{
    const auto tiers = static_cast<std::int64_t>(sys.networks.size());
    for (std::int64_t tier = 0; tier < tiers; ++tier) {
        std::int64_t size = 1;
        const char *field = nullptr;
        for (const TierUse &u : uses) {
            if (u.tier == tier && u.degree > 1) { // a degree of 1 does not use its network
                size = times(size, u.degree);
                field = field ? field : u.field;
            }
        }
        if (!field)
            continue;
        // "tensor_par 8 * data_par 4", for the messages only.
        const auto who = [&] {
            std::string text;
            for (const TierUse &u : uses)
                if (u.tier == tier && u.degree > 1)
                    text += (text.empty() ? "" : " * ") + std::string(u.degreeName) + " " + str(u.degree);
            return text;
        };
        const NetworkTier &net = sys.networks[static_cast<std::size_t>(tier)];
        const auto name = [tier] { return "Network tier" + str(tier); }; // for the messages only
        if (!c.require(size <= net.size, DiagnosticCode::NetworkTooSmall, field, [&] {
                const std::string detail = who() + " needs " + str(size) + " processors, the tier has " + str(net.size);
                if (side)
                    return name() + ": " + str(size) + " isn't big enough, " + str(net.size) + " -- " + side + " (" +
                           detail + ")";
                return name() + " isn't big enough: " + detail;
            }))
            return false;
        if (!c.require(!net.mustBeFilled || net.size % size == 0, DiagnosticCode::NetworkNotFilled, field, [&] {
                const std::string detail =
                    "its " + str(net.size) + " processors must be a multiple of " + who() + " = " + str(size);
                // calculon-MoE says "MoE" for both sides (its Q15).
                return side ? name() + " isn't fully used MoE (" + detail + ")" : name() + " isn't fully used: " + detail;
            }))
            return false;
    }
    return true;
}

bool checkNetworks(const Execution &e, const System &sys, Checker &c, const Features &features)
{
    const auto tiers = static_cast<std::int64_t>(sys.networks.size());
    if (features.attention && e.contextPar > 1) {
        // The corrected model: CP joins the attention side's degrees.
        const TierUse cp{"context_par_net", "context_par", e.contextParNet, e.contextPar};
        if (!c.malformed(cp.tier >= 0 && cp.tier < tiers, cp.field, [&] {
                return std::string("context_par_net ") + str(cp.tier) + " is not a network tier of the system (it has " +
                       str(tiers) + ")";
            }))
            return false;
        const std::array<TierUse, 4> attention = {{{"tensor_par_net", "tensor_par", e.tensorParNet, e.tensorPar},
                                                   cp,
                                                   {"pipeline_par_net", "pipeline_par", e.pipelineParNet, e.pipelinePar},
                                                   {"data_par_net", "data_par", e.dataParNet, e.dataPar}}};
        if (!checkTierProducts(attention, sys, c, e.modelMoE ? "non-MoE" : nullptr))
            return false;
    }
    const std::array<TierUse, 6> all = {{{"tensor_par_net", "tensor_par", e.tensorParNet, e.tensorPar},
                                         {"pipeline_par_net", "pipeline_par", e.pipelineParNet, e.pipelinePar},
                                         {"data_par_net", "data_par", e.dataParNet, e.dataPar},
                                         {"data_par_exp_net", "data_par_exp", e.dataParExpNet, e.dataParExp},
                                         {"expert_par_net", "expert_par", e.expertParNet, e.expertPar},
                                         {"expert_slice_net", "expert_slice", e.expertSliceNet, e.expertSlice}}};
    bool ok = true;
    for (const TierUse &u : all)
        ok &= c.malformed(u.tier >= 0 && u.tier < tiers, u.field, [&] {
            return std::string(u.field) + " " + str(u.tier) + " is not a network tier of the system (it has " +
                   str(tiers) + ")";
        });
    if (!ok)
        return false;
    if (!e.modelMoE)
        return checkTierProducts(std::array<TierUse, 3>{all[0], all[1], all[2]}, sys, c, nullptr);
    // calculon-MoE: the expert side (PP, DPe, EP, ES) and the attention side (PP, TP, DP).
    return checkTierProducts(std::array<TierUse, 4>{all[1], all[3], all[4], all[5]}, sys, c, "MoE") &&
           checkTierProducts(std::array<TierUse, 3>{all[1], all[0], all[2]}, sys, c, "non-MoE");
}

/// calculon-MoE's execution rules (calculon-moe-model.md §2.2, §3).
bool checkMoeRules(const Execution &e, const Application &app, Checker &c)
{
    bool ok = c.malformed(e.numExperts > 0, "num_experts", [&] { return "num_experts must be positive, got " + str(e.numExperts); });
    ok &= c.malformed(e.topKExperts > 0, "top_k_experts", [&] { return "top_k_experts must be positive, got " + str(e.topKExperts); });
    ok &= c.malformed(e.expertPar > 0, "expert_par", [&] { return "expert_par must be positive, got " + str(e.expertPar); });
    ok &= c.malformed(e.expertSlice > 0, "expert_slice", [&] { return "expert_slice must be positive, got " + str(e.expertSlice); });
    ok &= c.malformed(e.dataParExp > 0, "data_par_exp", [&] { return "data_par_exp must be positive, got " + str(e.dataParExp); });
    if (!ok)
        return false;
    if (!e.modelMoE) {
        ok &= c.malformed(e.expertPar == 1, "expert_par", [&] { return "no MoE, expert parallel should be 1 (got " + str(e.expertPar) + ")"; });
        ok &= c.malformed(e.expertSlice == 1, "expert_slice", [&] { return "no MoE, expert slice should be 1 (got " + str(e.expertSlice) + ")"; });
        return ok;
    }
    ok &= c.malformed(e.numExperts >= e.expertPar, "expert_par", [&] {
        return "One expert cannot be partitioned across multiple gpus (expert_par " + str(e.expertPar) + " > num_experts " + str(e.numExperts) + ")";
    });
    if (ok)
        ok &= c.malformed(e.numExperts % e.expertPar == 0, "expert_par", [&] {
            return "The number of experts should be multiples of expert parallelism (num_experts " + str(e.numExperts) + ", expert_par " + str(e.expertPar) + ")";
        });
    ok &= c.malformed(e.numProcs == expertLayoutGpuCount(e), "num_procs", [&] {
                          return "expert_par " + str(e.expertPar) + " * expert_slice " + str(e.expertSlice)
                                 + " * pipeline_par " + str(e.pipelinePar) + " * data_par_exp "
                                 + str(e.dataParExp) + " != num_procs " + str(e.numProcs);
                      });
    ok &= c.malformed(app.numBlocks >= e.pipelinePar, "pipeline_par", [&] {
        return "pipeline_par " + str(e.pipelinePar) + " exceeds num_blocks " + str(app.numBlocks);
    });
    return ok;
}

} // namespace

std::string humanBytes(double bytes)
{
    // The reference's human_format(value, 'bytes'): powers of 1024, three decimals.
    static constexpr std::array<const char *, 7> labels = {"", "K", "M", "G", "T", "P", "E"};
    std::size_t index = 0;
    while (index + 1 < labels.size() && bytes >= 1024) {
        bytes /= 1024;
        ++index;
    }
    std::array<char, 64> text{};
    std::snprintf(text.data(), text.size(), "%.3f %siB", bytes, labels[index]);
    return text.data();
}

/// The corrected model's own rules: context parallelism and pipeline stage sizes.
bool checkCorrectedRules(const Application &app, const Execution &e, Checker &c, const Features &features)
{
    bool ok = c.malformed(e.contextPar >= 1, "context_par", [&] { return "context_par must be positive, got " + str(e.contextPar); });
    if (!features.attention) {
        ok &= c.malformed(e.contextPar == 1, "context_par", [&] {
            return "context parallelism (context_par " + str(e.contextPar) + ") is not part of the reference models";
        });
    } else if (e.contextPar > 1) {
        ok &= c.malformed(e.attentionKernel == AttentionKernel::Flash, "attention_kernel", [&] {
            return std::string("context parallelism needs the fused (flash) attention kernel");
        });
        ok &= c.malformed(app.seqSize % (2 * e.contextPar) == 0, "context_par", [&] {
            return "seq_size " + str(app.seqSize) + " must split into 2 * context_par = " + str(2 * e.contextPar) +
                   " equal chunks (load-balanced causal attention)";
        });
    }
    const std::int64_t ends = std::max<std::int64_t>(e.firstStageBlocks, 0) + std::max<std::int64_t>(e.lastStageBlocks, 0);
    if (features.embeddingAndHead && ends > 0) {
        const std::int64_t fixed = (e.firstStageBlocks > 0 ? 1 : 0) + (e.lastStageBlocks > 0 ? 1 : 0);
        ok &= c.malformed(e.pipelinePar > 1, "first_stage_blocks", [&] {
            return std::string("first/last stage blocks need pipeline_par > 1");
        });
        ok &= c.malformed(ends < app.numBlocks || (fixed == e.pipelinePar && ends == app.numBlocks), "first_stage_blocks", [&] {
            return "first_stage_blocks + last_stage_blocks = " + str(ends) + " leave no blocks for the other " +
                   str(e.pipelinePar - fixed) + " stages of " + str(app.numBlocks);
        });
        ok &= c.malformed(fixed < e.pipelinePar || ends == app.numBlocks, "last_stage_blocks", [&] {
            return "first_stage_blocks + last_stage_blocks must equal num_blocks " + str(app.numBlocks) + " with 2 stages";
        });
    }
    return ok;
}

bool networksFit(const Execution &exe, const System &sys, const Features &features)
{
    Diagnostics unexplained;
    Checker c(unexplained, false);
    return checkNetworks(exe, sys, c, features);
}

Diagnostics checkConfiguration(const Application &app, const Execution &exe, const System &sys, bool explain,
                               const Features &features)
{
    return checkConfiguration(app, exe, sys, explain, features, true);
}

Diagnostics checkConfiguration(const Application &app, const Execution &exe, const System &sys, bool explain,
                               const Features &features, bool systemRanges)
{
    Diagnostics out;
    Checker c(out, explain);
    checkApplication(app, c);
    if (!out.empty() || !checkCorrectedRules(app, exe, c, features) || !checkExecutionRules(exe, c, features) ||
        !checkMoeRules(exe, app, c))
        return out;
    // What the model cannot compute with (limits.h): from here on, products of inputs are safe.
    checkCounts(app, exe, explain, out);
    if (systemRanges)
        checkSystemRanges(exe, sys, explain, out);
    if (!out.empty())
        return out;
    // Block construction asserts: TP must split the layer widths evenly.
    const std::int64_t tp = exe.tensorPar;
    c.malformed(app.hidden % tp == 0, "tensor_par", [&] { return std::string("tensor_par " + str(tp) + " does not divide hidden " + str(app.hidden)); });
    c.malformed(app.feedforward % tp == 0, "tensor_par", [&] { return std::string("tensor_par " + str(tp) + " does not divide feedforward " + str(app.feedforward)); });
    // calculon-MoE does not check the heads in MoE blocks (it floors a/tp, its Q28).
    c.malformed(exe.modelMoE || app.attnHeads % tp == 0, "tensor_par", [&] { return std::string("tensor_par " + str(tp) + " does not divide attn_heads " + str(app.attnHeads)); });
    if (exe.tensorParCommType != TpCommType::Ar || (exe.modelMoE && tp > 1))
        c.malformed((exe.microbatchSize * app.seqSize) % (tp * (features.attention ? exe.contextPar : 1)) == 0, "microbatch_size", [&] { return std::string("microbatch_size * seq_size = " + str(exe.microbatchSize * app.seqSize) +
                        " must be divisible by tensor_par " + str(tp) + " with sequence-split TP communication"); });
    const auto dt = static_cast<std::size_t>(exe.datatype);
    if (!sys.matrix[dt] || !sys.vector[dt])
        out.push_back({DiagnosticCode::MissingDatatype, "datatype",
                       std::string("the system has no matrix and vector entry for datatype ") +
                           datatypeName(exe.datatype)});
    else if (sys.matrix[dt]->peak_flops <= 0 || sys.vector[dt]->peak_flops <= 0)
        // The reference divides by zero here (calculon-MoE's Q13 for float4).
        out.push_back({DiagnosticCode::MissingDatatype, "datatype",
                       std::string("the system's ") + (sys.matrix[dt]->peak_flops <= 0 ? "matrix" : "vector") +
                           " engine has 0 TFLOPS for datatype " + datatypeName(exe.datatype)});
    if (!out.empty())
        return out;

    // The reference's Llm.Error checks, in its order (compile()).
    if (!checkNetworks(exe, sys, c, features))
        return out;
    const std::int64_t blocksPerProc = (app.numBlocks + exe.pipelinePar - 1) / exe.pipelinePar;
    if (!c.require(exe.pipelineInterleaving <= blocksPerProc, DiagnosticCode::BadInterleaving, "pipeline_interleaving", [&] { return std::string("Pipeline interleaving must be less than or equal to the number of blocks per processor (" +
                       str(exe.pipelineInterleaving) + " > " + str(blocksPerProc) + ")"); }))
        return out;
    if (!c.require(blocksPerProc % exe.pipelineInterleaving == 0, DiagnosticCode::BadInterleaving,
                   "pipeline_interleaving", [&] { return std::string("Pipeline interleaving must be a factor value of the number of blocks per processor (" +
                       str(exe.pipelineInterleaving) + " does not divide " + str(blocksPerProc) + ")"); }))
        return out;
    const bool offload = exe.weightOffload || exe.activationsOffload || exe.optimizerOffload;
    c.require(!offload || blocksPerProc > 2, DiagnosticCode::OffloadTooFewBlocks,
              exe.weightOffload ? "weight_offload" : exe.activationsOffload ? "activations_offload" : "optimizer_offload", [&] { return std::string("Offloading requires each processor to handle at least 3 blocks (it has " + str(blocksPerProc) + ")"); });
    return out;
}

} // namespace gapstudio::model
