// The shared generator of every seeded input: its outputs are fixed, so a
// seed printed by one grading replays the same inputs on any machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "harness/splitmix64.h"

namespace grading {
namespace {

TEST(SplitMix64, TheFirstOutputsFromZeroAreTheReferenceOnes) {
    SplitMix64 rng(0);
    EXPECT_EQ(rng.next(), 0xe220a8397b1dcdafull);
    EXPECT_EQ(rng.next(), 0x6e789e6aa1b965f4ull);
    EXPECT_EQ(rng.next(), 0x06c45d188009454full);
}

TEST(SplitMix64, AtIsTheOutputOfThatIndexWithoutStepping) {
    SplitMix64 rng(42);
    for (uint64_t i = 0; i < 100; ++i) EXPECT_EQ(splitMix64At(42, i), rng.next());
}

TEST(SplitMix64, NextIsTheFinaliserOfTheSteppedState) {
    SplitMix64 rng(42);
    for (uint64_t i = 1; i <= 100; ++i) EXPECT_EQ(rng.next(), splitMix64Finalize(42 + i * kSplitMix64Step));
}

TEST(SplitMix64, BoundedDrawsStayInRange) {
    SplitMix64 rng(7);
    for (int i = 0; i < 1000; ++i) {
        EXPECT_LT(rng.below(10), 10u);
        const double u = rng.unit();
        EXPECT_TRUE(u >= 0.0 && u < 1.0) << u;
        const uint64_t b = rng.bit();
        EXPECT_TRUE(b != 0 && (b & (b - 1)) == 0) << b;
    }
}

TEST(SplitMix64, ShuffleIsASeededPermutation) {
    std::vector<int> v(100);
    std::iota(v.begin(), v.end(), 0);
    std::vector<int> a = v, b = v;
    SplitMix64 ra(5), rb(5);
    shuffle(a, ra);
    shuffle(b, rb);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, v);
    std::sort(a.begin(), a.end());
    EXPECT_EQ(a, v);
}

}  // namespace
}  // namespace grading
