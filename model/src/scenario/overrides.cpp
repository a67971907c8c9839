// Questions about the override keys (scenario.h): which there are, what a compiled design's value
// is, whether a value or a text is one a key takes. The keys themselves: override_rules.h.
#include "scenario/override_rules.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>

namespace gapstudio::scenario {

namespace detail {

const std::vector<OverrideRule> &overrideRules()
{
    static const std::vector<OverrideRule> table = [] {
        std::vector<OverrideRule> all = designRules();
        for (OverrideRule &rule : costRules())
            all.push_back(std::move(rule));
        for (OverrideRule &rule : reliabilityRules())
            all.push_back(std::move(rule));
        return all;
    }();
    return table;
}

const OverrideRule *findOverrideRule(const std::string &key)
{
    const auto rule = std::find_if(overrideRules().begin(), overrideRules().end(),
                                   [&](const OverrideRule &r) { return key == r.key.key; });
    return rule == overrideRules().end() ? nullptr : &*rule;
}

} // namespace detail

namespace {

using detail::OverrideRule;
using detail::overrideRules;

std::string number(double value)
{
    std::ostringstream out;
    out.precision(15);
    out << value;
    return out.str();
}

} // namespace

const std::vector<OverrideKey> &overrideKeys() noexcept
{
    static const std::vector<OverrideKey> keys = [] {
        std::vector<OverrideKey> out;
        for (const OverrideRule &rule : overrideRules())
            out.push_back(rule.key);
        return out;
    }();
    return keys;
}

const OverrideKey *findOverrideKey(const std::string &key) noexcept
{
    const auto it = std::find_if(overrideKeys().begin(), overrideKeys().end(),
                                 [&](const OverrideKey &k) { return key == k.key; });
    return it == overrideKeys().end() ? nullptr : &*it;
}

std::optional<double> overrideKeyValue(const CompiledScenario &compiled, const std::string &key)
{
    const OverrideRule *rule = detail::findOverrideRule(key);
    if (!rule || !rule->read)
        return std::nullopt;
    return rule->read(compiled);
}

std::optional<std::string> overrideProblem(const std::string &key, double value)
{
    const OverrideRule *rule = detail::findOverrideRule(key);
    if (!rule) {
        std::string known;
        for (const OverrideRule &r : overrideRules())
            known += (known.empty() ? "" : ", ") + std::string(r.key.key);
        return "unknown override \"" + key + "\" (known: " + known + ")";
    }
    const OverrideKey &k = rule->key;
    const model::Range range { k.minimum, k.minimumIncluded, k.maximum, k.maximumIncluded };
    if (!std::isfinite(value) || !range.contains(value))
        return "expected a number in " + range.text() + ", got " + number(value);
    if (k.integer && std::trunc(value) != value)
        return "expected a whole number, got " + number(value);
    return std::nullopt;
}

std::optional<std::string> overrideTextProblem(const std::string &key, const std::string &text, double &value)
{
    char *end = nullptr;
    value = std::strtod(text.c_str(), &end);
    const bool parsed = !text.empty() && *end == '\0';
    const std::optional<std::string> problem = overrideProblem(key, parsed ? value : HUGE_VAL);
    const OverrideKey *k = findOverrideKey(key);
    if (!k)
        return problem;
    // Plain digits of a whole key must be the very number evaluated: 2^53 + 1 would round to 2^53.
    std::uint64_t digits = 0;
    const char *first = text.c_str() + (text.rfind('+', 0) == 0 ? 1 : 0);
    const auto [last, error] = std::from_chars(first, text.c_str() + text.size(), digits);
    const bool inexact = k->integer && last == text.c_str() + text.size()
                         && (error != std::errc() || !(value < 0x1p64) // the cast below needs < 2^64
                             || static_cast<double>(digits) != value
                             || digits != static_cast<std::uint64_t>(value));
    if (!problem && !inexact)
        return std::nullopt;
    const model::Range range { k->minimum, k->minimumIncluded, k->maximum, k->maximumIncluded };
    // Whole bounds in full (2^53 is 9007199254740992, not 9.0072e+15).
    const std::string bounds = k->integer ? std::string(range.lowIncluded ? "[" : "(")
                                                + std::to_string(static_cast<std::int64_t>(range.low)) + ", "
                                                + std::to_string(static_cast<std::int64_t>(range.high))
                                                + (range.highIncluded ? "]" : ")")
                                          : range.text();
    return std::string("expected ") + (k->integer ? "a whole number" : "a number") + " in " + bounds + ", got \""
           + text + "\"";
}

} // namespace gapstudio::scenario
