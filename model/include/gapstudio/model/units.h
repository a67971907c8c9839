#pragma once
/**
 * @file units.h
 * Unit conversions between the preset files' units (GiB, GB/s, TFLOP/s, µs, ...) and the
 * model's SI units (bytes, bytes/s, FLOP/s, s). One definition of each, so that a file read and
 * written back, a slider and a table cell agree to the bit. Each is a count of the smaller unit
 * in the larger: divide by it to go to the smaller's side, as the conversions here do.
 */

namespace gapstudio::units {

inline constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kBytesPerMB = 1e6;
inline constexpr double kBpsPerGBps = 1e9; ///< bytes/s in a GB/s
inline constexpr double kBitsPerGbit = 1e9;
inline constexpr double kFlopsPerTflops = 1e12; ///< FLOP/s in a TFLOP/s
inline constexpr double kFlopsPerGflop = 1e9;
/// µs in a second: latency_us / kUsPerSecond gives seconds (a division, so "10" is exactly 1e-05).
inline constexpr double kUsPerSecond = 1e6;
inline constexpr double kSecondsPerUs = 1e-6; ///< a µs in seconds (for Range::in)
inline constexpr double kMsPerSecond = 1e3;
inline constexpr double kSecondsPerHour = 3600;
inline constexpr double kSecondsPerDay = 86400;
inline constexpr double kHoursPerYear = 365.25 * 24; ///< the Julian year
inline constexpr double kWattsPerKilowatt = 1e3;
inline constexpr double kWattsPerMegawatt = 1e6;
inline constexpr double kJoulesPerMegawattHour = 3.6e9;

} // namespace gapstudio::units
