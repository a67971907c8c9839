#pragma once
/**
 * @file cpumeter.h
 * The CPU time the calling thread spends in marked sections, summed: what a view costs per change
 * for the latency bench (latencybench.h), independent of the other threads and of waiting.
 */

#include <ctime>

namespace gapstudio::views {

class CpuMeter {
public:
    /// Adds the thread's CPU time from its construction to its destruction to the meter.
    class Scope {
    public:
        explicit Scope(CpuMeter &meter)
            : mMeter(meter)
            , mStart_ms(threadCpu_ms())
        {
        }
        ~Scope() { mMeter.mTotal_ms += threadCpu_ms() - mStart_ms; }
        Scope(const Scope &) = delete;
        Scope &operator=(const Scope &) = delete;

    private:
        CpuMeter &mMeter;
        double mStart_ms;
    };

    [[nodiscard]] double total_ms() const { return mTotal_ms; }

    /// CPU time of the calling thread so far (POSIX CLOCK_THREAD_CPUTIME_ID), in milliseconds.
    [[nodiscard]] static double threadCpu_ms()
    {
        timespec now {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
        return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
    }

private:
    double mTotal_ms = 0;
};

} // namespace gapstudio::views
