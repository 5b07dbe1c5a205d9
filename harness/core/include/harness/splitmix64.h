#pragma once
// splitmix64, the generator behind every seeded input: ours rather than the
// standard library's implementation-defined distributions, so one seed gives
// the same input on every machine, and the runner (device code included)
// can regenerate what the grader made from a key.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#if defined(__CUDACC__)
#define GRADING_HOST_DEVICE __host__ __device__
#else
#define GRADING_HOST_DEVICE
#endif

namespace grading {

constexpr uint64_t kSplitMix64Step = 0x9e3779b97f4a7c15ull;

// The finaliser: a good 64-bit mix of one word.
GRADING_HOST_DEVICE constexpr uint64_t splitMix64Finalize(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Output `index` (0-based) of SplitMix64(key), reached without stepping:
// one value of a keyed array, on the host or the device, in any order.
GRADING_HOST_DEVICE constexpr uint64_t splitMix64At(uint64_t key, uint64_t index) {
    return splitMix64Finalize(key + (index + 1) * kSplitMix64Step);
}

class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed) : state_(seed) {}
    uint64_t next() { return splitMix64Finalize(state_ += kSplitMix64Step); }
    uint64_t below(uint64_t bound) { return next() % bound; }            // bias is negligible for our bounds
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
    uint64_t bit() { return uint64_t{1} << below(64); }                    // one set bit of 64

private:
    uint64_t state_;
};

// Fisher-Yates with our generator.
template <class T>
void shuffle(std::vector<T>& v, SplitMix64& rng) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

}  // namespace grading
