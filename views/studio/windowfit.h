#pragma once
/**
 * @file windowfit.h
 * The main window's first size: the preferred 1600 x 1000, or what fits the screen's available
 * area (task bars excluded) when that is smaller.
 */

#include <QRect>
#include <QSize>

#include <algorithm>

namespace gapstudio::views {

inline constexpr QSize kPreferredWindowSize { 1600, 1000 };

/// `preferred`, shrunk to 95 % of `available` where the screen is smaller.
[[nodiscard]] inline QSize fittingWindowSize(const QRect &available, QSize preferred = kPreferredWindowSize)
{
    if (available.isEmpty())
        return preferred;
    return { std::min(preferred.width(), available.width() * 95 / 100),
             std::min(preferred.height(), available.height() * 95 / 100) };
}

} // namespace gapstudio::views
