// Capital and operating cost of a cluster (cost.h). The economic defaults are cited here, once.
#include "gapstudio/model/cost.h"

#include "gapstudio/model/trainingtime.h"
#include "gapstudio/model/units.h"

#include <algorithm>

namespace gapstudio::model {

namespace {

// ---- Defaults (every one overridable) ----------------------------------------------------------
/// U.S. industrial electricity price, 2023 annual average: 8.0 cents/kWh (U.S. Energy Information
/// Administration, Electric Power Monthly, Table 5.6.A, industrial sector).
constexpr double kDefaultUsdPerKWh = 0.08;
/// Power usage effectiveness of a new liquid-cooled AI facility. Estimate between Google's 2023
/// fleet average of 1.10 (Google 2024 Environmental Report) and the 1.58 industry average of the
/// Uptime Institute Global Data Center Survey 2023.
constexpr double kDefaultPue = 1.2;
/// Servers and network equipment are depreciated over 5 to 6 years by the largest operators
/// (Microsoft 6 years, Meta 5.5 years, Amazon 5 years in their 2024 annual reports); GPU
/// clusters age faster, so 5 years (estimate at the low end).
constexpr double kDefaultDepreciationYears = 5;
/// Power a GPU draws while it waits (communication, pipeline bubble) as a fraction of board power.
/// Estimate: clocks and HBM stay up between kernels; training power traces sit near board power
/// while computing and drop partly during communication (Patel et al., "Characterizing Power
/// Management Opportunities for LLMs in the Cloud", ASPLOS 2024).
constexpr double kDefaultGpuIdlePowerFraction = 0.4;
/// Hours in a year (365.25 days): capital per year -> per hour.
using units::kHoursPerYear;
using units::kSecondsPerHour;
using units::kWattsPerKilowatt;
using units::kWattsPerMegawatt;
using units::kJoulesPerMegawattHour;

/// Sum of the BOM lines whose key starts with `prefix`.
double sumOf(const BillOfMaterials &bom, const std::string &prefix, double (BomLine::*of)() const noexcept)
{
    double total = 0;
    for (const BomLine &l : bom.lines)
        if (l.key.rfind(prefix, 0) == 0)
            total += (l.*of)();
    return total;
}

} // namespace

CostAssumptions::CostAssumptions() noexcept
    : usdPerKWh(kDefaultUsdPerKWh)
    , pue(kDefaultPue)
    , depreciationYears(kDefaultDepreciationYears)
    , facilityUsdPerMWYear(0)
    , gpuIdlePowerFraction(kDefaultGpuIdlePowerFraction)
    , tokenBudget(kDefaultTokenBudget)
{
}

CostResult costOf(const BillOfMaterials &bom, const CostActivity &activity,
                  const CostAssumptions &assumptions, double gpuBoardPower_W)
{
    CostResult r;
    r.bom = bom;
    r.assumptions = assumptions;
    r.capex_USD = bom.capex_USD();
    r.gpuActivity = std::clamp(activity.gpuActivity, 0.0, 1.0);

    // Power: GPUs between their waiting and full draw by activity; servers and network parts at
    // their rated draw; the facility adds (PUE - 1) x IT load (cooling, conversion losses).
    const double idle = std::clamp(assumptions.gpuIdlePowerFraction, 0.0, 1.0);
    const double gpus_W
        = static_cast<double>(bom.gpus) * gpuBoardPower_W * (idle + (1.0 - idle) * r.gpuActivity);
    const double hosts_W = sumOf(bom, "servers", &BomLine::power_W);
    const double scaleUp_W = sumOf(bom, "scale_up", &BomLine::power_W);
    const double scaleOut_W = sumOf(bom, "scale_out", &BomLine::power_W);
    // Hot spares wait powered on: their GPUs at idle draw, their servers at rated draw.
    const double spares_W = static_cast<double>(bom.spareGpus) * gpuBoardPower_W * idle
                            + sumOf(bom, "spares_servers", &BomLine::power_W);
    const double storage_W = sumOf(bom, "storage", &BomLine::power_W);
    r.itPower_W = gpus_W + hosts_W + scaleUp_W + scaleOut_W + spares_W + storage_W;
    r.facilityPower_W = r.itPower_W * assumptions.pue;
    r.power_W = { { "gpus", "GPUs", gpus_W },
                  { "hosts", "Servers", hosts_W },
                  { "scale_up", "Scale-up network", scaleUp_W },
                  { "scale_out", "Scale-out network", scaleOut_W } };
    if (bom.spareServers > 0)
        r.power_W.push_back({ "spares", "Hot spares (idle)", spares_W });
    const bool storage = bom.line("storage") != nullptr;
    if (storage)
        r.power_W.push_back({ "storage", "Checkpoint storage", storage_W });
    r.power_W.push_back({ "facility", "Cooling and power delivery (PUE)", r.facilityPower_W - r.itPower_W });

    // Money per hour: capital spread evenly over the depreciation period, energy at the meter,
    // and an optional charge per MW of IT load and year.
    const double capexHours = assumptions.depreciationYears * kHoursPerYear;
    const auto perHour = [&](double usd) { return capexHours > 0 ? usd / capexHours : 0.0; };
    r.capexUsdPerHour = perHour(r.capex_USD);
    r.energyUsdPerHour = r.facilityPower_W / kWattsPerKilowatt * assumptions.usdPerKWh;
    r.facilityUsdPerHour = assumptions.facilityUsdPerMWYear * r.itPower_W / kWattsPerMegawatt / kHoursPerYear;
    r.clusterUsdPerHour = r.capexUsdPerHour + r.energyUsdPerHour + r.facilityUsdPerHour;
    r.usdPerHour = {
        { "gpus", "GPUs (capital)", perHour(sumOf(bom, "gpus", &BomLine::price_USD)) },
        { "hosts", "Servers (capital)", perHour(sumOf(bom, "servers", &BomLine::price_USD)) },
        { "scale_up", "Scale-up network (capital)", perHour(sumOf(bom, "scale_up", &BomLine::price_USD)) },
        { "scale_out", "Scale-out network (capital)", perHour(sumOf(bom, "scale_out", &BomLine::price_USD)) }
    };
    if (bom.spareServers > 0)
        r.usdPerHour.push_back(
            { "spares", "Hot spares (capital)", perHour(sumOf(bom, "spares", &BomLine::price_USD)) });
    if (storage)
        r.usdPerHour.push_back({ "storage", "Checkpoint storage (capital)",
                                 perHour(sumOf(bom, "storage", &BomLine::price_USD)) });
    r.usdPerHour.push_back({ "energy", "Energy", r.energyUsdPerHour });
    r.usdPerHour.push_back({ "facility", "Facility charge", r.facilityUsdPerHour });

    // Per token and per megawatt.
    if (activity.tokensPerSecond > 0) {
        r.usdPerMillionTokens = r.clusterUsdPerHour / (activity.tokensPerSecond * kSecondsPerHour) * 1e6;
        r.joulesPerToken = r.facilityPower_W / activity.tokensPerSecond;
    }
    r.megawatts = r.facilityPower_W / kWattsPerMegawatt;
    if (r.megawatts > 0)
        r.tokensPerSecondPerMegawatt = activity.tokensPerSecond / r.megawatts;

    // One training run of the token budget (trainingtime.h: steps x step time).
    const TrainingTime run = trainingTime(assumptions.tokenBudget, activity.stepTime_s, activity.batchSamples,
                                          activity.seqSize, bom.gpus);
    r.runSeconds = run.seconds;
    r.gpuHours = run.gpuHours;
    r.runUsd = r.clusterUsdPerHour * run.seconds / kSecondsPerHour;
    r.runMegawattHours = r.facilityPower_W * run.seconds / kJoulesPerMegawattHour;
    return r;
}

std::vector<CostShare> gapInDollars(const EfficiencyGap &gap, double runUsd)
{
    std::vector<CostShare> out { { "useful", "Useful compute (MFU)", gap.mfu * runUsd } };
    // The goodput g = (mfu - failures) / mfu stretches the run to runUsd / g: the extra
    // runUsd (1/g - 1) = runUsd x failures / (mfu - failures) comes first.
    if (gap.failures > 0 && gap.mfu > gap.failures)
        out.push_back(
            { "failures", "Failures and checkpoints", runUsd * gap.failures / (gap.mfu - gap.failures) });
    for (const TimeComponent &loss : gap.losses)
        out.push_back({ loss.key, loss.label, loss.seconds * runUsd });
    return out;
}

} // namespace gapstudio::model
