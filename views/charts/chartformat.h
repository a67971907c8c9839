#pragma once
/**
 * @file chartformat.h
 * Display units and number formatting shared by the charts (seconds -> ms, bytes -> GiB,
 * bytes/s -> GB/s, fractions -> %). Conversion for display only; no model formula lives here.
 */

#include "gapstudio/model/units.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QFontMetrics>
#include <QLocale>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <string>

namespace gapstudio::views::chartformat {

/// A value with about four significant digits and thousands separators ("1,234,568", "12.35",
/// "0.4567"); a dash for a value that is not finite. Tables, the report and the cost figures.
[[nodiscard]] inline QString significant(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("\u2014");
    const double magnitude = std::abs(value);
    const int digits = magnitude < 1e-12 ? 0 : static_cast<int>(std::floor(std::log10(magnitude)));
    const int decimals = std::clamp(3 - digits, 0, 6);
    const QLocale english(QLocale::English, QLocale::UnitedStates);
    return english.toString(value, 'f', magnitude < 1e-12 ? 0 : decimals);
}

using units::kBpsPerGBps;
using units::kBytesPerGiB;
using units::kMsPerSecond;
inline constexpr double kPercent = 100.0;

[[nodiscard]] inline QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

/// A value with `decimals` decimals (C locale, so exports read the same everywhere).
[[nodiscard]] inline QString number(double value, int decimals = 1)
{
    return QLocale::c().toString(value, 'f', decimals);
}

/// A signed difference ("+12.3", "-4.0"); a difference that rounds to zero prints as "±0.0".
[[nodiscard]] inline QString signedNumber(double value, int decimals = 1)
{
    const QString text = number(std::abs(value), decimals);
    if (text == number(0.0, decimals))
        return QStringLiteral("±") + text;
    return (value > 0 ? QStringLiteral("+") : QStringLiteral("-")) + text;
}

/// Full precision for CSV cells: the exact double that was plotted.
[[nodiscard]] inline QString exact(double value)
{
    return QString::number(value, 'g', 17);
}

/// Decimals for milliseconds: enough to show small components.
[[nodiscard]] inline int msDecimals(double ms)
{
    return std::abs(ms) >= 100 ? 1 : (std::abs(ms) >= 1 ? 2 : 3);
}

[[nodiscard]] inline QString ms(double seconds)
{
    const double value = seconds * kMsPerSecond;
    return number(value, msDecimals(value)) + QStringLiteral(" ms");
}

[[nodiscard]] inline QString gib(double bytes)
{
    return number(bytes / kBytesPerGiB, 1) + QStringLiteral(" GiB");
}

[[nodiscard]] inline QString gbps(double bytesPerSecond)
{
    return number(bytesPerSecond / kBpsPerGBps, 1) + QStringLiteral(" GB/s");
}

[[nodiscard]] inline QString percent(double fraction, int decimals = 1)
{
    return number(fraction * kPercent, decimals) + QStringLiteral(" %");
}

/// Dollars with thousands separators ("$11,278", "$1.47M" from a million up, "$1.53" below $100).
[[nodiscard]] inline QString usd(double value)
{
    const QLocale english(QLocale::English, QLocale::UnitedStates);
    if (std::abs(value) >= 1e6)
        return QStringLiteral("$") + english.toString(value / 1e6, 'f', 2) + QStringLiteral("M");
    return QStringLiteral("$") + english.toString(value, 'f', std::abs(value) < 100 ? 2 : 0);
}

/// Bytes with a binary prefix ("1.25 GiB", "312.0 MiB").
[[nodiscard]] inline QString bytes(double value)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int unit = 0;
    while (std::abs(value) >= 1024.0 && unit < 5) {
        value /= 1024.0;
        ++unit;
    }
    return number(value, unit == 0 ? 0 : 2) + QLatin1Char(' ') + QLatin1String(units[unit]);
}

