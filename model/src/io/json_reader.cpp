// Reading JSON files and checking values strictly (see json_cursor.h). Every failure is an
// InputError "<file>: <pointer>: <message>" on one line.
#include "io/json_cursor.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/safe_file.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <vector>

namespace gapstudio::io {

namespace {

/// One line, no control characters: messages end up on a terminal and in single-line logs.
std::string oneLine(std::string text)
{
    for (char &c : text) {
        if (static_cast<unsigned char>(c) < 0x20)
            c = ' ';
    }
    return text;
}

/// Tracks the path while nlohmann's parser runs, to reject duplicate keys (the parser would
/// silently keep the last one, the same trap as a misspelt key falling back to a default).
class DuplicateKeyGuard {
public:
    explicit DuplicateKeyGuard(const std::string &file) : mFile(file) { }

    bool operator()(int, nlohmann::json::parse_event_t event, nlohmann::json &parsed)
    {
        using Event = nlohmann::json::parse_event_t;
        switch (event) {
        case Event::object_start:
        case Event::array_start:
            // Bounded nesting: deeper input is rejected before it is built (and before any
            // recursive code, such as printing a value, could overflow the stack).
            if (mFrames.size() >= kMaxJsonDepth)
                throw InputError(mFile, pointer(),
                                 "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
            mFrames.push_back({event == Event::array_start, 0, {}, {}});
            break;
        case Event::key: {
            Frame &top = mFrames.back();
            top.key = parsed.get<std::string>();
            if (!top.keys.insert(top.key).second)
                throw InputError(mFile, pointer(), "duplicate key");
            break;
        }
        case Event::object_end:
        case Event::array_end:
            mFrames.pop_back();
            advance();
            break;
        case Event::value:
            advance();
            break;
        }
        return true;
    }

private:
    struct Frame {
        bool isArray;
        std::size_t index;
        std::string key;
        std::set<std::string> keys;
    };

    void advance()
    {
        if (!mFrames.empty() && mFrames.back().isArray)
            ++mFrames.back().index;
    }

    std::string pointer() const
    {
        std::string result;
        for (const Frame &frame : mFrames)
            result += "/" + (frame.isArray ? std::to_string(frame.index) : detail::escapePointerToken(frame.key));
        return result;
    }

    const std::string &mFile;
    std::vector<Frame> mFrames;
};

} // namespace

InputError::InputError(std::string file, std::string jsonPointer, const std::string &message)
    : std::runtime_error(oneLine(file + ": " + jsonPointer + ": " + message))
    , mFile(std::move(file))
    , mPointer(std::move(jsonPointer))
{
}

nlohmann::json readJsonFile(const std::string &path)
{
    return parseJsonText(readInputFile(path), path);
}

nlohmann::json parseJsonText(const std::string &text, const std::string &origin)
{
    try {
        return nlohmann::json::parse(text, DuplicateKeyGuard(origin));
    } catch (const nlohmann::json::parse_error &error) {
        // nlohmann's text reads "[json.exception.parse_error.101] parse error at line 1, ...".
        std::string message = error.what();
        if (const auto end = message.find("] "); message.rfind("[json.exception", 0) == 0 && end != std::string::npos)
            message.erase(0, end + 2);
        throw InputError(origin, "/", "invalid JSON: " + message);
    } catch (const nlohmann::json::exception &error) {
        throw InputError(origin, "/", std::string("invalid JSON: ") + error.what());
    }
}

namespace detail {

JsonCursor::JsonCursor(const nlohmann::json &value, const std::string &file, std::string pointer)
    : mValue(&value)
    , mFile(&file)
    , mPointer(std::move(pointer))
{
}

void JsonCursor::fail(const std::string &message) const
{
    throw InputError(*mFile, pointer(), message);
}

void JsonCursor::requireObject() const
{
    if (!mValue->is_object())
        fail("expected an object, got " + describe(*mValue));
}

void JsonCursor::requireExactKeys(std::initializer_list<std::string_view> keys) const
{
    requireObject();
    for (std::string_view key : keys) {
        if (!mValue->contains(key))
            fail("missing key \"" + std::string(key) + "\"");
    }
    for (const auto &item : mValue->items()) {
        bool known = false;
        for (std::string_view key : keys)
            known = known || item.key() == key;
        if (!known)
            (*this)[item.key()].fail("unknown key");
    }
}

std::size_t JsonCursor::requireArray(std::size_t size) const
{
    if (!mValue->is_array())
        fail("expected an array, got " + describe(*mValue));
    if (size != kAnySize && mValue->size() != size)
        fail("expected an array of " + std::to_string(size) + " elements, got " + std::to_string(mValue->size()));
    return mValue->size();
}

JsonCursor JsonCursor::operator[](std::string_view key) const
{
    requireObject();
    const auto it = mValue->find(key);
    if (it == mValue->end())
        fail("missing key \"" + std::string(key) + "\"");
    return JsonCursor(*it, *mFile, mPointer + "/" + escapePointerToken(key));
}

JsonCursor JsonCursor::operator[](std::size_t index) const
{
    if (index >= requireArray())
        fail("missing element " + std::to_string(index));
    return JsonCursor((*mValue)[index], *mFile, mPointer + "/" + std::to_string(index));
}

std::int64_t JsonCursor::integer() const
{
    constexpr std::int64_t kLimit = std::int64_t{1} << 53;
    if (mValue->is_number_unsigned()) {
        if (mValue->get<std::uint64_t>() > static_cast<std::uint64_t>(kLimit))
            fail("integer " + describe(*mValue) + " is too large (limit 2^53)");
        return static_cast<std::int64_t>(mValue->get<std::uint64_t>());
    }
    if (mValue->is_number_integer()) {
        const auto value = mValue->get<std::int64_t>();
        if (value < -kLimit)
            fail("integer " + describe(*mValue) + " is too small (limit -2^53)");
        return value;
    }
    fail("expected an integer, got " + describe(*mValue));
}

std::int64_t JsonCursor::integerAtLeast(std::int64_t minimum) const
{
    const std::int64_t value = integer();
    if (value < minimum)
        fail("expected an integer >= " + std::to_string(minimum) + ", got " + std::to_string(value));
    return value;
}

double JsonCursor::number() const
{
    if (!mValue->is_number())
        fail("expected a number, got " + describe(*mValue));
    const auto value = mValue->get<double>();
    if (!std::isfinite(value))
        fail("expected a finite number, got " + describe(*mValue));
    return value;
}

bool JsonCursor::boolean() const
{
    if (!mValue->is_boolean())
        fail("expected true or false, got " + describe(*mValue));
    return mValue->get<bool>();
}

std::string JsonCursor::string() const
{
    if (!mValue->is_string())
        fail("expected a string, got " + describe(*mValue));
    return mValue->get<std::string>();
}

void JsonCursor::requireNull() const
{
    if (!mValue->is_null())
        fail("expected null, got " + describe(*mValue));
}

std::size_t JsonCursor::oneOf(std::initializer_list<std::string_view> names) const
{
    return indexIn(names);
}

std::size_t JsonCursor::oneOf(std::span<const char *const> names) const
{
    return indexIn(names);
}

std::string describe(const nlohmann::json &value)
{
    if (value.is_object())
        return "an object";
    if (value.is_array())
        return "an array";
    std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    constexpr std::size_t kMax = 60;
    if (text.size() > kMax)
        text = text.substr(0, kMax) + "...";
    return text;
}

std::string escapePointerToken(std::string_view token)
{
    std::string result;
    for (char c : token) {
        if (c == '~')
            result += "~0";
        else if (c == '/')
            result += "~1";
        else
            result += c;
    }
    return result;
}

std::string formatNumber(double value)
{
    if (std::isfinite(value) && std::trunc(value) == value && std::fabs(value) < 1e15)
        return std::to_string(static_cast<std::int64_t>(value));
    return nlohmann::json(value).dump();
}

double numberInRange(const JsonCursor &cursor, double low, bool lowIncluded, double high, bool highIncluded)
{
    const double value = cursor.number();
    const bool aboveLow = lowIncluded ? value >= low : value > low;
    const bool belowHigh = highIncluded ? value <= high : value < high;
    if (!aboveLow || !belowHigh) {
        cursor.fail("expected a number in " + std::string(lowIncluded ? "[" : "(") + formatNumber(low) + ", "
                    + (high == std::numeric_limits<double>::infinity() ? "inf" : formatNumber(high))
                    + (highIncluded ? "]" : ")") + ", got " + formatNumber(value));
    }
    return value;
}

double numberInRange(const JsonCursor &cursor, const model::Range &range)
{
    const double value = cursor.number();
    if (!range.contains(value))
        cursor.fail("expected a number in " + range.text() + ", got " + formatNumber(value));
    return value;
}

model::EfficiencyTable parseEfficiencyTable(const JsonCursor &cursor, double thresholdUnit)
{
    model::EfficiencyTable table;
    const std::size_t count = cursor.requireArray();
    if (count == 0)
        cursor.fail("expected a non-empty list of [threshold, efficiency] rows");
    double previous = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const JsonCursor row = cursor[i];
        row.requireArray(2);
        const double threshold
            = numberInRange(row[std::size_t { 0 }], model::limits::kThreshold.in(thresholdUnit));
        if (i > 0 && threshold >= previous) {
            row[std::size_t{0}].fail("thresholds must decrease strictly: " + formatNumber(threshold) + " follows "
                                     + formatNumber(previous));
        }
        if (i + 1 == count && threshold != 0)
            row[std::size_t{0}].fail("the last threshold must be 0 (smaller ops would have no efficiency), got "
                                     + formatNumber(threshold));
        const double efficiency = numberInRange(row[1], model::limits::kEfficiency);
        table.rows.emplace_back(threshold * thresholdUnit, efficiency);
        previous = threshold;
    }
    return table;
}

} // namespace detail
} // namespace gapstudio::io
