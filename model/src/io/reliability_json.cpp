// The interruption rates a GPU or interconnect preset may carry (preset_blocks.h: `reliability`).
#include "io/preset_blocks.h"

namespace gapstudio::io::detail {

namespace {
// At most one interruption per part-hour, as the `reliability.*_fit` overrides allow.
constexpr double kMaxFit = 1e9;
} // namespace

std::optional<scenario::PartFits> parsePartFits(const JsonCursor &blockCursor,
                                                std::initializer_list<std::string_view> keys)
{
    if (!blockCursor.value().contains("reliability"))
        return std::nullopt;
    const JsonCursor c = blockCursor["reliability"];
    requireKeys(c, { "source" }, keys);
    scenario::PartFits fits;
    for (const std::string_view key : keys)
        if (c.value().contains(std::string(key)))
            fits.fit[std::string(key)] = numberIn(c[std::string(key)], 0, true, kMaxFit, true);
    if (fits.fit.empty())
        c.fail("expected at least one interruption rate in FIT");
    fits.source = c["source"].string();
    return fits;
}

void writePartFits(nlohmann::ordered_json &out, const std::optional<scenario::PartFits> &fits)
{
    if (!fits)
        return;
    nlohmann::ordered_json reliability;
    for (const auto &[key, value] : fits->fit)
        reliability[key] = plainNumber(value);
    reliability["source"] = fits->source;
    out["reliability"] = reliability;
}

} // namespace gapstudio::io::detail
