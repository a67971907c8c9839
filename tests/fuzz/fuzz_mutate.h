#pragma once
// The mutations of fuzz_readers: a seeded generator (the same on every platform) and mutations
// of an input in memory: of its JSON values and structure when it is JSON (numbers at and beyond
// the model's limits, other types, missing and unknown keys, deep nesting), and of its bytes
// (flips, cuts, copies, interesting tokens, deep XML nesting) for any input.

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace gapstudio::fuzz {

/// splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", 2014).
class Random {
public:
    explicit Random(std::uint64_t seed)
        : mState(seed)
    {
    }
    std::uint64_t next()
    {
        std::uint64_t z = (mState += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// A number in [0, n) (n > 0).
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
    bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }

private:
    std::uint64_t mState;
};

/// Stands for a value nested 100,000 deep, which is written as text: building it as JSON
/// would overflow the fuzzer's own stack when printed.
inline constexpr const char *kDeepMarker = "__gapstudio_fuzz_deep__";

/// Numbers at the edges of what readers and the model accept.
inline nlohmann::json interestingNumber(Random &r)
{
    static const std::array<double, 20> doubles
        = { 0.0,    -0.0,     -1.0, 1.0,    0.5,  1e308, -1e308,
            1e-300, 4.9e-324, 1e9,  1e18,   1e21, 1e24,  9007199254740993.0,
            1e-6,   0.999999, -1e6, 3.0e15, 1e30, 2.0 };
    static const std::array<std::int64_t, 10> integers
        = { 0, -1, 1, 2, 3, 1000000000, 9007199254740992, 4611686018427387904, INT64_MAX, INT64_MIN };
    switch (r.below(3)) {
    case 0:
        return doubles[r.below(doubles.size())];
    case 1:
        return integers[r.below(integers.size())];
    default:
        return std::uint64_t { 18446744073709551615ull };
    }
}

inline void collect(nlohmann::json &value, std::vector<nlohmann::json *> &out)
{
    out.push_back(&value);
    if (value.is_structured())
        for (auto &child : value)
            collect(child, out);
}

/// One change to one value of a JSON document.
inline void mutateJson(nlohmann::json &root, Random &r)
{
    std::vector<nlohmann::json *> values;
    collect(root, values);
    nlohmann::json &v = *values[r.below(values.size())];
    switch (r.below(10)) {
    case 0:
    case 1:
    case 2:
        v = interestingNumber(r);
        break;
    case 3:
        if (v.is_number()) { // a power of ten away, or negated
            const double scale = std::pow(10.0, static_cast<double>(r.below(41)) - 20.0);
            v = v.get<double>() * (r.chance(20) ? -scale : scale);
        } else {
            v = interestingNumber(r);
        }
        break;
    case 4: {
        static const std::array<const char *, 8> strings
            = { "", "float8", "none", "nvidia-b200", "two-tier", "swiglu", "gapstudio.llm", "\u00e9\u0001" };
        switch (r.below(5)) {
        case 0:
            v = nullptr;
            break;
        case 1:
            v = r.chance(50);
            break;
        case 2:
            v = nlohmann::json::array();
            break;
        case 3:
            v = nlohmann::json::object();
            break;
        default:
            v = strings[r.below(strings.size())];
        }
        break;
    }
    case 5:
        if (v.is_object() && !v.empty()) {
            auto it = v.begin();
            std::advance(it, static_cast<std::ptrdiff_t>(r.below(v.size())));
            v.erase(it);
        } else if (v.is_array() && !v.empty()) {
            v.erase(r.below(v.size()));
        }
        break;
    case 6:
        if (v.is_object())
            v["unknown_key"] = 1;
        else if (v.is_array())
            v.push_back(v.empty() ? interestingNumber(r) : v[r.below(v.size())]);
        break;
    case 7: // nested deeply: beyond every limit (written as text by mutate()), or just inside
        if (r.chance(50)) {
            v = kDeepMarker;
        } else {
            nlohmann::json nested = 1;
            for (int i = 0; i < 60; ++i)
                nested = nlohmann::json::array({ std::move(nested) });
            v = std::move(nested);
        }
        break;
    case 8:
        if (v.is_string())
            v = std::string(r.chance(50) ? 100000 : 3, 'x');
        else
            v = interestingNumber(r);
        break;
    default:
        if (v.is_number_unsigned()) // one off, wrapping (unsigned: defined)
            v = v.get<std::uint64_t>() + (r.chance(50) ? 1u : std::uint64_t(-1));
        else if (v.is_number_integer() && v.get<std::int64_t>() > INT64_MIN && v.get<std::int64_t>() < INT64_MAX)
            v = v.get<std::int64_t>() + (r.chance(50) ? 1 : -1);
        else
            v = interestingNumber(r);
    }
}

/// One change to the bytes of any input.
inline void mutateBytes(std::string &text, Random &r)
{
    static const std::array<const char *, 12> tokens
        = { "1e308", "-0", "[", "{", "\"", "]", "}", ",", "null", "<g>", "</desc>", "\x89PNG" };
    const std::size_t size = text.size();
    const std::size_t at = size ? r.below(size) : 0;
    switch (r.below(8)) {
    case 0:
        if (size)
            text[at] = static_cast<char>(text[at] ^ (1 << r.below(8)));
        break;
    case 1:
        if (size)
            text[at] = static_cast<char>(r.below(256));
        break;
    case 2:
        text.erase(at, r.below(64) + 1);
        break;
    case 3:
        if (size) {
            const std::size_t from = r.below(size);
            text.insert(at, text.substr(from, r.below(256) + 1));
        }
        break;
    case 4:
        text.resize(at);
        break;
    case 5:
        text.insert(at, tokens[r.below(tokens.size())]);
        break;
    case 6: { // deep XML or JSON nesting at a random place
        std::string open;
        const bool xml = text.find('<') != std::string::npos;
        for (int i = 0; i < 20000; ++i)
            open += xml ? "<g>" : "[";
        text.insert(at, open);
        break;
    }
    default:
        text.insert(at, std::string(r.below(8) + 1, static_cast<char>(r.below(256))));
    }
}

/// Mutates an input: its JSON when it is JSON (then, sometimes, its bytes as well), else its bytes.
inline void mutate(std::string &text, Random &r)
{
    nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (!json.is_discarded() && r.chance(80)) {
        const std::size_t changes = 1 + r.below(3);
        for (std::size_t i = 0; i < changes; ++i)
            mutateJson(json, r);
        text = json.dump(r.chance(50) ? 2 : -1, ' ', false, nlohmann::json::error_handler_t::replace);
        const std::string marker = std::string("\"") + kDeepMarker + "\"";
        for (auto at = text.find(marker); at != std::string::npos; at = text.find(marker))
            text.replace(at, marker.size(), std::string(100000, '[') + "1" + std::string(100000, ']'));
        if (r.chance(15))
            mutateBytes(text, r);
        return;
    }
    const std::size_t changes = 1 + r.below(4);
    for (std::size_t i = 0; i < changes; ++i)
        mutateBytes(text, r);
}

} // namespace gapstudio::fuzz
