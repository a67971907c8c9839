#include "cost/costinputs.h"

#include <QObject>

namespace gapstudio::views {

namespace {

constexpr double kTokensPerBillion = 1e9;
constexpr double kMaxPrice = 1e12; // as the override's own bound allows more: a field, not a check
constexpr double kMaxStorage_GBps = 1e6;
constexpr double kMaxRestart_s = 1e6;
constexpr double kMaxSpareServers = 1e6;
constexpr double kMaxRepair_hours = 1e4;

} // namespace

const QList<CostInput> &costInputs()
{
    // The field's words are the key's (scenario::overrideKeys()); only the display unit of the
    // token budget differs (billions of tokens).
    const auto input = [](const char *key, double displayScale, QString unit, double minimum, double maximum,
                          int decimals) {
        const scenario::OverrideKey *k = scenario::findOverrideKey(key);
        return CostInput { key,
                           QObject::tr(k->label),
                           unit.isNull() ? QString::fromUtf8(k->unit) : unit,
                           displayScale,
                           minimum,
                           maximum,
                           decimals,
                           [key](const scenario::CompiledScenario &c) {
                               return scenario::overrideKeyValue(c, key).value_or(0);
                           } };
    };
    static const QList<CostInput> inputs {
        input("cost.usd_per_kWh", 1, {}, 0, 10, 3),
        input("cost.pue", 1, {}, 1, 5, 2),
        input("cost.depreciation_years", 1, {}, 0.1, 50, 1),
        input("cost.facility_usd_per_MW_year", 1, {}, 0, kMaxPrice, 0),
        input("cost.token_budget", kTokensPerBillion, QObject::tr("billion tokens"), 0.001, 1e6, 1),
        input("gpu.price_USD", 1, {}, 0, kMaxPrice, 0),
        input("gpu.server_price_USD", 1, {}, 0, kMaxPrice, 0),
        input("scale_up.switch_price_USD", 1, {}, 0, kMaxPrice, 0),
        input("scale_out.switch_price_USD", 1, {}, 0, kMaxPrice, 0),
        input("scale_out.optics_price_USD", 1, {}, 0, kMaxPrice, 0),
        // The goodput's: what faster storage or recovery is worth.
        input("reliability.storage_GBps", 1, {}, 0.001, kMaxStorage_GBps, 1),
        input("reliability.job_restart_s", 1, {}, 0, kMaxRestart_s, 0),
        // Hot spares: what they cost against the repairs they save waiting for.
        input("reliability.spare_servers", 1, {}, 0, kMaxSpareServers, 0),
        input("reliability.repair_hours", 1, {}, 0, kMaxRepair_hours, 1),
    };
    return inputs;
}

} // namespace gapstudio::views
