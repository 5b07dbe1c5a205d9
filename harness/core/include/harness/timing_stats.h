#pragma once
// A set of timed runs summarized: the median is the headline, min and max
// show the spread.
#include <vector>

namespace grading {

struct TimingStats {
    std::vector<float> samplesMs;
    float medianMs = 0.0f;
    float minMs = 0.0f;
    float maxMs = 0.0f;
    float meanMs = 0.0f;
};

TimingStats summarize(std::vector<float> samplesMs);

}  // namespace grading
