#pragma once
/**
 * @file studioformat.h
 * The studio's one place for display formatting of SI quantities (Calculon's human_format idea):
 * every label and table of the studio goes through these.
 */

#include "gapstudio/model/units.h"

#include <QString>

#include <cstdint>

namespace gapstudio::views::format {

[[nodiscard]] inline QString number(double value, int precision = 3)
{
    return QString::number(value, 'g', precision);
}
/// Bytes per second as GB/s (decimal, as link datasheets).
[[nodiscard]] inline QString bandwidth(double bytesPerSecond)
{
    return bytesPerSecond >= 1e12 ? QStringLiteral("%1 TB/s").arg(number(bytesPerSecond / 1e12))
                                  : QStringLiteral("%1 GB/s").arg(number(bytesPerSecond / 1e9));
}
[[nodiscard]] inline QString latency(double seconds)
{
    return seconds >= 1e-3 ? QStringLiteral("%1 ms").arg(number(seconds * 1e3))
                           : QStringLiteral("%1 µs").arg(number(seconds * 1e6));
}
/// Bytes as GiB (binary, as HBM capacities).
[[nodiscard]] inline QString bytes(double b)
{
    return QStringLiteral("%1 GiB").arg(number(b / units::kBytesPerGiB, 4));
}
[[nodiscard]] inline QString flops(double f)
{
    return f >= 1e15 ? QStringLiteral("%1 PFLOP/s").arg(number(f / 1e15)) : QStringLiteral("%1 TFLOP/s").arg(number(f / 1e12));
}
[[nodiscard]] inline QString seconds(double s)
{
    return s >= 1 ? QStringLiteral("%1 s").arg(number(s, 4)) : QStringLiteral("%1 ms").arg(number(s * 1e3, 4));
}
[[nodiscard]] inline QString percent(double fraction)
{
    return QStringLiteral("%1 %").arg(QString::number(fraction * 100, 'f', 1));
}
/// A large rate with an SI prefix, e.g. "8.81 M".
[[nodiscard]] inline QString si(double value)
{
    return value >= 1e9   ? QStringLiteral("%1 G").arg(number(value / 1e9))
           : value >= 1e6 ? QStringLiteral("%1 M").arg(number(value / 1e6))
           : value >= 1e3 ? QStringLiteral("%1 k").arg(number(value / 1e3))
                          : number(value);
}
[[nodiscard]] inline QString count(std::int64_t n)
{
    return QString::number(n);
}

} // namespace gapstudio::views::format
