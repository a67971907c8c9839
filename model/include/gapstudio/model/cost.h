#pragma once
/**
 * @file cost.h
 * Cost and power of a training cluster, from the same evaluation that predicts its step time:
 * a bill of materials from the topology (GPUs and their servers, scale-up switches, NICs,
 * scale-out fat trees, optics and cables), capital cost spread over a depreciation period, and
 * operating cost (energy at the predicted GPU activity, times PUE; optionally a facility charge
 * per MW-year). Results: $/hour, $/million tokens, J/token, MW, and a training run of a token
 * budget in $, MWh and GPU-hours, each with its breakdown.
 *
 * Pure and Qt-free: plain structs in, plain structs out. Every price and power figure is an input
 * (presets carry them with their source); the economic defaults of CostAssumptions cite theirs in
 * cost.cpp and every one can be overridden.
 */

#include "gapstudio/model/analysis.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gapstudio::model {

/// Prices and power of the parts one link technology needs (an interconnect preset's `cost`).
struct LinkCost {
    double portSpeed_bps = 0;     ///< one port (one direction); ports per GPU = bandwidth / this
    std::int64_t switchRadix = 0; ///< ports per switch (0: no switch figures)
    double switchPrice_USD = 0;   ///< one switch (chip, tray or box: the preset says which)
    double switchPower_W = 0;     ///< one switch, without its pluggable optics
    double nicPrice_USD = 0;      ///< one GPU-side port's adapter (0: the port is on the GPU)
    double nicPower_W = 0;
    double opticsPrice_USD = 0; ///< one link end: a transceiver or a co-packaged port (0: copper)
    double opticsPower_W = 0;
    double cablePrice_USD = 0; ///< one link's cable or fibre
    std::string source;        ///< where the figures come from, or how they were estimated
    bool operator==(const LinkCost &) const = default;
};

/// The GPU and its share of the server.
struct GpuCostSpec {
    double price_USD = 0;    ///< one GPU
    double boardPower_W = 0; ///< one GPU at full activity
    std::int64_t gpusPerServer = 8;
    double serverPrice_USD = 0; ///< one server without its GPUs and network parts
    double serverPower_W = 0;   ///< one server without its GPUs and network parts
    std::string source;
};

/// One network: its links' technology and how many GPU ports join it.
struct FabricSpec {
    double bandwidthPerGpu_Bps = 0; ///< per GPU, one direction
    LinkCost cost;
    bool hasCost = false;        ///< false: no cost figures, port speed or radix (costs 0; a note)
    std::int64_t levels = 0;     ///< switch levels of a fat tree (0: the fewest that fit)
    double oversubscription = 1; ///< at the top level of a fat tree (1: full bisection)
};

/// The checkpoint storage system, one line of the bill of materials when the design names one.
struct StorageSpec {
    bool present = false;
    bool priced = false; ///< false: no price (costs 0; a note)
    double price_USD = 0, power_W = 0;
    std::string source;
};

/// What the bill of materials is made from.
struct ClusterSpec {
    std::int64_t gpus = 0;
    GpuCostSpec gpu;
    bool gpuHasCost = false;            ///< false: no server figures (servers cost 0; a note)
    std::int64_t scaleUpDomainSize = 1; ///< GPUs per scale-up domain (1: no scale-up switches)
    FabricSpec scaleUp;
    FabricSpec scaleOut; ///< between domains (FullFlat: the optical all-to-all tier)
    /// Idle servers with their GPUs kept to replace a failed one (goodput.h: hot spares). Their
    /// network ports are not counted: a spare takes the place of the failed server in the fabric.
    std::int64_t spareServers = 0;
    StorageSpec storage;
};

/// The switches and links of one network (summed over its planes and domains).
struct FabricCount {
    std::int64_t ports = 0;                     ///< GPU-side ports (NICs where the link needs them)
    std::int64_t planes = 0;                    ///< ports per GPU: one fat tree each (rail-optimised)
    std::int64_t levels = 0;                    ///< switch levels (1: every GPU on the same switches)
    std::vector<std::int64_t> switchesPerLevel; ///< leaf first
    std::int64_t switches = 0;
    std::int64_t links = 0; ///< GPU-to-switch and switch-to-switch links
};

/**
 * The switches of `planes` fat trees, each joining `endpoints` ports with switches of `radix`
 * ports. Each GPU port of a plane goes to that plane's tree; when all of a plane's endpoints fit
 * one switch (endpoints <= radix) the planes share switches, so that e.g. 8 GPUs x 18 links on
 * 64-port switches need ceil(144 / 64) = 3 switches. Otherwise a folded Clos of `levels` levels
 * (0: the fewest whose full-bisection capacity 2 (radix/2)^levels holds the endpoints): levels
 * below the top-but-one have radix/2 ports down and up; the top-but-one has
 * d = floor(radix o / (1 + o)) down, so ceil(endpoints / d) switches, and ceil(endpoints / o)
 * uplinks to ceil(uplinks / radix) top switches (o = `oversubscription`, 1 = full bisection).
 * Al-Fares et al., "A Scalable, Commodity Data Center Network Architecture" (SIGCOMM 2008): a
 * k-port fat tree joins k^3/4 hosts with 5k^2/4 switches, which this reproduces for o = 1.
 */
