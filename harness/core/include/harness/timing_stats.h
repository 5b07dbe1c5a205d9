#pragma once
// A set of timed runs summarized: the median is the headline and the
// interquartile range (q3 - q1) its spread, which one outlier cannot move
// the way it moves max - min.
#include <vector>

namespace grading {

struct TimingStats {
    std::vector<float> samplesMs;
    float medianMs = 0.0f;
    float q1Ms = 0.0f;  // quartiles, linearly interpolated between samples
    float q3Ms = 0.0f;
    float minMs = 0.0f;
    float maxMs = 0.0f;
    float meanMs = 0.0f;

    float iqrMs() const { return q3Ms - q1Ms; }
    // The IQR as a fraction of the median: how sure the median is.
    float relativeSpread() const { return medianMs > 0.0f ? iqrMs() / medianMs : 0.0f; }
};

TimingStats summarize(std::vector<float> samplesMs);

}  // namespace grading
