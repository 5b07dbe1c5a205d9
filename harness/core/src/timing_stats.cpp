#include "harness/timing_stats.h"

#include <algorithm>
#include <numeric>

namespace grading {

TimingStats summarize(std::vector<float> samplesMs) {
    TimingStats t;
    t.samplesMs = samplesMs;
    if (samplesMs.empty()) return t;
    std::sort(samplesMs.begin(), samplesMs.end());
    const size_t n = samplesMs.size();
    // The p-quantile between the samples around rank p * (n - 1).
    const auto quantile = [&](double p) {
        const double rank = p * static_cast<double>(n - 1);
        const size_t below = static_cast<size_t>(rank);
        const size_t above = std::min(below + 1, n - 1);
        const double frac = rank - static_cast<double>(below);
        return static_cast<float>(samplesMs[below] + frac * (samplesMs[above] - samplesMs[below]));
    };
    t.medianMs = n % 2 == 1 ? samplesMs[n / 2] : 0.5f * (samplesMs[n / 2 - 1] + samplesMs[n / 2]);
    t.q1Ms = quantile(0.25);
    t.q3Ms = quantile(0.75);
    t.minMs = samplesMs.front();
    t.maxMs = samplesMs.back();
    t.meanMs = std::accumulate(samplesMs.begin(), samplesMs.end(), 0.0f) / static_cast<float>(n);
    return t;
}

}  // namespace grading
