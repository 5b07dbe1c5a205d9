#pragma once
// The msw arrays, generated identically by the grader and the runner from a
// 64-bit key, so a search of 2^24 words sends a key and a few edits instead
// of 256 MiB. Word i of the first array a is the (i + 1)-th output of
// splitmix64 started at `key` (grading::SplitMix64 gives the same sequence).
// The second array b is a with some words rewritten (protocol.h: edits).
//
// The key is derived by the grader from the grading seed with SHA-256
// (cases.cpp), so the runner never sees the seed and nothing in this tree
// fixes the arrays.
#include <cstddef>
#include <cstdint>

#include "harness/splitmix64.h"

namespace msw::arrays {

// A hand-made a that no generator here draws: every word zero, so b differs
// from a exactly in the bits an edit sets. No derived key is ever this one.
constexpr uint64_t kZeroWordsKey = ~uint64_t{0};

// Word i of a.
GRADING_HOST_DEVICE inline uint64_t word(uint64_t key, uint64_t i) {
    if (key == kZeroWordsKey) return 0;
    return grading::splitMix64At(key, i);
}

inline void fill(uint64_t* out, size_t n, uint64_t key) {
    for (size_t i = 0; i < n; ++i) out[i] = word(key, i);
}

}  // namespace msw::arrays