[[nodiscard]] FabricCount fatTree(std::int64_t endpoints, std::int64_t planes, std::int64_t radix,
                                  std::int64_t levels = 0, double oversubscription = 1);

/// One line of the bill of materials.
struct BomLine {
    std::string key;   ///< stable id: "gpus", "servers", "scale_up_switches", ...
    std::string label; ///< "GPUs", "Servers (without GPUs)", ...
    double count = 0;
    double unitPrice_USD = 0;
    double unitPower_W = 0; ///< at full activity (GPUs scale with activity, see CostResult)
    std::string source;
    [[nodiscard]] double price_USD() const noexcept { return count * unitPrice_USD; }
    [[nodiscard]] double power_W() const noexcept { return count * unitPower_W; }
};

struct BillOfMaterials {
    std::int64_t gpus = 0, servers = 0, domains = 0; ///< the job's (spares not included)
    std::int64_t spareServers = 0, spareGpus = 0;    ///< hot spares
    FabricCount scaleUp, scaleOut;
    std::vector<BomLine> lines;
    std::vector<std::string> notes; ///< parts without figures, in words
    /// The parts counted as free for want of a price ("gpus", "servers", "scale_up", "scale_out",
    /// "storage"):
    /// every $ figure then leaves them out, and says so.
    std::vector<std::string> unpriced;
    /// Every part has a price: $ figures are the whole cluster's.
    [[nodiscard]] bool complete() const noexcept { return unpriced.empty(); }
    [[nodiscard]] double capex_USD() const noexcept;
    /// The line with `key`, or nullptr.
    [[nodiscard]] const BomLine *line(const std::string &key) const noexcept;
};

/// The warning every $ figure of an incomplete bill carries: "Incomplete: $ figures leave out
/// parts without a price: the GPUs and the servers." Empty when every part has a price.
[[nodiscard]] std::string unpricedWarning(const BillOfMaterials &bom);

/// The parts of a cluster (pure; never throws for positive inputs).
[[nodiscard]] BillOfMaterials billOfMaterials(const ClusterSpec &spec);

/// Economic assumptions. Defaults are cited in cost.cpp (kDefault... constants); every one is
/// overridable (scenario overrides `cost.*`, the CLI, the studio's Cost panel).
struct CostAssumptions {
    double usdPerKWh;            ///< electricity price
    double pue;                  ///< facility power / IT power
    double depreciationYears;    ///< capital spread evenly over this period
    double facilityUsdPerMWYear; ///< optional facility charge per MW of IT load per year (0 = none)
    double gpuIdlePowerFraction; ///< GPU power while not computing, as a fraction of board power
    double tokenBudget;          ///< tokens of one training run
    CostAssumptions() noexcept;  ///< the cited defaults
    bool operator==(const CostAssumptions &) const = default;
};

/// What one training step of the design does (from the evaluation).
struct CostActivity {
    double tokensPerSecond = 0;
    double stepTime_s = 0;
    std::int64_t batchSamples = 0; ///< global batch (samples)
    std::int64_t seqSize = 0;      ///< tokens per sample
    /// Fraction of the step the GPUs compute (Stats::system_efficiency: compute time / step time);
    /// the rest they wait on communication, the pipeline bubble or offload.
    double gpuActivity = 0;
};

/// One named share of a total ($/hour or watts).
struct CostShare {
    std::string key, label;
    double value = 0;
};

struct CostResult {
    BillOfMaterials bom;
    CostAssumptions assumptions;
    double capex_USD = 0;
    double gpuActivity = 0;
    // Power (watts): IT load and at the meter (x PUE).
    double itPower_W = 0, facilityPower_W = 0;
    std::vector<CostShare> power_W; ///< GPUs, hosts, scale-up, scale-out, cooling and facility overhead
    // Money per hour of cluster time.
    double capexUsdPerHour = 0, energyUsdPerHour = 0, facilityUsdPerHour = 0, clusterUsdPerHour = 0;
    std::vector<CostShare> usdPerHour; ///< capex by part, energy, facility charge
    // Per token and per megawatt.
    double usdPerMillionTokens = 0, joulesPerToken = 0, megawatts = 0, tokensPerSecondPerMegawatt = 0;
    // One training run of assumptions.tokenBudget tokens.
    double runSeconds = 0, runUsd = 0, runMegawattHours = 0, gpuHours = 0;
};

/// Cost and power of a cluster whose parts are `bom`, running steps that do `activity`.
[[nodiscard]] CostResult costOf(const BillOfMaterials &bom, const CostActivity &activity,
                                const CostAssumptions &assumptions, double gpuBoardPower_W);

/// What each loss of the efficiency gap costs in one training run, at the run's average cost per
/// hour: the loss's share of the step time (EfficiencyGap::losses) x the run's cost. They sum to
/// (1 - MFU) x the run's cost; the MFU share ("useful") comes first. With failures
/// (EfficiencyGap::failures > 0, goodput g < 1) the run takes 1/g the wall time: what that adds,
/// runUsd (1/g - 1), follows the useful share as "failures", and the shares sum to runUsd / g.
[[nodiscard]] std::vector<CostShare> gapInDollars(const EfficiencyGap &gap, double runUsd);

} // namespace gapstudio::model
