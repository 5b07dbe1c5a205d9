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

#if defined(__CUDACC__)
#define MSW_ARRAYS_HD __host__ __device__
#else
#define MSW_ARRAYS_HD
#endif

namespace msw::arrays {

MSW_ARRAYS_HD inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Word i of a.
MSW_ARRAYS_HD inline uint64_t word(uint64_t key, uint64_t i) { return mix(key + (i + 1) * 0x9e3779b97f4a7c15ull); }

inline void fill(uint64_t* out, size_t n, uint64_t key) {
    for (size_t i = 0; i < n; ++i) out[i] = word(key, i);
}

}  // namespace msw::arrays
