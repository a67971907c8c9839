#pragma once
/**
 * @file trainingtime.h
 * Time and GPU-hours to train a token budget at a design's steady-state throughput.
 * Arithmetic on the model's outputs, in one place for the report and anything else: the number of steps is the budget over the tokens of one global batch, each step takes the
 * model's step time (Stats::total_time), and all GPUs are busy for the whole run.
 */

#include <cmath>
#include <cstdint>

namespace gapstudio::model {

/// The default token budget of reports: 1e12 tokens (one trillion).
inline constexpr double kDefaultTokenBudget = 1e12;

struct TrainingTime {
    double tokens = 0;   ///< the budget
    double steps = 0;    ///< training steps (global batches), fractional
    double seconds = 0;  ///< wall-clock time
    double gpuHours = 0; ///< seconds / 3600 * GPUs
};

/**
 * @param tokens        token budget (> 0)
 * @param stepTime_s    time of one training step (Stats::total_time), seconds (> 0)
 * @param batchSamples  global batch in samples (Execution::batchSize)
 * @param seqSize       tokens per sample (Application::seqSize)
 * @param gpus          GPUs used (Execution::numProcs)
 * Returns zeros if any input is not positive.
 */
[[nodiscard]] inline TrainingTime trainingTime(double tokens, double stepTime_s, std::int64_t batchSamples,
                                               std::int64_t seqSize, std::int64_t gpus) noexcept
{
    TrainingTime t;
    if (!(tokens > 0) || !(stepTime_s > 0) || batchSamples <= 0 || seqSize <= 0 || gpus <= 0)
        return t;
    t.tokens = tokens;
    t.steps = tokens / (static_cast<double>(batchSamples) * static_cast<double>(seqSize));
    t.seconds = t.steps * stepTime_s;
    t.gpuHours = t.seconds / 3600.0 * static_cast<double>(gpus);
    return t;
}

} // namespace gapstudio::model
