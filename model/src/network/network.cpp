#include "network/network.h"

#include <cmath>

namespace gapstudio::model::detail {

double allToAllTime(const NetworkTier &net, double bytes, std::int64_t peers) noexcept
{
    const double chunk = std::floor(bytes / static_cast<double>(peers));
    return static_cast<double>(peers - 1) * networkTime(net, NetOp::AllToAll, chunk, 2);
}

} // namespace gapstudio::model::detail
