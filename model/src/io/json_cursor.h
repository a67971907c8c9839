#pragma once
/**
 * @file json_cursor.h
 * Private helper of the JSON readers: a JSON value together with the file and the JSON pointer
 * it came from, so that every type or range violation becomes an InputError naming the exact
 * place. Strict by design: integers must be JSON integers (8.0 and 8.5 are not), numbers must be
 * finite, booleans must be JSON booleans, and objects must have exactly the expected keys.
 */

#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/limits.h"

#include <nlohmann/json.hpp>

#include <limits>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <span>
#include <string_view>
#include <utility>

namespace gapstudio::io::detail {

[[nodiscard]] std::string describe(const nlohmann::json &value);

class JsonCursor {
public:
    JsonCursor(const nlohmann::json &value, const std::string &file, std::string pointer = {});

    [[nodiscard]] const nlohmann::json &value() const noexcept { return *mValue; }
    [[nodiscard]] const std::string &file() const noexcept { return *mFile; }
    /// RFC 6901 pointer of this value; "/" for the document root.
    [[nodiscard]] std::string pointer() const { return mPointer.empty() ? "/" : mPointer; }

    /// Throws InputError(file, pointer, message).
    [[noreturn]] void fail(const std::string &message) const;

    /// Requires an object with exactly `keys` (reports the first missing key, then the first
    /// unknown key, so that a misspelt key is named at its own pointer).
    void requireExactKeys(std::initializer_list<std::string_view> keys) const;
    /// Requires an object (any keys).
    void requireObject() const;
    /// Requires an array, of exactly `size` elements unless `size` is kAnySize.
    std::size_t requireArray(std::size_t size = kAnySize) const;

    /// The member `key` of an object, which must exist.
    [[nodiscard]] JsonCursor operator[](std::string_view key) const;
    /// The element `index` of an array, which must exist.
    [[nodiscard]] JsonCursor operator[](std::size_t index) const;

    /// A JSON integer in [-2^53, 2^53] (exact as a double).
    [[nodiscard]] std::int64_t integer() const;
    /// A JSON integer >= `minimum`.
    [[nodiscard]] std::int64_t integerAtLeast(std::int64_t minimum) const;
    /// A finite JSON number (integer or not).
    [[nodiscard]] double number() const;
    [[nodiscard]] bool boolean() const;
    [[nodiscard]] std::string string() const;
    void requireNull() const;

    /// One of `names` (a JSON string); returns its index.
    [[nodiscard]] std::size_t oneOf(std::initializer_list<std::string_view> names) const;
    /// The same for a list of names (model/enum_names.h).
    template <std::size_t N> [[nodiscard]] std::size_t oneOf(const std::array<const char *, N> &names) const
    {
        return oneOf(std::span<const char *const>(names));
    }
    [[nodiscard]] std::size_t oneOf(std::span<const char *const> names) const;

    static constexpr std::size_t kAnySize = static_cast<std::size_t>(-1);

private:
    /// oneOf() for any list of names.
    template <typename Names> [[nodiscard]] std::size_t indexIn(const Names &names) const
    {
        std::string list;
        std::size_t index = 0;
        for (std::string_view name : names) {
            if (mValue->is_string() && mValue->get_ref<const std::string &>() == name)
                return index;
            list += (index++ == 0 ? "\"" : ", \"") + std::string(name) + "\"";
        }
        fail("expected one of " + list + ", got " + describe(*mValue));
    }

    const nlohmann::json *mValue;
    const std::string *mFile;
    std::string mPointer;
};

/// Short human description of a JSON value for messages: `8.5`, `"abc"`, `true`, `an object`.
[[nodiscard]] std::string describe(const nlohmann::json &value);

/// Escapes one reference token for a JSON pointer (RFC 6901: "~" -> "~0", "/" -> "~1").
[[nodiscard]] std::string escapePointerToken(std::string_view token);

/// Formats a double for messages: integers without a fraction, others in shortest form.
[[nodiscard]] std::string formatNumber(double value);

/// A finite number in the interval (or [) low, high ) (or ]); the error names the interval.
[[nodiscard]] double numberInRange(const JsonCursor &cursor, double low, bool lowIncluded,
                                   double high = std::numeric_limits<double>::infinity(), bool highIncluded = false);

/// A finite number in `range` (limits.h, already in the JSON's unit); the error names the range.
[[nodiscard]] double numberInRange(const JsonCursor &cursor, const model::Range &range);

/// An efficiency curve [[threshold, efficiency], ...]: thresholds strictly decreasing down to 0
/// (at most limits::kThreshold), efficiencies in limits::kEfficiency; thresholds are multiplied
/// by `thresholdUnit` (GFLOP or MB to SI).
[[nodiscard]] model::EfficiencyTable parseEfficiencyTable(const JsonCursor &cursor, double thresholdUnit);

} // namespace gapstudio::io::detail
