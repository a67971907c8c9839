// The hardware block formats (preset_blocks.h): gpu, interconnect and topology, strict parse and
// canonical write.
// Units: the JSON keys name them; the factors below are the only conversions, and they are the
// same multiplications as the reference readers' (io/calculon_json.cpp), so a preset holding a
// reference system's numbers yields bit-identical SI values.
#include "io/preset_blocks.h"
#include "gapstudio/model/units.h"

#include <array>
#include <optional>
#include <string>
#include <utility>

namespace gapstudio::io::detail {

namespace {

// ---- Units ------------------------------------------------------------------------------------
using units::kFlopsPerTflops;
using units::kFlopsPerGflop;
using units::kBytesPerGiB;
using units::kBytesPerMB;
using units::kBpsPerGBps;
using units::kUsPerSecond;

model::EfficiencyTable parseTable(const JsonCursor &cursor, double unit)
{
    return detail::parseEfficiencyTable(cursor, unit);
}

nlohmann::ordered_json writeTable(const model::EfficiencyTable &table, double unit)
{
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto &[threshold, efficiency] : table.rows)
        rows.push_back({ unitNumber(threshold, unit), plainNumber(efficiency) });
    return rows;
}

void parsePeaks(const JsonCursor &cursor, std::array<std::optional<double>, model::kDatatypeCount> &out)
{
    cursor.requireObject();
    for (const auto &item : cursor.value().items()) {
        const JsonCursor entry = cursor[item.key()];
        std::optional<model::Datatype> type;
        for (const auto &[key, datatype] : kDatatypeKeys)
            if (item.key() == key)
                type = datatype;
        if (!type)
            entry.fail("unknown datatype \"" + item.key() + "\" (expected fp32, bf16, fp16, fp8 or fp4)");
        out[static_cast<std::size_t>(*type)] = numberIn(entry, 0, true) * kFlopsPerTflops;
    }
}

nlohmann::ordered_json writePeaks(const std::array<std::optional<double>, model::kDatatypeCount> &peaks)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto &[key, datatype] : kDatatypeKeys)
        if (const auto &peak = peaks[static_cast<std::size_t>(datatype)])
            out[key] = unitNumber(*peak, kFlopsPerTflops);
    return out;
}

model::MemoryTier parseMemory(const JsonCursor &cursor, bool optionalCapacity)
{
    requireKeys(cursor, { "capacity_GiB", "bandwidth_GBps", "efficiency_by_MB" });
    model::MemoryTier tier;
    tier.capacity_B = numberIn(cursor["capacity_GiB"], 0, optionalCapacity) * kBytesPerGiB;
    tier.bandwidth_Bps = numberIn(cursor["bandwidth_GBps"], 0, optionalCapacity) * kBpsPerGBps;
    tier.efficiency = parseTable(cursor["efficiency_by_MB"], kBytesPerMB);
    return tier;
}

nlohmann::ordered_json writeMemory(const model::MemoryTier &tier)
{
    nlohmann::ordered_json out;
    out["capacity_GiB"] = unitNumber(tier.capacity_B, kBytesPerGiB);
    out["bandwidth_GBps"] = unitNumber(tier.bandwidth_Bps, kBpsPerGBps);
    out["efficiency_by_MB"] = writeTable(tier.efficiency, kBytesPerMB);
    return out;
}

/// The collective scalars an interconnect has when its file does not list them (calculon-model.md
/// §4.1): in-network reduction (NVLS/SHARP) = [1, 0] for RS/AG and [1, 1] for all-reduce; else the
/// ring algorithms, [1, -1] and [2, -1].
struct Collectives {
    model::NetworkOp reduceScatter, allGather, allReduce;
};
Collectives defaultCollectives(bool inNetworkReduction)
{
    if (inNetworkReduction)
        return { { 1, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 } };
    return { { 1, -1, 0 }, { 1, -1, 0 }, { 2, -1, 0 } };
}

bool sameOp(const model::NetworkOp &a, const model::NetworkOp &b)
{
    return a.scalar == b.scalar && a.offset == b.offset && a.efficiency == b.efficiency;
}

model::NetworkOp parseCollective(const JsonCursor &cursor)
{
    cursor.requireArray(2);
    return model::NetworkOp { numberIn(cursor[std::size_t { 0 }], 0, false), cursor[1].number(), 0 };
}

} // namespace

