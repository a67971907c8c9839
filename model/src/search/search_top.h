#pragma once
// The best N hits of a layout search (search.cpp), kept in a heap per thread: O(log N) per hit
// whatever N, and the same result whatever the threads. Internal to the model.

#include "gapstudio/model/search.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace gapstudio::model::detail {

/// A hit while the search runs: `hit.index` counts within its task until the merge, which knows
/// every task's size and makes it the position in the whole enumeration.
struct Candidate {
    SearchHit hit;
    std::size_t task = 0;
};

/// Whether `a` ranks before `b`: the higher score, and on a tie the one enumerated first (the
/// reference's stable sort). A total order, so the result does not depend on the threads.
inline bool ranksBefore(const Candidate &a, const Candidate &b) noexcept
{
    if (a.hit.score != b.hit.score)
        return a.hit.score > b.hit.score;
    return a.task != b.task ? a.task < b.task : a.hit.index < b.hit.index;
}

/// The best `n` candidates, kept as a heap with the worst on top: O(log n) per hit whatever n
/// (a sorted vector made --top 100000 quadratic), one per thread rather than one per task.
class TopHits {
public:
    explicit TopHits(std::size_t n)
        : mN(n)
    {
    }

    /// Whether a hit of `score`, enumerated after every candidate kept so far, would be kept.
    [[nodiscard]] bool wants(double score) const noexcept
    {
        return mN > 0 && (mHeap.size() < mN || score > mHeap.front().hit.score);
    }
    /// Whether a hit of `score` might be kept, enumerated before or after the kept candidates
    /// (a bounded search runs tasks out of order; offer() then decides by the whole order).
    [[nodiscard]] bool mayKeep(double score) const noexcept
    {
        return mN > 0 && (mHeap.size() < mN || score >= mHeap.front().hit.score);
    }
    /// The N-th best score kept, once N are kept: no hit scoring below it can enter the top.
    [[nodiscard]] std::optional<double> floor() const noexcept
    {
        if (mN == 0 || mHeap.size() < mN)
            return std::nullopt;
        return mHeap.front().hit.score;
    }
    void offer(Candidate &&candidate)
    {
        if (mN == 0 || (mHeap.size() == mN && !ranksBefore(candidate, mHeap.front())))
            return;
        if (mHeap.size() == mN) {
            std::pop_heap(mHeap.begin(), mHeap.end(), ranksBefore);
            mHeap.pop_back();
        }
        mHeap.push_back(std::move(candidate));
        std::push_heap(mHeap.begin(), mHeap.end(), ranksBefore);
    }
    /// The candidates, best first (the heap is left empty).
    [[nodiscard]] std::vector<Candidate> take()
    {
        std::sort_heap(mHeap.begin(), mHeap.end(), ranksBefore);
        return std::move(mHeap);
    }

private:
    std::size_t mN;
    std::vector<Candidate> mHeap;
};

} // namespace gapstudio::model::detail
