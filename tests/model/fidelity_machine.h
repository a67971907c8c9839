#pragma once
// The small synthetic machine, models and layouts the corrected model's feature tests
// (tst_fidelity, tst_fidelity_layers) derive their hand-counted numbers on.
#include "gapstudio/model/evaluate.h"

#include <QtGlobal>

#include <cstdint>

namespace gapstudio::test::fidelity {

using namespace gapstudio::model;

/// A small synthetic machine: BF16 1 PFLOP/s, FP8 2 PFLOP/s, 1 TB/s HBM, an 8-GPU scale-up tier
/// at 100 GB/s and a scale-out tier at 10 GB/s (ring collectives, no latency unless set).
inline System machine()
{
    System sys;
    const auto engine = [](double peak) {
        return ComputeEngine { peak, EfficiencyTable { { { 0, 1.0 } } } };
    };
    for (const Datatype t : { Datatype::Bfloat16, Datatype::Float16 }) {
        sys.matrix[static_cast<std::size_t>(t)] = engine(1e15);
        sys.vector[static_cast<std::size_t>(t)] = engine(1e14);
    }
    sys.matrix[static_cast<std::size_t>(Datatype::Float8)] = engine(2e15);
    sys.vector[static_cast<std::size_t>(Datatype::Float8)] = engine(1e14);
    sys.mem1 = { 1e15, 1e12, EfficiencyTable { { { 0, 1.0 } } } };
    sys.mem2 = { 0, 1e9, EfficiencyTable { { { 0, 1.0 } } } };
    NetworkTier up;
    up.bandwidth_Bps = 100e9;
    up.size = 8;
    up.p2p = { 1, 0, 0 };
    up.reduceScatter = up.allGather = { 1, -1, 0 };
    up.allReduce = { 2, -1, 0 };
    up.allToAll = { 1, 0, 0 };
    NetworkTier out = up;
    out.bandwidth_Bps = 10e9;
    out.size = 4096;
    sys.networks = { up, out };
    return sys;
}

inline Application gpt(std::int64_t seq = 2048)
{
    Application app;
    app.hidden = 1024;
    app.feedforward = 4096;
    app.seqSize = seq;
    app.attnHeads = 16;
    app.attnSize = 64;
    app.numBlocks = 4;
    return app;
}

inline Execution layout(std::int64_t tp = 1, std::int64_t dp = 1)
{
    Execution exe;
    exe.tensorPar = tp;
    exe.dataPar = dp;
    exe.numProcs = tp * dp;
    exe.batchSize = dp;
    exe.microbatchSize = 1;
    exe.datatype = Datatype::Bfloat16;
    exe.tensorParNet = 0;
    exe.pipelineParNet = 1;
    exe.dataParNet = 1;
    exe.contextParNet = 0;
    exe.tensorParCommType = tp > 1 ? TpCommType::RsAg : TpCommType::Ar;
    exe.optimizerSharding = dp > 1;
    return exe;
}

/// Eight experts, top-2, one per GPU of an 8-GPU expert-parallel group in the scale-up domain.
inline Execution moeLayout()
{
    Execution exe = layout(1, 8);
    exe.modelMoE = true;
    exe.numExperts = 8;
    exe.topKExperts = 2;
    exe.expertPar = 8;
    exe.dataParExp = 1;
    exe.expertParNet = 0;
    exe.dataParExpNet = 1;
    return exe;
}

inline EvaluateOptions corrected(bool calibrated = false)
{
    EvaluateOptions o;
    o.withLayers = true;
    o.quirks = Quirks::corrected();
    o.features = Features::corrected();
    o.features.calibrated = calibrated;
    return o;
}

inline Evaluation run(const Application &app, const Execution &exe, const EvaluateOptions &options)
{
    Evaluation e = evaluate(app, exe, machine(), options);
    if (!e.ok)
        qWarning("%s", e.diagnostics.empty() ? "?" : e.diagnostics.front().message.c_str());
    return e;
}

inline const LayerStats &layer(const Evaluation &e, const char *name)
{
    for (const LayerStats &l : e.layers)
        if (l.name == name)
            return l;
    qFatal("no layer %s", name);
}

} // namespace gapstudio::test::fidelity
