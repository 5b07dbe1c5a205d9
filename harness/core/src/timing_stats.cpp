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
    t.medianMs = n % 2 == 1 ? samplesMs[n / 2] : 0.5f * (samplesMs[n / 2 - 1] + samplesMs[n / 2]);
    t.minMs = samplesMs.front();
    t.maxMs = samplesMs.back();
    t.meanMs = std::accumulate(samplesMs.begin(), samplesMs.end(), 0.0f) / static_cast<float>(n);
    return t;
}

}  // namespace grading
