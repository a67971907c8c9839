#include "cost_output.h"

namespace gapstudio::cli {

namespace {

nlohmann::ordered_json shares(const std::vector<model::CostShare> &list)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const model::CostShare &share : list)
        out[share.key] = share.value;
    return out;
}

} // namespace

nlohmann::ordered_json assumptionsToJson(const model::CostAssumptions &a)
{
    nlohmann::ordered_json out;
    out["usd_per_kWh"] = a.usdPerKWh;
    out["pue"] = a.pue;
    out["depreciation_years"] = a.depreciationYears;
    out["facility_usd_per_MW_year"] = a.facilityUsdPerMWYear;
    out["gpu_idle_power_fraction"] = a.gpuIdlePowerFraction;
    out["token_budget"] = a.tokenBudget;
    return out;
}

nlohmann::ordered_json costToJson(const model::CostResult &c)
{
    nlohmann::ordered_json out;
    out["cluster_usd_per_hour"] = c.clusterUsdPerHour;
    out["usd_per_million_tokens"] = c.usdPerMillionTokens;
    out["joules_per_token"] = c.joulesPerToken;
    out["megawatts"] = c.megawatts;
    out["tokens_per_second_per_megawatt"] = c.tokensPerSecondPerMegawatt;
    out["gpu_activity"] = c.gpuActivity;
    out["capex_usd"] = c.capex_USD;
    out["it_power_watts"] = c.itPower_W;
    out["facility_power_watts"] = c.facilityPower_W;
    out["run_token_budget"] = c.assumptions.tokenBudget;
    out["run_seconds"] = c.runSeconds;
    out["run_usd"] = c.runUsd;
    out["run_megawatt_hours"] = c.runMegawattHours;
    out["gpu_hours"] = c.gpuHours;
    nlohmann::ordered_json breakdown;
    breakdown["usd_per_hour"] = shares(c.usdPerHour);
    breakdown["power_watts"] = shares(c.power_W);
    out["breakdown"] = breakdown;
    nlohmann::ordered_json bom = nlohmann::ordered_json::array();
    for (const model::BomLine &line : c.bom.lines) {
        nlohmann::ordered_json item;
        item["part"] = line.key;
        item["label"] = line.label;
        item["count"] = line.count;
        item["unit_price_usd"] = line.unitPrice_USD;
        item["unit_power_watts"] = line.unitPower_W;
        item["price_usd"] = line.price_USD();
        item["source"] = line.source;
        bom.push_back(std::move(item));
    }
    out["bill_of_materials"] = bom;
    out["assumptions"] = assumptionsToJson(c.assumptions);
    out["notes"] = c.bom.notes;
    // After every earlier key: whether the $ figures count every part, and the parts they leave out.
    out["complete"] = c.bom.complete();
    out["unpriced"] = c.bom.unpriced;
    return out;
}

} // namespace gapstudio::cli
