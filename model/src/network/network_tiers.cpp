#include "gapstudio/model/network_tiers.h"

#include "engine/checks.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace gapstudio::model {
namespace {

/// A parallelism: its degree and the field naming its tier.
struct Parallelism {
    std::int64_t Execution::*degree;
    std::int64_t Execution::*tier;
};

/// Innermost first among equal tiers (network_tiers.h).
constexpr std::array<Parallelism, 7> kByTraffic = { {
    { &Execution::tensorPar, &Execution::tensorParNet },
    { &Execution::contextPar, &Execution::contextParNet },
    { &Execution::expertSlice, &Execution::expertSliceNet },
    { &Execution::expertPar, &Execution::expertParNet },
    { &Execution::dataParExp, &Execution::dataParExpNet },
    { &Execution::dataPar, &Execution::dataParNet },
    { &Execution::pipelinePar, &Execution::pipelineParNet },
} };

/// Whether the parallelism's degree and tier are read by the checks for this execution.
bool active(const Parallelism &p, const Execution &exe, const Features &features)
{
    if (p.degree == &Execution::contextPar)
        return features.attention && exe.contextPar > 1;
    const bool expertSide = p.degree == &Execution::expertSlice || p.degree == &Execution::expertPar
                            || p.degree == &Execution::dataParExp;
    return (!expertSide || exe.modelMoE) && exe.*p.degree > 1;
}

} // namespace

std::optional<Execution> fitNetworkTiers(const Execution &exe, const System &sys, const Features &features)
{
    const auto tiers = static_cast<std::int64_t>(sys.networks.size());
    if (tiers == 0)
        return std::nullopt;
    Execution fitted = exe;
    std::vector<Parallelism> order;
    for (const Parallelism &p : kByTraffic) {
        if (active(p, exe, features))
            order.push_back(p);
        else if (p.tier != &Execution::contextParNet || fitted.contextParNet >= 0) // -1: automatic
            fitted.*p.tier = std::clamp<std::int64_t>(fitted.*p.tier, 0, tiers - 1);
    }
    if (networksFit(exe, sys, features))
        return exe;
    std::stable_sort(order.begin(), order.end(), [&exe](const Parallelism &a, const Parallelism &b) {
        return exe.*a.tier < exe.*b.tier;
    });
    // Every mapping, in lexicographic order of the tiers of `order` (the first most significant):
    // the first that fits is the smallest. A first pass keeps the order of locality (each
    // parallelism on the tier of the one before it or further out); only if no such mapping
    // fits may a later one move inside an earlier one. At most 3^7 = 2,187 mappings a pass for
    // the shipped topologies.
    for (const bool keepOrder : { true, false }) {
        std::vector<std::int64_t> tier(order.size(), 0);
        while (true) {
            if (!keepOrder || std::is_sorted(tier.begin(), tier.end())) {
                for (std::size_t i = 0; i < order.size(); ++i)
                    fitted.*order[i].tier = tier[i];
                if (networksFit(fitted, sys, features))
                    return fitted;
            }
            std::size_t digit = order.size();
            while (digit > 0 && ++tier[digit - 1] == tiers)
                tier[--digit] = 0;
            if (digit == 0)
                break;
        }
    }
    return std::nullopt;
}

} // namespace gapstudio::model
