#pragma once
// The msw test arrays, generated identically by the grading process and the
// runner from (seed, index), so only (n, seed, planted indices) cross the
// process boundary, never gigabytes. Word i of the first array is the
// (i + 1)-th output of splitmix64 seeded with `seed` (grading::SplitMix64
// gives the same sequence); a planted mismatch flips one bit of it, the bit
// chosen from (seed, i), so it can sit in the high or the low half.
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

// Word i of the first array (and of the second, unless planted).
MSW_ARRAYS_HD inline uint64_t word(uint64_t seed, uint64_t i) { return mix(seed + (i + 1) * 0x9e3779b97f4a7c15ull); }

// Which bit a mismatch planted at i flips.
MSW_ARRAYS_HD inline unsigned plantedBit(uint64_t seed, uint64_t i) {
    return static_cast<unsigned>(mix(seed ^ 0xd1b54a32d192ed03ull ^ (i * 0xa0761d6478bd642full)) & 63);
}

// Word i of the second array when a mismatch is planted there.
MSW_ARRAYS_HD inline uint64_t plantedWord(uint64_t seed, uint64_t i) {
    return word(seed, i) ^ (uint64_t{1} << plantedBit(seed, i));
}

inline void fill(uint64_t* out, size_t n, uint64_t seed) {
    for (size_t i = 0; i < n; ++i) out[i] = word(seed, i);
}

}  // namespace msw::arrays
