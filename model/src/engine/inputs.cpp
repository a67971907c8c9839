#include "gapstudio/model/calculon_inputs.h"

#include "engine/efficiency.h"

#include <array>
#include <string_view>

namespace gapstudio::model {

namespace {
// Reference `System.TypeSizes`: float8 1 byte, float16/bfloat16 2, float32 4; calculon-MoE adds
// float4 at half a byte.
constexpr std::array<double, kDatatypeCount> kBytes = {1.0, 2.0, 2.0, 4.0, 0.5};
constexpr std::array<const char *, kDatatypeCount> kNames = {"float8", "float16", "bfloat16", "float32",
                                                             "float4"};
} // namespace

double bytesPerElement(Datatype type) noexcept
{
    return kBytes[static_cast<std::size_t>(type)];
}

const char *datatypeName(Datatype type) noexcept
{
    return kNames[static_cast<std::size_t>(type)];
}

std::optional<Datatype> datatypeFromName(const std::string &name) noexcept
{
    for (std::size_t i = 0; i < kDatatypeCount; ++i) {
        if (name == kNames[i])
            return static_cast<Datatype>(i);
    }
    return std::nullopt;
}

double EfficiencyTable::lookup(double size) const noexcept
{
    return detail::efficiencyAt(*this, size);
}

} // namespace gapstudio::model