/// `text` broken into lines no wider than `width` pixels in `font` (QCPItemText does not wrap):
/// messages shown in place of a chart stay inside it however narrow it is.
[[nodiscard]] inline QString wrapped(const QString &text, const QFont &font, int width)
{
    const QFontMetrics metrics(font);
    QStringList lines;
    for (const QString &paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString &word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
                lines << line;
                line = word;
            } else {
                line = longer;
            }
        }
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

/// Colours: the current results are saturated, the baseline is the same hue, lighter.
[[nodiscard]] inline QColor baselineShade(const QColor &color)
{
    return color.lighter(145);
}

/// The fill of pin `pin` (1-based) in a chart that draws the runs side by side in one category:
/// pin 1 as the baseline (lighter), later pins hatched in the hue, so that pins tell apart.
[[nodiscard]] inline QBrush pinBrush(const QColor &color, int pin)
{
    static constexpr Qt::BrushStyle kHatches[]
        = { Qt::Dense4Pattern, Qt::BDiagPattern, Qt::CrossPattern, Qt::FDiagPattern };
    if (pin <= 1)
        return QBrush(pin == 1 ? baselineShade(color) : color);
    return QBrush(color, kHatches[(pin - 2) % std::size(kHatches)]);
}

/// Where run `index` of `count` sits in a category of side-by-side bars: its offset from the
/// category's centre and its width (in category units); one run fills 0.6, more share 0.84.
struct GroupSlot {
    double offset = 0, width = 0.6;
};
[[nodiscard]] inline GroupSlot groupSlot(int index, int count)
{
    if (count <= 1)
        return {};
    const double pitch = 0.84 / count;
    return { -0.42 + (index + 0.5) * pitch, pitch - 0.04 };
}

} // namespace gapstudio::views::chartformat

namespace gapstudio::views::chartformat {

/// A stable colour for a step-time or memory component, by its key (model/src/engine/analysis.cpp):
/// compute in blues and greens, communication in warm colours, idle time in grey. Exposed and
/// hidden communication of one parallelism share a colour ("tp_exposed", "tp_hidden" -> "tp").
/// Unknown keys cycle a palette by `fallbackIndex`.
[[nodiscard]] inline QColor componentColor(std::string key, int fallbackIndex)
{
    for (const char *suffix : {"_exposed", "_hidden"})
        if (const std::size_t at = key.rfind(suffix); at != std::string::npos && at + std::strlen(suffix) == key.size())
            key.erase(at);
    struct Entry {
        const char *key;
        QRgb rgb;
    };
    static const Entry entries[] = {
        // step time
        { "fw", 0x4E79A7 },
        { "bw", 0xA0CBE8 },
        { "optimizer", 0x59A14F },
        { "recompute", 0x8CD17D },
        { "bubble", 0xBAB0AC },
        { "tp", 0xF28E2B },
        { "pp", 0xE15759 },
        { "dp", 0xB07AA1 },
        { "ep", 0xFF9DA7 },
        { "es", 0x9C755F },
        { "recomm", 0xFFBE7D },
        { "offload", 0x79706E },
        { "moe_host_ops", 0xB6992D },
        { "cp", 0xD4A6C8 },
        { "embedding_head", 0x76B7B2 },
        // memory
        { "weights", 0x4E79A7 },
        { "weight_grads", 0xA0CBE8 },
        { "activations", 0xEDC948 },
        { "checkpoints", 0xF28E2B },
        { "activation_grads", 0xE15759 },
    };
    for (const Entry &entry : entries)
        if (key == entry.key)
            return QColor::fromRgb(entry.rgb);
    static const QRgb palette[] = {0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F,
                                   0xEDC948, 0xB07AA1, 0xFF9DA7, 0x9C755F, 0xBAB0AC};
    return QColor::fromRgb(palette[fallbackIndex % 10]);
}

} // namespace gapstudio::views::chartformat
