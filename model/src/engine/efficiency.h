#pragma once
// The efficiency step function of the reference's tables (EfficiencyTable), inline for the
// hot path of an evaluation (about two hundred lookups per layout). Internal to the model.

#include "gapstudio/model/calculon_inputs.h"

namespace gapstudio::model::detail {

/// EfficiencyTable::lookup(): the efficiency of the first row whose threshold <= size (rows by
/// decreasing threshold), the last row's below every threshold, 1 for an empty table.
[[nodiscard]] inline double efficiencyAt(const EfficiencyTable &table, double size) noexcept
{
    for (const auto &[threshold, efficiency] : table.rows) {
        if (size >= threshold)
            return efficiency;
    }
    return table.rows.empty() ? 1.0 : table.rows.back().second;
}

} // namespace gapstudio::model::detail
