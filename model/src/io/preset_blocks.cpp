// The block formats of GapStudio's JSON files (preset_json.h): what every block shares -- strict
// key sets, the header, and numbers written back exactly as they were read. The blocks:
// preset_hardware_blocks.cpp (gpu, interconnect, topology), preset_llm_block.cpp and
// preset_layout_block.cpp.
#include "io/preset_blocks.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gapstudio::io::detail {

namespace {

using scenario::BlockInfo;

double toSi(double value, double factor, bool divide)
{
    return divide ? value / factor : value * factor;
}

template <std::size_t N>
std::vector<std::string_view> keyList(const std::array<std::string_view, N> &header,
                                      std::initializer_list<std::string_view> body)
{
    std::vector<std::string_view> keys(header.begin(), header.end());
    keys.insert(keys.end(), body);
    return keys;
}

void requireKeyList(const JsonCursor &cursor, const std::vector<std::string_view> &required,
                    const std::vector<std::string_view> &optional = {})
{
    cursor.requireObject();
    for (std::string_view key : required)
        if (!cursor.value().contains(key))
            cursor.fail("missing key \"" + std::string(key) + "\"");
    for (const auto &item : cursor.value().items()) {
        bool known = false;
        for (const auto *list : { &required, &optional })
            for (std::string_view key : *list)
                known = known || item.key() == key;
        if (!known)
            cursor[item.key()].fail("unknown key \"" + item.key() + "\"");
    }
}

} // namespace

/// The shortest decimal that converts back to `si` exactly, so that saving a loaded file
/// reproduces the numbers as they were written.
nlohmann::ordered_json unitNumber(double si, double factor, bool divide)
{
    const double candidate = divide ? si * factor : si / factor;
    for (int precision = 1; precision <= 17; ++precision) {
        char text[40];
        std::snprintf(text, sizeof text, "%.*g", precision, candidate);
        const double value = std::strtod(text, nullptr);
        if (toSi(value, factor, divide) == si)
            return plainNumber(value);
    }
    return plainNumber(candidate);
}

double numberIn(const JsonCursor &cursor, double low, bool lowIncluded, double high, bool highIncluded)
{
    return detail::numberInRange(cursor, low, lowIncluded, high, highIncluded);
}

void requireBlockKeys(const JsonCursor &cursor, bool wholeFile, std::initializer_list<std::string_view> body,
                      std::initializer_list<std::string_view> optional)
{
    requireKeyList(cursor, wholeFile ? keyList(kFileHeader, body) : keyList(kInlineHeader, body), optional);
}

void requireKeys(const JsonCursor &cursor, std::initializer_list<std::string_view> required,
                 std::initializer_list<std::string_view> optional)
{
    requireKeyList(cursor, std::vector<std::string_view>(required), std::vector<std::string_view>(optional));
}

nlohmann::ordered_json plainNumber(double value)
{
    if (std::trunc(value) == value && std::fabs(value) < 9007199254740992.0)
        return static_cast<std::int64_t>(value);
    return value;
}

BlockInfo parseInfo(const JsonCursor &cursor)
{
    BlockInfo info;
    info.id = cursor["id"].string();
    if (info.id.empty())
        cursor["id"].fail("expected a non-empty id");
    info.name = cursor["name"].string();
    info.source = cursor["source"].string();
    return info;
}

BlockInfo parseFixedVersionHeader(const JsonCursor &c, std::string_view fileType, std::int64_t version)
{
    const std::string type = c["fileType"].string();
    if (type != fileType)
        c["fileType"].fail("expected \"" + std::string(fileType) + "\", got \"" + type + "\"");
    const std::int64_t actual = c["version"].integer();
    if (actual != version)
        c["version"].fail("File version " + std::to_string(actual) + " is not supported (expected "
                          + std::to_string(version) + ")");
    return parseInfo(c);
}

void writeInfo(nlohmann::ordered_json &out, const BlockInfo &info)
{
    out["id"] = info.id;
    out["name"] = info.name;
    out["source"] = info.source;
}

} // namespace gapstudio::io::detail
