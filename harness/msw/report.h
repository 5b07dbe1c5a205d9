#pragma once
// The msw report: each search's time on 2^24 words with the mismatch
// nowhere, in the middle and near the start. bench/ has the full comparison
// (2^27 words, thrust::mismatch, the copy ceiling).
#include <cstdint>
#include <string>
#include <vector>

namespace msw {

struct SearchTime {
    std::string impl;       // two_phase | fast
    std::string placement;  // none | middle | near start
    uint64_t wordsRead = 0;  // both arrays up to and including the mismatch
    double medianMs = 0.0;
    double iqrMs = 0.0;     // interquartile range of the timed runs
    std::string failure;    // non-empty: no time, this says why
};

// GB/s of `wordsRead` 8-byte words in `ms`; 0 for no time.
inline double readGBs(uint64_t wordsRead, double ms) {
    return ms > 0.0 ? 8.0 * static_cast<double>(wordsRead) / (ms * 1e6) : 0.0;
}

// One row per (impl, placement): median ms, IQR and GB/s of the words a
// search must read.
std::string searchTimeTable(uint64_t n, int runs, const std::vector<SearchTime>& rows);

}  // namespace msw
