// Per-layer costs of the reference model (Calculon `llm/layers.py` at caa4b11;
// calculon-model.md §3.2-§3.3, §4.2 and §4.4). Evaluation orders follow the reference so that
// results agree to the last bit where it matters.
#include "engine/layers.h"

#include "engine/layer_memory.h"

#include "engine/efficiency.h"
#include "network/network.h"

namespace gapstudio::model::detail {

namespace {

double vectorFlopTime(const LayerContext &c, double flops) noexcept
{
    return flops / (c.vector->peak_flops * efficiencyAt(c.vector->efficiency, flops));
}

bool splitComm(const Layer &l, bool baseblock) noexcept
{
    // §4.2: rs_ag always splits; p2p_rs_ag splits only on the edge block of a chunk.
    return l.commType == TpCommType::RsAg || (l.commType == TpCommType::P2pRsAg && !baseblock);
}

double tpCommNetTime(const Layer &l, const LayerContext &c, Stage s, bool baseblock, const StageCost &cost,
                     double bytes) noexcept
{
    if (l.numPeers == 1)
        return 0;
    const bool split = splitComm(l, baseblock);
    // The reduction's own compute and memory time travels with the communication (§3.2).
    const double compute = processing(c, cost.flopTime, cost.memTime);
    // The forward and the backward collective; a stage prices only its own.
    const auto fwNet = [&] {
        if (split)
            return networkTime(*l.net, l.conjugate ? NetOp::ReduceScatter : NetOp::AllGather, bytes,
                               l.numPeers);
        return l.conjugate ? networkTime(*l.net, NetOp::AllReduce, bytes, l.numPeers) : 0.0;
    };
    const auto bwNet = [&] {
        if (split)
            return networkTime(*l.net, l.conjugate ? NetOp::AllGather : NetOp::ReduceScatter, bytes,
                               l.numPeers);
        return l.conjugate ? 0.0 : networkTime(*l.net, NetOp::AllReduce, bytes, l.numPeers);
    };
    switch (s) {
    case Stage::Fw:
        return fwNet() + compute;
    case Stage::Agrad:
        return bwNet() + compute;
    case Stage::Wgrad:
        // Re-communication during the backward pass (recompute or all-gather redo).
        return l.needsRecomm ? fwNet() + compute : 0;
    case Stage::Optim:
        break;
    }
    return 0;
}

double overlappedNetTime(const Layer &l, const LayerContext &c, Stage s, bool baseblock,
                         double bytes) noexcept
{
    if (l.numPeers == 1)
        return 0;
    const bool split = splitComm(l, baseblock);
    const double peers = static_cast<double>(l.numPeers);
    bool hasFw = true;
    bool hasBw = true;
    NetOp fwOp = NetOp::AllReduce;
    NetOp bwOp = NetOp::AllReduce;
    // The reduction side pays (n-1)/n of the tensor in vector flops: the forward pass of the g
    // side, the backward pass of the f side (computed only for the stage that pays it).
    const auto reductionTime
        = [&] { return vectorFlopTime(c, bytes / c.bytesPerElement * (peers - 1) / peers); };
    if (l.conjugate) {
        if (split) {
            fwOp = NetOp::ReduceScatter;
            bwOp = NetOp::AllGather;
        } else {
            hasBw = false; // identity backward
        }
    } else {
        if (split) {
            fwOp = NetOp::AllGather;
            bwOp = NetOp::ReduceScatter;
        } else {
            hasFw = false; // identity forward
        }
    }
    switch (s) {
    case Stage::Fw:
        return hasFw ? networkTime(*l.net, fwOp, bytes, l.numPeers) + (l.conjugate ? reductionTime() : 0.0)
                     : 0;
    case Stage::Agrad:
        return hasBw ? networkTime(*l.net, bwOp, bytes, l.numPeers) + (l.conjugate ? 0.0 : reductionTime())
                     : 0;
    case Stage::Wgrad:
        return l.needsRecomm && hasFw ? networkTime(*l.net, fwOp, bytes, l.numPeers) : 0;
    case Stage::Optim:
        break;
    }
    return 0;
}

StageTiming overlappedProcessingTime(const Layer &l, const LayerContext &c, const StageCost &cost,
                                     double net) noexcept
{
    // §4.4: the GEMM is cut into N tiles, each overlapping one comm tile. While communicating,
    // the network's processor_usage slows compute. The reference always passes the base block's
    // W (QUIRK §4.4 (1), Quirks::overlapEdgeEqualsBase).
    const double pu = l.net->processorUsage;
    const double flop = cost.flopTime;
    const double flopSlowed = flop / (1 - pu);
    const double memory = cost.memTime;
    const double compute = processing(c, flop, memory) + cost.castTime;
    StageTiming t;
    if (net == 0) {
        t.time = compute;
        return t;
    }
    const double tiles = static_cast<double>(l.numTiles);
    const double computeSlowed = processing(c, flopSlowed, memory) + cost.castTime;
    const double flopTileSlowed = flopSlowed / tiles;
    const double netTile = net / tiles;
    const double computeTile = compute / tiles;
    const double computeTileSlowed = computeSlowed / tiles;
    const double inflection = netTile - flopTileSlowed;
    if (inflection > 0) {
        // Communication is longer than compute: the excess is exposed.
        t.time = computeTile + (tiles - 1) * computeTileSlowed;
        t.exposed = (tiles - 1) * inflection;
    } else {
        // Communication hides behind compute but steals processor_usage of it.
        t.time = computeTile + (tiles - 1) * computeTile + (tiles - 1) * netTile * pu;
    }
    if (l.overlap == TpOverlap::Pipe) {
        // QUIRK (§4.4, pipeTileCountedTwice): one un-overlapped comm tile, counted in both the
        // layer's processing time and its exposed comm time.
        t.exposed += netTile;
        t.time += netTile;
    }
    t.exposed = exposedWithOverlapEfficiency(c, net, t.exposed);
    return t;
}

} // namespace

double flopsTime(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    return stageCost(l, c, s).flopTime;
}

double memTime(const Layer &l, const LayerContext &c, Stage s) noexcept
{
    return stageCost(l, c, s).memTime;
}

StageTiming processingTime(const Layer &l, const LayerContext &c, Stage s, const StageCost &cost,
                           bool baseblock) noexcept
{
    const bool overlapped = l.kind == LayerKind::LinearOverlapped;
    return processingTimeWithNet(l, c, s, cost, overlapped ? netTime(l, c, s, baseblock) : 0.0);
}

StageTiming communicatingProcessingTime(const Layer &l, const LayerContext &c, Stage s, const StageCost &cost,
                                        double net) noexcept
{
    if (l.kind == LayerKind::TPComm || l.kind == LayerKind::AllToAll)
        return {}; // their cost is in their comm time
    if (l.kind == LayerKind::LinearOverlapped)
        return overlappedProcessingTime(l, c, cost, net);
    return ringAttentionTime(l, c, s, processing(c, cost.flopTime, cost.memTime));
}

StageTiming processingTime(const Layer &l, const LayerContext &c, Stage s, bool baseblock) noexcept
{
    if (l.kind == LayerKind::TPComm || l.kind == LayerKind::AllToAll)
        return {};
    return processingTime(l, c, s, stageCost(l, c, s), baseblock);
}

double commBytes(const Layer &l, const LayerContext &c, Stage s, bool baseblock) noexcept
{
    if (l.numPeers == 1 || s == Stage::Optim)
        return 0;
    const bool split = splitComm(l, baseblock);
    if (l.kind == LayerKind::TPComm) {
        if (!split && ((l.conjugate && s == Stage::Agrad) || (!l.conjugate && s == Stage::Fw)))
            return 0; // identity forward or backward
        if (s == Stage::Fw || s == Stage::Agrad)
            return l.commSize * c.bytesPerElement;
        if (l.needsRecomm && (split || l.conjugate))
            return l.commSize * c.bytesPerElement;
        return 0;
    }
    if (l.kind == LayerKind::AllToAll)
        return s == Stage::Fw || s == Stage::Agrad ? l.commSize * c.bytesPerElement : 0;
    if (l.kind == LayerKind::FlashAttention)
        return ringBytes(l, c, s);
    if (l.kind != LayerKind::LinearOverlapped)
        return 0;
    // The all-gather side moves the full input, the reduce side the full output (§3.2).
    const double agBytes = l.inputs * c.bytesPerElement;
    const double arRsBytes = l.outputs * c.bytesPerElement;
    switch (s) {
    case Stage::Fw:
        if (l.conjugate)
            return arRsBytes;
        return split ? agBytes : 0;
    case Stage::Agrad:
        if (!l.conjugate)
            return agBytes;
        return split ? arRsBytes : 0;
    case Stage::Wgrad:
        return l.needsRecomm ? commBytes(l, c, Stage::Fw, baseblock) : 0;
    case Stage::Optim:
        break;
    }
    return 0;
}

double commTile(const Layer &l, const LayerContext &c, Stage s, bool baseblock) noexcept
{
    const double bytes = commBytes(l, c, s, baseblock);
    return l.kind == LayerKind::LinearOverlapped ? bytes / static_cast<double>(l.numTiles) : bytes;
}

double netTime(const Layer &l, const LayerContext &c, Stage s, bool baseblock) noexcept
{
    if (l.kind == LayerKind::TPComm)
        return tpCommNetTime(l, c, s, baseblock, stageCost(l, c, s), commBytes(l, c, s, baseblock));
    return netTime(l, c, s, baseblock, StageCost {});
}

double netTime(const Layer &l, const LayerContext &c, Stage s, bool baseblock, const StageCost &cost) noexcept
{
    const bool sized = l.kind == LayerKind::TPComm || l.kind == LayerKind::LinearOverlapped
                       || l.kind == LayerKind::AllToAll;
    return netTimeOfBytes(l, c, s, baseblock, cost, sized ? commBytes(l, c, s, baseblock) : 0.0);
}

double netTimeOfBytes(const Layer &l, const LayerContext &c, Stage s, bool baseblock, const StageCost &cost,
                      double bytes) noexcept
{
    if (l.kind == LayerKind::TPComm)
        return tpCommNetTime(l, c, s, baseblock, cost, bytes);
    if (l.kind == LayerKind::LinearOverlapped)
        return overlappedNetTime(l, c, s, baseblock, bytes);
    if (l.kind == LayerKind::AllToAll && l.numPeers > 1 && (s == Stage::Fw || s == Stage::Agrad)) {
        if (c.collectiveAllToAll) {
            // One all-to-all (NCCL, Megatron-Core's alltoall dispatcher): each GPU sends the
            // (EP - 1) / EP of its tokens that go to other GPUs, paying the latency once.
            const double peers = static_cast<double>(l.numPeers);
            return networkTime(*l.net, NetOp::AllToAll, bytes * (peers - 1) / peers, 2);
        }
        return allToAllTime(*l.net, bytes, l.numPeers);
    }
    if (l.kind == LayerKind::FlashAttention)
        return ringTime(l, c, s);
    return 0;
}

double requiredBandwidth(const Layer &l, const LayerContext &c, Stage s, bool baseblock) noexcept
{
    if (l.kind != LayerKind::LinearOverlapped)
        return 0;
    return requiredBandwidth(l, stageCost(l, c, s), commBytes(l, c, s, baseblock));
}

double requiredBandwidth(const Layer &l, const StageCost &cost, double bytes) noexcept
{
    const double flopSlowed = cost.flopTime / (1 - l.net->processorUsage);
    const double tiles = static_cast<double>(l.numTiles);
    return bytes / tiles / (flopSlowed / tiles); // a comm tile over a slowed compute tile
}

} // namespace gapstudio::model::detail
