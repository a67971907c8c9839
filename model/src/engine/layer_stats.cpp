// One layer's statistics as the reference's `Layer.get_stats_json` reports them (eval --layers):
// the per-stage costs, traffic and memory of layers.h and layer_memory.h, read one layer at a
// time. The block's sums are computeBlockStats' (block_stats.cpp).
#include "engine/block_stats.h"

#include "engine/layer_memory.h"

#include <limits>

namespace gapstudio::model::detail {

namespace {

double arithmeticIntensity(double flops, double bytes) noexcept
{
    if (flops == 0)
        return 0;
    if (bytes == 0)
        return std::numeric_limits<double>::infinity();
    return flops / bytes;
}

} // namespace

LayerStats layerStats(const Layer &l, const LayerContext &c)
{
    // Mirrors the reference's `Layer.get_stats_json`, which calls the processing-time function
    // stage by stage, so each stage's exposed time is the one just computed.
    LayerStats r;
    r.name = l.name;
    r.inputs_size = l.inputs;
    r.outputs_size = l.outputs;
    const auto stage = [&](Stage s, double &flops, double &mem, double &intensity, double *proc) {
        flops = stageFlops(l, c, s);
        mem = stageCost(l, c, s).bytes; // the bytes the block totals count (eager kernels included)
        intensity = arithmeticIntensity(flops, mem);
        if (proc)
            *proc = processingTime(l, c, s).time;
    };
    const auto exposed = [&](Stage s, bool base) {
        if (l.kind == LayerKind::TPComm)
            return netTime(l, c, s, base);
        return l.kind == LayerKind::LinearOverlapped ? processingTime(l, c, s).exposed : 0.0;
    };
    stage(Stage::Fw, r.fw_flops, r.fw_mem_accessed, r.fw_arithmetic_intensity, &r.fw_processing_time);
    r.baseblock_fw_tp_comm_tile = commTile(l, c, Stage::Fw, true);
    r.edgeblock_fw_tp_comm_tile = commTile(l, c, Stage::Fw, false);
    r.baseblock_fw_tp_comm_size = commBytes(l, c, Stage::Fw, true);
    r.edgeblock_fw_tp_comm_size = commBytes(l, c, Stage::Fw, false);
    r.baseblock_fw_tp_comm_time = netTime(l, c, Stage::Fw, true);
    r.edgeblock_fw_tp_comm_time = netTime(l, c, Stage::Fw, false);
    r.baseblock_fw_tp_comm_time_exposed = exposed(Stage::Fw, true);
    r.edgeblock_fw_tp_comm_time_exposed = exposed(Stage::Fw, false);
    stage(Stage::Agrad, r.agrad_flops, r.agrad_mem_accessed, r.agrad_arithmetic_intensity,
          &r.agrad_processing_time);
    r.baseblock_bw_tp_comm_tile = commTile(l, c, Stage::Agrad, true);
    r.edgeblock_bw_tp_comm_tile = commTile(l, c, Stage::Agrad, false);
    r.baseblock_bw_tp_comm_size = commBytes(l, c, Stage::Agrad, true);
    r.edgeblock_bw_tp_comm_size = commBytes(l, c, Stage::Agrad, false);
    r.baseblock_bw_tp_comm_time = netTime(l, c, Stage::Agrad, true);
    r.edgeblock_bw_tp_comm_time = netTime(l, c, Stage::Agrad, false);
    r.baseblock_bw_tp_comm_time_exposed = exposed(Stage::Agrad, true);
    r.edgeblock_bw_tp_comm_time_exposed = exposed(Stage::Agrad, false);
    stage(Stage::Wgrad, r.wgrad_flops, r.wgrad_mem_accessed, r.wgrad_arithmetic_intensity,
          &r.wgrad_processing_time);
    r.baseblock_recomm_tile = commTile(l, c, Stage::Wgrad, true);
    r.edgeblock_recomm_tile = commTile(l, c, Stage::Wgrad, false);
    r.baseblock_recomm_size = commBytes(l, c, Stage::Wgrad, true);
    r.edgeblock_recomm_size = commBytes(l, c, Stage::Wgrad, false);
    r.baseblock_recomm_time = netTime(l, c, Stage::Wgrad, true);
    r.edgeblock_recomm_time = netTime(l, c, Stage::Wgrad, false);
    r.baseblock_recomm_time_exposed = exposed(Stage::Wgrad, true);
    r.edgeblock_recomm_time_exposed = exposed(Stage::Wgrad, false);
    stage(Stage::Optim, r.optim_flops, r.optim_mem_accessed, r.optim_arithmetic_intensity,
          &r.optim_processing_time);
    r.weight = weightBytes(l, c);
    r.activation = activationBytes(l, c);
    r.weight_grad = weightGradBytes(l, c, true);
    r.activation_grad = activationGradBytes(l, c);
    r.optimizer = optimizerBytes(l, c);
    return r;
}

} // namespace gapstudio::model::detail
