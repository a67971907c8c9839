#pragma once
// What each kind of data needs in tier-1 (HBM) and tier-2 (offload) memory per processor
// (calculon-model.md §7). One place for the formula: the capacity check and the memory chart's
// analysis both read it.

#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/stats.h"

namespace gapstudio::model::detail {

/// Bytes per processor by kind; each kind is in tier 1 or, where offloaded, split between a
/// tier-1 staging minimum and the tier-2 copy.
struct CapacityNeeds {
    struct Kind {
        double tier1 = 0;
        double tier2 = 0;
    };
    Kind weights, activations, checkpoints, weightGrads, optimizer, activationGrads;
    [[nodiscard]] double tier1() const noexcept
    {
        return weights.tier1 + activations.tier1 + checkpoints.tier1 + weightGrads.tier1 + optimizer.tier1 +
               activationGrads.tier1;
    }
    [[nodiscard]] double tier2() const noexcept
    {
        return weights.tier2 + activations.tier2 + checkpoints.tier2 + weightGrads.tier2 + optimizer.tier2;
    }
};

[[nodiscard]] CapacityNeeds capacityNeeds(const Execution &exe, double blocksPerProc, const Stats &stats) noexcept;

} // namespace gapstudio::model::detail
