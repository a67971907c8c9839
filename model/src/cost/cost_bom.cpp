// The bill of materials of a cluster (cost.h): GPUs and servers, then each network's switches,
// adapters, optics and cables, counted from the topology.
#include "gapstudio/model/cost.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace gapstudio::model {

namespace {

using I = std::int64_t;

I ceilDiv(I a, I b) noexcept
{
    return (a + b - 1) / b;
}

/// ceil(a / b) for a positive real b.
I ceilDiv(I a, double b) noexcept
{
    return static_cast<I>(std::ceil(static_cast<double>(a) / b - 1e-12));
}

/// Endpoints a full-bisection folded Clos of `levels` levels of `radix`-port switches can join:
/// 2 (radix/2)^levels (Al-Fares et al. 2008: k^3/4 hosts for three levels).
double capacity(I radix, I levels) noexcept
{
    return 2.0 * std::pow(static_cast<double>(radix / 2), static_cast<double>(levels));
}

/// The fewest levels (at least `atLeast`) whose full-bisection capacity holds `endpoints`.
I levelsFor(I endpoints, I radix, I atLeast) noexcept
{
    I levels = std::max<I>(atLeast, 2);
    while (capacity(radix, levels) < static_cast<double>(endpoints) && levels < 8)
        ++levels;
    return levels;
}

/// Ports each GPU needs to inject `bandwidth` with ports of `portSpeed` (bits per second).
I portsPerGpu(double bandwidth_Bps, double portSpeed_bps) noexcept
{
    if (!(portSpeed_bps > 0) || !(bandwidth_Bps > 0))
        return 0;
    return static_cast<I>(std::ceil(bandwidth_Bps * 8.0 / portSpeed_bps - 1e-9));
}

FabricCount operator+(FabricCount a, const FabricCount &b)
{
    a.ports += b.ports;
    a.planes = std::max(a.planes, b.planes);
    a.levels = std::max(a.levels, b.levels);
    a.switchesPerLevel.resize(std::max(a.switchesPerLevel.size(), b.switchesPerLevel.size()), 0);
    for (std::size_t i = 0; i < b.switchesPerLevel.size(); ++i)
        a.switchesPerLevel[i] += b.switchesPerLevel[i];
    a.switches += b.switches;
    a.links += b.links;
    return a;
}

/// The lines of one network: switches, GPU-side adapters, optics (two per link) and cables.
void addFabricLines(BillOfMaterials &bom, const char *prefix, const char *name, const FabricCount &count,
                    const LinkCost &cost)
{
    const std::string key(prefix);
    const std::string label(name);
    const auto add
        = [&](const std::string &suffix, const std::string &what, double n, double price, double power) {
              if (n > 0 && (price > 0 || power > 0 || suffix == "_switches"))
                  bom.lines.push_back({ key + suffix, label + " " + what, n, price, power, cost.source });
          };
    add("_switches", "switches", static_cast<double>(count.switches), cost.switchPrice_USD,
        cost.switchPower_W);
    add("_nics", "adapters (NICs)", static_cast<double>(count.ports), cost.nicPrice_USD, cost.nicPower_W);
    add("_optics", "optics (link ends)", 2.0 * static_cast<double>(count.links), cost.opticsPrice_USD,
        cost.opticsPower_W);
    add("_cables", "cables", static_cast<double>(count.links), cost.cablePrice_USD, 0);
}

/// The switches of one network whose GPUs are joined `groupSize` at a time (a scale-up domain,
/// or every GPU for the scale-out network); the last group may be partial.
FabricCount groupedFabric(I gpus, I groupSize, const FabricSpec &spec)
{
    const I planes = portsPerGpu(spec.bandwidthPerGpu_Bps, spec.cost.portSpeed_bps);
    if (planes == 0 || spec.cost.switchRadix < 1)
        return {};
    const I full = gpus / groupSize;
    const I rest = gpus % groupSize;
    FabricCount total;
    if (full > 0) {
        total = fatTree(groupSize, planes, spec.cost.switchRadix, spec.levels, spec.oversubscription);
        total.ports *= full;
        total.switches *= full;
        total.links *= full;
        for (I &switches : total.switchesPerLevel)
            switches *= full;
    }
    if (rest > 0)
        total = total + fatTree(rest, planes, spec.cost.switchRadix, spec.levels, spec.oversubscription);
    return total;
}

} // namespace

FabricCount fatTree(std::int64_t endpoints, std::int64_t planes, std::int64_t radix, std::int64_t levels,
                    double oversubscription)
{
    FabricCount out;
    if (endpoints < 1 || planes < 1 || radix < 1)
        return out;
    out.ports = endpoints * planes;
    out.planes = planes;
    if (endpoints == 1)
        return out; // nothing to connect
    if (levels <= 1 && endpoints <= radix) {
        // One level: every switch reaches every GPU, so the planes share switches.
        out.levels = 1;
        out.switchesPerLevel = { ceilDiv(out.ports, radix) };
        out.switches = out.switchesPerLevel.front();
        out.links = out.ports;
        return out;
    }
    if (radix < 2)
        return out;
    const double o = std::max(1.0, oversubscription);
    out.levels = levelsFor(endpoints, radix, levels);
    const I half = radix / 2;
    // Per plane: the levels below the top-but-one pass every link up (radix/2 down, radix/2 up).
    for (I level = 1; level <= out.levels - 2; ++level)
        out.switchesPerLevel.push_back(ceilDiv(endpoints, half));
    // The top-but-one splits its ports o : 1 between down and up.
    const I down = std::max<I>(1, static_cast<I>(std::floor(static_cast<double>(radix) * o / (1.0 + o))));
    const I uplinks = ceilDiv(endpoints, o);
    out.switchesPerLevel.push_back(ceilDiv(endpoints, down));
    out.switchesPerLevel.push_back(ceilDiv(uplinks, radix));
    const I perPlaneLinks = (out.levels - 1) * endpoints + uplinks;
    for (I &switches : out.switchesPerLevel) {
        switches *= planes;
        out.switches += switches;
    }
    out.links = perPlaneLinks * planes;
    return out;
}

