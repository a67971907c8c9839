// The checkpoint storage block format (preset_blocks.h): strict parse and canonical write.
#include "io/preset_blocks.h"

#include "gapstudio/model/units.h"

namespace gapstudio::io::detail {

using units::kBpsPerGBps;

scenario::Storage parseStorageBody(const JsonCursor &c, bool wholeFile)
{
    requireBlockKeys(c, wholeFile, { "write_GBps", "read_GBps" }, { "price_USD", "power_W" });
    scenario::Storage storage;
    storage.info = parseInfo(c);
    storage.write_Bps = numberIn(c["write_GBps"], 0, false) * kBpsPerGBps;
    storage.read_Bps = numberIn(c["read_GBps"], 0, false) * kBpsPerGBps;
    if (c.value().contains("price_USD"))
        storage.price_USD = numberIn(c["price_USD"], 0, true);
    if (c.value().contains("power_W"))
        storage.power_W = numberIn(c["power_W"], 0, true);
    return storage;
}

void writeBody(nlohmann::ordered_json &out, const scenario::Storage &storage)
{
    out["write_GBps"] = unitNumber(storage.write_Bps, kBpsPerGBps);
    out["read_GBps"] = unitNumber(storage.read_Bps, kBpsPerGBps);
    if (storage.price_USD)
        out["price_USD"] = plainNumber(*storage.price_USD);
    if (storage.power_W > 0)
        out["power_W"] = plainNumber(storage.power_W);
}

} // namespace gapstudio::io::detail
