#pragma once
/**
 * @file analysis.h
 * What the charts show, derived from one evaluation in one place: the step-time breakdown, the
 * efficiency gap from peak to achieved MFU, the traffic of each network and memory tier, and
 * memory against capacity. Views and reports read these; they never recompute them.
 */

#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/evaluate.h"

#include <string>
#include <vector>

namespace gapstudio::model {

/// One named share of the step time (seconds per training step, on processor 0).
struct TimeComponent {
    std::string key;   ///< stable id, e.g. "bubble", "tp_exposed"
    std::string label; ///< display text, e.g. "Pipeline bubble"
    double seconds = 0;
};

/// The step time split into additive parts that sum to Stats::total_time, and the
/// communication hidden behind compute (link time minus exposed time) per parallelism.
struct StepBreakdown {
    /// fw, bw, optimizer, recompute, the MoE host wait, bubble, exposed TP/PP/DP/EP/ES, recomm,
    /// offload, CP, embedding and LM head
    std::vector<TimeComponent> exposed;
    std::vector<TimeComponent> hidden;  ///< overlapped TP, DP, recomm communication
    double total_s = 0;
};

/// The efficiency gap: from 100% of peak down to the achieved MFU (total_efficiency), one loss
/// per cause. Losses are fractions of the ideal-at-peak time and sum exactly to 1 - mfu.
struct EfficiencyGap {
    double mfu = 0;
    std::vector<TimeComponent> losses; ///< `seconds` holds the fraction of peak lost (0..1)
    /// After the MFU: the share of peak that failures, checkpoints and restarts take from it
    /// (GoodputResult::failuresLoss; 0 without a goodput). The MFU over the wall time is
    /// mfu - failures.
    double failures = 0;
};

/// Traffic of one network or memory tier over one training step.
struct TierUsage {
    std::string label; ///< "Network tier 0 (TP, EP)", "HBM", "Tier-2 memory (offload)": name and users
    std::string name;  ///< "Network tier 0", "HBM", "Tier-2 memory (offload)"
    std::vector<std::string>
        users;                 ///< the parallelisms communicating on a network tier ("TP", "EP"), in order
    double bytesPerStep = 0;   ///< bytes moved by this processor per step
    double busySeconds = 0;    ///< time the link is in use per step
    double peak_Bps = 0;       ///< the tier's peak bandwidth (per processor)
    double achieved_Bps = 0;   ///< bytesPerStep / busySeconds
    double busyFraction = 0;   ///< busySeconds / total_time
    double requiredToHide_Bps = 0; ///< bandwidth that would hide this tier's comm fully (0 if n/a)
};

/// Per-processor memory against capacity.
struct MemoryUse {
    std::vector<TimeComponent> tier1; ///< bytes in `seconds`: weights, gradients, optimizer, activations, checkpoints, activation grads
    double tier1Need_B = 0, tier1Capacity_B = 0;
    double tier2Need_B = 0, tier2Capacity_B = 0;
};

struct Analysis {
    StepBreakdown step;
    EfficiencyGap gap;
    std::vector<TierUsage> tiers;
    MemoryUse memory;
    double tokensPerSecond = 0;      ///< sample_rate * seq_size
};

/// Derives the charts' data from an evaluation of `exe` on `sys` (the evaluation must be
/// ok, or carry stats despite a capacity diagnostic).
[[nodiscard]] Analysis analyze(const Application &app, const Execution &exe, const System &sys,
                               const Evaluation &evaluation);

} // namespace gapstudio::model