// ---- gpu --------------------------------------------------------------------------------------
scenario::Gpu parseGpuBody(const JsonCursor &c, bool wholeFile)
{
    requireBlockKeys(
        c, wholeFile,
        { "matrix_tflops", "vector_tflops", "matrix_efficiency_by_GFLOP", "vector_efficiency_by_GFLOP", "hbm",
          "tier2", "board_power_W" },
        { "price_USD", "architecture", "sm_count", "gemm_tile", "host_op_us", "cost", "reliability" });
    scenario::Gpu gpu;
    gpu.info = parseInfo(c);
    parsePeaks(c["matrix_tflops"], gpu.matrixPeak_flops);
    parsePeaks(c["vector_tflops"], gpu.vectorPeak_flops);
    gpu.matrixEfficiency = parseTable(c["matrix_efficiency_by_GFLOP"], kFlopsPerGflop);
    gpu.vectorEfficiency = parseTable(c["vector_efficiency_by_GFLOP"], kFlopsPerGflop);
    gpu.hbm = parseMemory(c["hbm"], false);
    gpu.tier2 = parseMemory(c["tier2"], true); // capacity 0 = no tier-2 memory
    gpu.boardPower_W = numberIn(c["board_power_W"], 0, true);
    if (c.value().contains("price_USD"))
        gpu.price_USD = numberIn(c["price_USD"], 0, true);
    if (c.value().contains("architecture"))
        gpu.architecture = c["architecture"].string();
    if (c.value().contains("sm_count"))
        gpu.smCount = c["sm_count"].integerAtLeast(1);
    if (c.value().contains("gemm_tile")) {
        const JsonCursor tile = c["gemm_tile"];
        tile.requireArray(2);
        gpu.gemmTileM = tile[std::size_t { 0 }].integerAtLeast(1);
        gpu.gemmTileN = tile[1].integerAtLeast(1);
    }
    if (c.value().contains("host_op_us"))
        gpu.hostOpTime_s = numberIn(c["host_op_us"], 0, false) / kUsPerSecond;
    parseGpuCost(c, gpu);
    gpu.reliability = parsePartFits(c, { "gpu_fit", "hbm_fit", "server_fit" });
    return gpu;
}

void writeBody(nlohmann::ordered_json &out, const scenario::Gpu &gpu)
{
    out["matrix_tflops"] = writePeaks(gpu.matrixPeak_flops);
    out["vector_tflops"] = writePeaks(gpu.vectorPeak_flops);
    out["matrix_efficiency_by_GFLOP"] = writeTable(gpu.matrixEfficiency, kFlopsPerGflop);
    out["vector_efficiency_by_GFLOP"] = writeTable(gpu.vectorEfficiency, kFlopsPerGflop);
    out["hbm"] = writeMemory(gpu.hbm);
    out["tier2"] = writeMemory(gpu.tier2);
    out["board_power_W"] = plainNumber(gpu.boardPower_W);
    if (gpu.price_USD && !gpu.cost)
        out["price_USD"] = plainNumber(*gpu.price_USD);
    if (!gpu.architecture.empty())
        out["architecture"] = gpu.architecture;
    if (gpu.smCount > 0)
        out["sm_count"] = gpu.smCount;
    if (gpu.gemmTileM > 0)
        out["gemm_tile"] = { gpu.gemmTileM, gpu.gemmTileN };
    if (gpu.hostOpTime_s > 0)
        out["host_op_us"] = plainNumber(gpu.hostOpTime_s * kUsPerSecond);
    writeGpuCost(out, gpu);
    writePartFits(out, gpu.reliability);
}

