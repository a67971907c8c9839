// Validity checks of the reference model (calculon-model.md §2): its assertions become
// "malformed input" diagnostics, its `Llm.Error`s "infeasible layout" diagnostics. The messages
// start with the reference's own text so that scripts matching it keep working.
#include "gapstudio/model/evaluate.h"

#include "checks.h"

#include <array>
#include <cstdio>
#include <string>
#include <utility>

namespace gapstudio::model {

namespace {

std::string str(std::int64_t v)
{
    return std::to_string(v);
}

class Checker {
public:
    explicit Checker(Diagnostics &out) : mOut(out) {}

    /// Records a diagnostic when `condition` fails. The message is built only then: these
    /// checks run on every evaluation of a layout search.
    template <typename Message>
    bool require(bool condition, DiagnosticCode code, const char *field, Message &&message)
    {
        if (!condition)
            mOut.push_back({code, field, message()});
        return condition;
    }

    template <typename Message> bool malformed(bool condition, const char *field, Message &&message)
    {
        return require(condition, DiagnosticCode::MalformedExecution, field, std::forward<Message>(message));
    }

private:
    Diagnostics &mOut;
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

/// The reference's `Llm.Execution` assertions (calculon-model.md §2, "plain asserts").
bool checkExecutionRules(const Execution &e, Checker &c)
{
    bool ok = c.malformed(e.tensorPar > 0, "tensor_par", [&] { return std::string("tensor_par must be positive, got " + str(e.tensorPar)); });
    ok &= c.malformed(e.pipelinePar > 0, "pipeline_par", [&] { return std::string("pipeline_par must be positive, got " + str(e.pipelinePar)); });
    ok &= c.malformed(e.dataPar > 0, "data_par", [&] { return std::string("data_par must be positive, got " + str(e.dataPar)); });
    ok &= c.malformed(e.batchSize > 0, "batch_size", [&] { return std::string("batch_size must be positive, got " + str(e.batchSize)); });
    ok &= c.malformed(e.microbatchSize > 0, "microbatch_size", [&] { return std::string("microbatch_size must be positive, got " + str(e.microbatchSize)); });
    ok &= c.malformed(e.pipelineInterleaving > 0, "pipeline_interleaving", [&] { return std::string("pipeline_interleaving must be positive, got " + str(e.pipelineInterleaving)); });
    if (!ok)
        return false;
    ok &= c.malformed(e.numProcs == e.tensorPar * e.pipelinePar * e.dataPar, "num_procs", [&] { return std::string("num_procs " + str(e.numProcs) + " must equal tensor_par * pipeline_par * data_par = " +
                          str(e.tensorPar * e.pipelinePar * e.dataPar)); });
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

/// Reference `Llm._check_network_assignments`.
bool checkNetworks(const Execution &e, const System &sys, Checker &c)
{
    const auto tiers = static_cast<std::int64_t>(sys.networks.size());
    struct Use {
        const char *field;
        const char *degreeName;
        std::int64_t tier;
        std::int64_t degree;
    };
    const std::array<Use, 3> uses = {{{"tensor_par_net", "tensor_par", e.tensorParNet, e.tensorPar},
                                      {"pipeline_par_net", "pipeline_par", e.pipelineParNet, e.pipelinePar},
                                      {"data_par_net", "data_par", e.dataParNet, e.dataPar}}};
    bool ok = true;
    for (const Use &u : uses)
        ok &= c.malformed(u.tier >= 0 && u.tier < tiers, u.field, [&] { return std::string(std::string(u.field) + " " + str(u.tier) + " is not a network tier of the system (it has " +
                              str(tiers) + ")"); });
    if (!ok)
        return false;
    for (std::int64_t tier = 0; tier < tiers; ++tier) {
        std::int64_t size = 1;
        const char *field = nullptr;
        for (const Use &u : uses) {
            if (u.tier == tier && u.degree > 1) { // a degree of 1 does not use its network
                size *= u.degree;
                field = field ? field : u.field;
            }
        }
        if (!field)
            continue;
        // "tensor_par 8 * data_par 4", for the messages only.
        const auto who = [&] {
            std::string text;
            for (const Use &u : uses)
                if (u.tier == tier && u.degree > 1)
                    text += (text.empty() ? "" : " * ") + std::string(u.degreeName) + " " + str(u.degree);
            return text;
        };
        const NetworkTier &net = sys.networks[static_cast<std::size_t>(tier)];
        const bool bigEnough = size <= net.size;
        ok &= c.require(bigEnough, DiagnosticCode::NetworkTooSmall, field, [&] {
            return "Network tier" + str(tier) + " isn't big enough: " + who() + " needs " + str(size) +
                   " processors, the tier has " + str(net.size);
        });
        if (bigEnough)
            ok &= c.require(!net.mustBeFilled || net.size % size == 0, DiagnosticCode::NetworkNotFilled, field, [&] {
                return "Network tier" + str(tier) + " isn't fully used: its " + str(net.size) +
                       " processors must be a multiple of " + who() + " = " + str(size);
            });
    }
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

Diagnostics checkConfiguration(const Application &app, const Execution &exe, const System &sys)
{
    Diagnostics out;
    Checker c(out);
    checkApplication(app, c);
    if (!out.empty() || !checkExecutionRules(exe, c))
        return out;
    // Block construction asserts: TP must split the layer widths evenly.
    const std::int64_t tp = exe.tensorPar;
    c.malformed(app.hidden % tp == 0, "tensor_par", [&] { return std::string("tensor_par " + str(tp) + " does not divide hidden " + str(app.hidden)); });
    c.malformed(app.feedforward % tp == 0, "tensor_par", [&] { return std::string("tensor_par " + str(tp) + " does not divide feedforward " + str(app.feedforward)); });
    c.malformed(app.attnHeads % tp == 0, "tensor_par", [&] { return std::string("tensor_par " + str(tp) + " does not divide attn_heads " + str(app.attnHeads)); });
    if (exe.tensorParCommType != TpCommType::Ar)
        c.malformed((exe.microbatchSize * app.seqSize) % tp == 0, "microbatch_size", [&] { return std::string("microbatch_size * seq_size = " + str(exe.microbatchSize * app.seqSize) +
                        " must be divisible by tensor_par " + str(tp) + " with sequence-split TP communication"); });
    const auto dt = static_cast<std::size_t>(exe.datatype);
    if (!sys.matrix[dt] || !sys.vector[dt])
        out.push_back({DiagnosticCode::MissingDatatype, "datatype",
                       std::string("the system has no matrix and vector entry for datatype ") +
                           datatypeName(exe.datatype)});
    if (!out.empty())
        return out;

    // The reference's Llm.Error checks, in its order (compile()).
    if (!checkNetworks(exe, sys, c))
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
