// The `cost` blocks of GPU and interconnect presets (preset_blocks.h): optional, strict keys, units
// in the key names, every figure with its source.
#include "io/preset_blocks.h"
#include "gapstudio/model/units.h"

namespace gapstudio::io::detail {

namespace {
using units::kBitsPerGbit;

std::string requireSource(const JsonCursor &cost)
{
    std::string source = cost["source"].string();
    if (source.empty())
        cost["source"].fail("expected where the figures come from, or how they were estimated");
    return source;
}
} // namespace

void parseGpuCost(const JsonCursor &c, scenario::Gpu &gpu)
{
    if (!c.value().contains("cost"))
        return;
    const JsonCursor cost = c["cost"];
    if (gpu.price_USD)
        c["price_USD"].fail("the price goes into \"cost\" when the GPU has a cost block");
    requireKeys(cost, { "price_USD", "gpus_per_server", "server_price_USD", "server_power_W", "source" });
    gpu.price_USD = numberIn(cost["price_USD"], 0, true);
    scenario::GpuCost server;
    server.gpusPerServer = cost["gpus_per_server"].integerAtLeast(1);
    server.serverPrice_USD = numberIn(cost["server_price_USD"], 0, true);
    server.serverPower_W = numberIn(cost["server_power_W"], 0, true);
    server.source = requireSource(cost);
    gpu.cost = std::move(server);
}

void writeGpuCost(nlohmann::ordered_json &out, const scenario::Gpu &gpu)
{
    if (!gpu.cost)
        return;
    nlohmann::ordered_json cost;
    cost["price_USD"] = plainNumber(gpu.price_USD.value_or(0));
    cost["gpus_per_server"] = gpu.cost->gpusPerServer;
    cost["server_price_USD"] = plainNumber(gpu.cost->serverPrice_USD);
    cost["server_power_W"] = plainNumber(gpu.cost->serverPower_W);
    cost["source"] = gpu.cost->source;
    out["cost"] = cost;
}

void parseLinkCost(const JsonCursor &c, scenario::Interconnect &link)
{
    if (!c.value().contains("cost"))
        return;
    const JsonCursor cost = c["cost"];
    requireKeys(cost,
                { "port_speed_Gbps", "switch_radix", "switch_price_USD", "switch_power_W", "nic_price_USD",
                  "nic_power_W", "optics_price_USD", "optics_power_W", "cable_price_USD", "source" });
    model::LinkCost parts;
    parts.portSpeed_bps = numberIn(cost["port_speed_Gbps"], 0, false) * kBitsPerGbit;
    parts.switchRadix = cost["switch_radix"].integerAtLeast(2);
    parts.switchPrice_USD = numberIn(cost["switch_price_USD"], 0, true);
    parts.switchPower_W = numberIn(cost["switch_power_W"], 0, true);
    parts.nicPrice_USD = numberIn(cost["nic_price_USD"], 0, true);
    parts.nicPower_W = numberIn(cost["nic_power_W"], 0, true);
    parts.opticsPrice_USD = numberIn(cost["optics_price_USD"], 0, true);
    parts.opticsPower_W = numberIn(cost["optics_power_W"], 0, true);
    parts.cablePrice_USD = numberIn(cost["cable_price_USD"], 0, true);
    parts.source = requireSource(cost);
    link.cost = std::move(parts);
}

void writeLinkCost(nlohmann::ordered_json &out, const scenario::Interconnect &link)
{
    if (!link.cost)
        return;
    const model::LinkCost &parts = *link.cost;
    nlohmann::ordered_json cost;
    cost["port_speed_Gbps"] = unitNumber(parts.portSpeed_bps, kBitsPerGbit);
    cost["switch_radix"] = parts.switchRadix;
    cost["switch_price_USD"] = plainNumber(parts.switchPrice_USD);
    cost["switch_power_W"] = plainNumber(parts.switchPower_W);
    cost["nic_price_USD"] = plainNumber(parts.nicPrice_USD);
    cost["nic_power_W"] = plainNumber(parts.nicPower_W);
    cost["optics_price_USD"] = plainNumber(parts.opticsPrice_USD);
    cost["optics_power_W"] = plainNumber(parts.opticsPower_W);
    cost["cable_price_USD"] = plainNumber(parts.cablePrice_USD);
    cost["source"] = parts.source;
    out["cost"] = cost;
}

} // namespace gapstudio::io::detail
