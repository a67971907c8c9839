#include "cost/costinputs.h"

#include <QObject>

namespace gapstudio::views {

namespace {

constexpr double kTokensPerBillion = 1e9;
constexpr double kMaxPrice = 1e12; // as the override's own bound allows more: a field, not a check

double switchPrice(const scenario::Interconnect &link)
{
    return link.cost ? link.cost->switchPrice_USD : 0;
}

} // namespace

const QList<CostInput> &costInputs()
{
    using R = scenario::ResolvedScenario;
    static const QList<CostInput> inputs {
        { "cost.usd_per_kWh", QObject::tr("Electricity price"), QStringLiteral("$/kWh"), 1, 0, 10, 3,
          [](const R &r) { return r.costAssumptions.usdPerKWh; } },
        { "cost.pue", QObject::tr("PUE (facility / IT power)"), QString(), 1, 1, 5, 2,
          [](const R &r) { return r.costAssumptions.pue; } },
        { "cost.depreciation_years", QObject::tr("Depreciation"), QObject::tr("years"), 1, 0.1, 50, 1,
          [](const R &r) { return r.costAssumptions.depreciationYears; } },
        { "cost.facility_usd_per_MW_year", QObject::tr("Facility charge"), QObject::tr("$ per MW-year"), 1, 0,
          kMaxPrice, 0, [](const R &r) { return r.costAssumptions.facilityUsdPerMWYear; } },
        { "cost.token_budget", QObject::tr("Token budget of a training run"), QObject::tr("billion tokens"),
          kTokensPerBillion, 0.001, 1e6, 1, [](const R &r) { return r.costAssumptions.tokenBudget; } },
        { "gpu.price_USD", QObject::tr("GPU price"), QStringLiteral("$"), 1, 0, kMaxPrice, 0,
          [](const R &r) { return r.gpu.price_USD.value_or(0); } },
        { "gpu.server_price_USD", QObject::tr("Server price (without GPUs)"), QStringLiteral("$"), 1, 0,
          kMaxPrice, 0, [](const R &r) { return r.gpu.cost ? r.gpu.cost->serverPrice_USD : 0; } },
        { "scale_up.switch_price_USD", QObject::tr("Scale-up switch price"), QStringLiteral("$"), 1, 0,
          kMaxPrice, 0, [](const R &r) { return switchPrice(r.scaleUp); } },
        { "scale_out.switch_price_USD", QObject::tr("Scale-out switch price"), QStringLiteral("$"), 1, 0,
          kMaxPrice, 0, [](const R &r) { return switchPrice(r.scaleOut); } },
        { "scale_out.optics_price_USD", QObject::tr("Scale-out optics price (per link end)"),
          QStringLiteral("$"), 1, 0, kMaxPrice, 0,
          [](const R &r) { return r.scaleOut.cost ? r.scaleOut.cost->opticsPrice_USD : 0; } },
    };
    return inputs;
}

} // namespace gapstudio::views
