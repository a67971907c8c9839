#pragma once
// The table of scenario override keys (Scenario::overrides, scenario.h): each key with its words,
// unit and range, how it changes the resolved blocks and how a compiled design's value reads in
// the key's unit. The single list of the keys: resolve.cpp applies them, overrides.cpp answers
// questions about them (overrideKeys(), overrideProblem(), ...), override_rules_design.cpp and
// override_rules_money.cpp hold them. Internal to the scenario library.

#include "gapstudio/model/limits.h"
#include "gapstudio/model/units.h"
#include "gapstudio/scenario/scenario.h"

#include <functional>
#include <string>
#include <vector>

namespace gapstudio::scenario::detail {

// The JSON units of the keys (the same factors as io/preset_json.cpp uses).
using units::kBpsPerGBps;
using units::kBytesPerGiB;
using units::kUsPerSecond;
// The overrides' upper bounds: model/limits.h in the keys' units.
constexpr double kMaxCapacity_GiB = model::limits::kCapacity.high / kBytesPerGiB;
constexpr double kMaxBandwidth_GBps = model::limits::kBandwidth.high / kBpsPerGBps;
constexpr double kMaxLatency_us = model::limits::kLatency.high * kUsPerSecond;
constexpr double kMaxInteger = 9007199254740992.0; // 2^53: exact in a double, as in every reader
// Upper bounds of the cost keys: far beyond any real price, power or period, so that every product
// the cost model forms stays finite.
constexpr double kMaxPrice = 1e15; // $ (also $ per kWh and per MW-year)
constexpr double kMaxPower_W = 1e9;
constexpr double kMaxPue = 100;
constexpr double kMaxYears = 1000;
constexpr double kMaxSeconds = 1e9; // about 32 years
constexpr double kMaxCount = model::limits::kMaxCount;

/// One override key, how it changes the resolved blocks (value already range-checked) and how
/// the compiled design's value reads in the key's unit (none for a scale factor).
struct OverrideRule {
    OverrideKey key;
    std::function<void(ResolvedScenario &, double)> apply;
    std::function<double(const CompiledScenario &)> read;
};

/// The design's keys: memory, compute, links, topology, GPU count, layout and sequence
/// (override_rules_design.cpp).
[[nodiscard]] std::vector<OverrideRule> designRules();
/// The cost model's economics and prices (override_rules_money.cpp).
[[nodiscard]] std::vector<OverrideRule> costRules();
/// The goodput model's assumptions (override_rules_money.cpp).
[[nodiscard]] std::vector<OverrideRule> reliabilityRules();

/// Every override key, the design's first (overrides.cpp).
[[nodiscard]] const std::vector<OverrideRule> &overrideRules();
/// The rule of `key`, or nullptr.
[[nodiscard]] const OverrideRule *findOverrideRule(const std::string &key);

} // namespace gapstudio::scenario::detail