double BillOfMaterials::capex_USD() const noexcept
{
    double total = 0;
    for (const BomLine &l : lines)
        total += l.price_USD();
    return total;
}

const BomLine *BillOfMaterials::line(const std::string &key) const noexcept
{
    const auto it = std::find_if(lines.begin(), lines.end(), [&](const BomLine &l) { return l.key == key; });
    return it == lines.end() ? nullptr : &*it;
}

std::string unpricedWarning(const BillOfMaterials &bom)
{
    if (bom.complete())
        return {};
    static const std::map<std::string, std::string> kWords = { { "gpus", "the GPUs" },
                                                               { "servers", "the servers" },
                                                               { "scale_up", "the scale-up network" },
                                                               { "scale_out", "the scale-out network" },
                                                               { "storage", "the checkpoint storage" } };
    std::string parts;
    for (std::size_t i = 0; i < bom.unpriced.size(); ++i) {
        const auto word = kWords.find(bom.unpriced[i]);
        parts += (i == 0 ? "" : i + 1 == bom.unpriced.size() ? " and " : ", ")
                 + (word == kWords.end() ? bom.unpriced[i] : word->second);
    }
    return "Incomplete: $ figures leave out parts without a price: " + parts + ".";
}

BillOfMaterials billOfMaterials(const ClusterSpec &spec)
{
    BillOfMaterials bom;
    const I gpus = std::max<I>(0, spec.gpus);
    bom.gpus = gpus;
    if (gpus == 0)
        return bom;
    const I perServer = std::max<I>(1, spec.gpu.gpusPerServer);
    bom.servers = ceilDiv(gpus, perServer);
    const I domain = std::clamp<I>(spec.scaleUpDomainSize, 1, gpus);
    bom.domains = ceilDiv(gpus, domain);

    bom.lines.push_back({ "gpus", "GPUs", static_cast<double>(gpus), spec.gpu.price_USD,
                          spec.gpu.boardPower_W, spec.gpu.source });
    bom.lines.push_back({ "servers", "Servers (CPUs, memory, chassis; without GPUs and network)",
                          static_cast<double>(bom.servers), spec.gpu.serverPrice_USD, spec.gpu.serverPower_W,
                          spec.gpu.source });
    if (spec.spareServers > 0) {
        bom.spareServers = spec.spareServers;
        bom.spareGpus = spec.spareServers * perServer;
        bom.lines.push_back({ "spares_gpus", "Hot spares: GPUs", static_cast<double>(bom.spareGpus),
                              spec.gpu.price_USD, spec.gpu.boardPower_W, spec.gpu.source });
        bom.lines.push_back({ "spares_servers", "Hot spares: servers (without GPUs)",
                              static_cast<double>(bom.spareServers), spec.gpu.serverPrice_USD,
                              spec.gpu.serverPower_W, spec.gpu.source });
    }
    if (!(spec.gpu.price_USD > 0)) {
        bom.notes.push_back("The GPU has no price: the GPUs count as free.");
        bom.unpriced.emplace_back("gpus");
    }
    if (!spec.gpuHasCost) {
        bom.notes.push_back("The GPU has no server figures: the servers count as free and draw no power.");
        bom.unpriced.emplace_back("servers");
    }

    // Scale-up: a network per domain (none for domains of one GPU).
    if (domain > 1) {
        if (spec.scaleUp.hasCost) {
            bom.scaleUp = groupedFabric(gpus, domain, spec.scaleUp);
            addFabricLines(bom, "scale_up", "Scale-up", bom.scaleUp, spec.scaleUp.cost);
        } else {
            bom.notes.push_back(
                "The scale-up links have no cost figures: their switches and cables are not counted.");
            bom.unpriced.emplace_back("scale_up");
        }
    }
    // Scale-out: one network over every GPU, needed when there is more than one domain.
    if (bom.domains > 1) {
        if (spec.scaleOut.hasCost) {
            bom.scaleOut = groupedFabric(gpus, gpus, spec.scaleOut);
            addFabricLines(bom, "scale_out", "Scale-out", bom.scaleOut, spec.scaleOut.cost);
        } else {
            bom.notes.push_back("The scale-out links have no cost figures: their switches, adapters, optics "
                                "and cables are not counted.");
            bom.unpriced.emplace_back("scale_out");
        }
    }
    if (spec.storage.present) {
        bom.lines.push_back({ "storage", "Checkpoint storage", 1, spec.storage.price_USD,
                              spec.storage.power_W, spec.storage.source });
        if (!spec.storage.priced) {
            bom.notes.push_back("The checkpoint storage has no price: it counts as free.");
            bom.unpriced.emplace_back("storage");
        }
    }
    return bom;
}

} // namespace gapstudio::model