// ---- interconnect -----------------------------------------------------------------------------
scenario::Interconnect parseInterconnectBody(const JsonCursor &c, bool wholeFile)
{
    requireBlockKeys(c, wholeFile,
                     { "bandwidth_GBps", "latency_us", "efficiency", "all_to_all_efficiency",
                       "in_network_reduction", "processor_usage", "max_domain_size" },
                     { "collectives", "cost", "reliability" });
    scenario::Interconnect link;
    link.info = parseInfo(c);
    link.bandwidth_Bps = numberIn(c["bandwidth_GBps"], 0, false) * kBpsPerGBps;
    link.latency_s = numberIn(c["latency_us"], 0, true) / kUsPerSecond;
    link.efficiency = numberIn(c["efficiency"], 0, false, 1, true);
    link.allToAllEfficiency = numberIn(c["all_to_all_efficiency"], 0, true, 1, true);
    link.inNetworkReduction = c["in_network_reduction"].boolean();
    const Collectives defaults = defaultCollectives(link.inNetworkReduction);
    link.reduceScatter = defaults.reduceScatter;
    link.allGather = defaults.allGather;
    link.allReduce = defaults.allReduce;
    if (c.value().contains("collectives")) {
        const JsonCursor ops = c["collectives"];
        requireKeys(ops, { "reduce_scatter", "all_gather", "all_reduce" });
        link.reduceScatter = parseCollective(ops["reduce_scatter"]);
        link.allGather = parseCollective(ops["all_gather"]);
        link.allReduce = parseCollective(ops["all_reduce"]);
    }
    link.processorUsage = numberIn(c["processor_usage"], 0, true, 1, false);
    link.maxDomainSize = c["max_domain_size"].integerAtLeast(0);
    parseLinkCost(c, link);
    link.reliability = parsePartFits(c, { "nic_fit", "link_fit" });
    return link;
}

void writeBody(nlohmann::ordered_json &out, const scenario::Interconnect &link)
{
    out["bandwidth_GBps"] = unitNumber(link.bandwidth_Bps, kBpsPerGBps);
    out["latency_us"] = unitNumber(link.latency_s, kUsPerSecond, true);
    out["efficiency"] = plainNumber(link.efficiency);
    out["all_to_all_efficiency"] = plainNumber(link.allToAllEfficiency);
    out["in_network_reduction"] = link.inNetworkReduction;
    // The scalars are written only where they differ from what in_network_reduction implies.
    const Collectives defaults = defaultCollectives(link.inNetworkReduction);
    if (!sameOp(link.reduceScatter, defaults.reduceScatter) || !sameOp(link.allGather, defaults.allGather)
        || !sameOp(link.allReduce, defaults.allReduce)) {
        nlohmann::ordered_json ops;
        for (const auto &[key, op] :
             { std::pair { "reduce_scatter", &link.reduceScatter },
               std::pair { "all_gather", &link.allGather }, std::pair { "all_reduce", &link.allReduce } })
            ops[key] = { plainNumber(op->scalar), plainNumber(op->offset) };
        out["collectives"] = ops;
    }
    out["processor_usage"] = plainNumber(link.processorUsage);
    out["max_domain_size"] = link.maxDomainSize;
    writeLinkCost(out, link);
    writePartFits(out, link.reliability);
}

// ---- topology ---------------------------------------------------------------------------------
namespace {
constexpr std::array<const char *, 3> kTopologyKinds = { "two-tier", "full-flat", "three-tier" };
}

scenario::Topology parseTopologyBody(const JsonCursor &c, bool wholeFile)
{
    c.requireObject();
    scenario::Topology topology;
    const auto kind
        = static_cast<scenario::TopologyKind>(c["kind"].oneOf({ "two-tier", "full-flat", "three-tier" }));
    if (kind == scenario::TopologyKind::ThreeTier)
        requireBlockKeys(c, wholeFile,
                         { "kind", "scale_up_domain_size", "scale_up_must_be_filled", "leaf_size",
                           "spine_oversubscription" });
    else
        requireBlockKeys(c, wholeFile, { "kind", "scale_up_domain_size", "scale_up_must_be_filled" });
    topology.info = parseInfo(c);
    topology.kind = kind;
    topology.scaleUpDomainSize = c["scale_up_domain_size"].integerAtLeast(1);
    topology.scaleUpMustBeFilled = c["scale_up_must_be_filled"].boolean();
    if (kind == scenario::TopologyKind::ThreeTier) {
        topology.leafSize = c["leaf_size"].integerAtLeast(1);
        topology.oversubscription = numberIn(c["spine_oversubscription"], 1, true);
    }
    return topology;
}

void writeBody(nlohmann::ordered_json &out, const scenario::Topology &topology)
{
    out["kind"] = kTopologyKinds[static_cast<std::size_t>(topology.kind)];
    out["scale_up_domain_size"] = topology.scaleUpDomainSize;
    out["scale_up_must_be_filled"] = topology.scaleUpMustBeFilled;
    if (topology.kind == scenario::TopologyKind::ThreeTier) {
        out["leaf_size"] = topology.leafSize;
        out["spine_oversubscription"] = plainNumber(topology.oversubscription);
    }
}

} // namespace gapstudio::io::detail
