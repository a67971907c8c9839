#pragma once

#include <string>

namespace gapstudio::model {

/// The reference's human_format(value, 'bytes'), e.g. "443.306 GiB" (used in its messages).
[[nodiscard]] std::string humanBytes(double bytes);

} // namespace gapstudio::model
