// msw on the host: seq_find_mismatch, the reference's block arithmetic
// against the gates' own, the shared array generator, the case lists, and
// each gate's exact message on planted discrepancies.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "harness/graph_generators.h"
#include "msw_arrays.h"
#include "msw_cases.h"
#include "msw_gates.h"
#include "msw_host.h"
#include "msw_math.h"

namespace {

using msw::grade::IndexCase;

// ---- seq_find_mismatch ---------------------------------------------------------

TEST(MswSeq, FindsTheFirstMismatchOrSize) {
    const uintmax_t a[] = {1, 2, 3, 4, 5};
    uintmax_t b[] = {1, 2, 3, 4, 5};
    EXPECT_EQ(seq_find_mismatch(a, b, 5), 5u);
    EXPECT_EQ(seq_find_mismatch(a, b, 0), 0u);
    EXPECT_EQ(seq_find_mismatch(nullptr, nullptr, 0), 0u);
    b[4] = 6;
    EXPECT_EQ(seq_find_mismatch(a, b, 5), 4u);
    EXPECT_EQ(seq_find_mismatch(a, b, 4), 4u);  // the mismatch is past size
    b[1] = 0;
    EXPECT_EQ(seq_find_mismatch(a, b, 5), 1u);  // several: the first
    b[0] = 1ull << 63 | 1;
    EXPECT_EQ(seq_find_mismatch(a, b, 5), 0u);  // a high bit counts
    EXPECT_EQ(seq_find_mismatch(a, b, 1), 0u);
}

// ---- square roots and block sizes ----------------------------------------------

TEST(MswArithmetic, FloorSqrtIsExactEverywhere) {
    for (uint64_t x = 0; x < 100000; ++x) {
        ASSERT_EQ(msw::floor_sqrt(x), msw::grade::floorSqrt(x)) << x;
        const uint64_t r = msw::floor_sqrt(x);
        ASSERT_LE(r * r, x);
        ASSERT_GT((r + 1) * (r + 1), x);
    }
    grading::SplitMix64 rng(7);
    for (int t = 0; t < 200000; ++t) {
        const uint64_t x = rng.next() >> (rng.next() % 64);
        ASSERT_EQ(msw::floor_sqrt(x), msw::grade::floorSqrt(x)) << x;
    }
    for (uint64_t k : {3037000499ull, 4294967295ull, 67108863ull, 67108864ull, 67108865ull, 94906265ull}) {
        const uint64_t sq = k * k;
        EXPECT_EQ(msw::floor_sqrt(sq), k);
        EXPECT_EQ(msw::floor_sqrt(sq - 1), k - 1);
        EXPECT_EQ(msw::grade::floorSqrt(sq - 1), k - 1);
    }
    EXPECT_EQ(msw::floor_sqrt(std::numeric_limits<uint64_t>::max()), 4294967295u);
    EXPECT_EQ(msw::grade::floorSqrt(std::numeric_limits<uint64_t>::max()), 4294967295u);
}

// Why the reference does not use the course's std::sqrt: past k = 2^26 the
// double square root of k^2 - 1 rounds up to k.
TEST(MswArithmetic, ADoubleSquareRootRoundsUpNearLargeSquares) {
    const uint64_t k = 94906265;
    EXPECT_EQ(static_cast<uint64_t>(std::sqrt(static_cast<double>(k * k - 1))), k);
    EXPECT_EQ(msw::floor_sqrt(k * k - 1), k - 1);
}

TEST(MswArithmetic, LargeBlockWordsIsNPlusFloorSqrtNMinusOnePlusTwo) {
    EXPECT_EQ(large_block_words(0), 0u);  // nothing for n = 0
    EXPECT_EQ(large_block_words(1), 3u);  // the word, the answer, one chunk mark
    EXPECT_EQ(large_block_words(2), 5u);
    EXPECT_EQ(large_block_words(4), 7u);  // floor(sqrt(3)) = 1
    EXPECT_EQ(large_block_words(5), 9u);  // floor(sqrt(4)) = 2
    EXPECT_EQ(large_block_words(16), 21u);
    EXPECT_EQ(large_block_words(17), 23u);
    for (uint64_t n = 1; n <= 200000; ++n) ASSERT_EQ(large_block_words(n), msw::grade::wantBlockWords(n)) << n;
    for (uint64_t n : msw::cases::blockSizes()) ASSERT_EQ(large_block_words(n), msw::grade::wantBlockWords(n)) << n;
    EXPECT_THROW(large_block_words(std::numeric_limits<size_t>::max()), std::length_error);
}

TEST(MswArithmetic, ChunkMarksCoverEveryWord) {
    EXPECT_EQ(sqrt_chunk_words(0), 0u);
    EXPECT_EQ(sqrt_chunk_words(1), 1u);
    for (uint64_t n : msw::cases::blockSizes()) {
        const uint64_t c = sqrt_chunk_words(n);
        ASSERT_EQ(c, msw::grade::chunkLength(n)) << n;
        ASSERT_EQ(c, msw::chunk_size(n)) << n;
        // (c - 1)^2 <= n - 1 < c^2: c chunks of c words hold n, c - 1 would not.
        ASSERT_LE((c - 1) * (c - 1), n - 1) << n;
        ASSERT_GE(c, (n - 1) / c + 1) << n;            // ceil(n / c) <= c chunks
        ASSERT_EQ(large_block_words(n), n + 1 + c) << n;  // flags, answer, marks
    }
}

// The planted chunk bug, floor(sqrt(n)), loses a tail exactly when n is not a
// perfect square: k chunks of k words are k^2 < n words.
TEST(MswArithmetic, FloorSqrtChunksMissATailExactlyOffSquares) {
    for (uint64_t n = 1; n <= 5000; ++n) {
        const uint64_t k = msw::floor_sqrt(n);
        ASSERT_EQ(k * k < n, msw::grade::floorSqrt(n - 1) + 1 != k) << n;
    }
}

// ---- the shared generator --------------------------------------------------------

TEST(MswArrays, WordsAreTheSplitMix64Sequence) {
    for (uint64_t seed : {0ull, 1ull, 0x123456789abcdefull}) {
        grading::SplitMix64 rng(seed);
        for (uint64_t i = 0; i < 1000; ++i) ASSERT_EQ(msw::arrays::word(seed, i), rng.next()) << i;
    }
    std::vector<uint64_t> a(100), b(100);
    msw::arrays::fill(a.data(), a.size(), 42);
    msw::arrays::fill(b.data(), b.size(), 42);
    EXPECT_EQ(a, b);
    msw::arrays::fill(b.data(), b.size(), 43);
    EXPECT_NE(a, b);
}

TEST(MswArrays, APlantedWordDiffersInExactlyOneBitInBothHalves) {
    std::set<unsigned> bits;
    for (uint64_t i = 0; i < 4096; ++i) {
        const uint64_t diff = msw::arrays::word(9, i) ^ msw::arrays::plantedWord(9, i);
        ASSERT_NE(diff, 0u);
        ASSERT_EQ(diff & (diff - 1), 0u) << i;
        bits.insert(msw::arrays::plantedBit(9, i));
    }
    EXPECT_EQ(bits.size(), 64u);  // every bit is used, the high half included
}

// ---- the case lists ------------------------------------------------------------------

TEST(MswCases, SizesCoverTheSpec) {
    const std::vector<uint64_t> sizes = msw::cases::indexSizes();
    for (uint64_t n : {1ull, 2ull, 3ull, 4ull, 15ull, 16ull, 17ull, 1023ull, 1024ull, 1025ull, 16777216ull}) {
        EXPECT_THAT(sizes, ::testing::Contains(n));
    }
    EXPECT_GE(sizes.back(), uint64_t{1} << 24);
}

TEST(MswCases, EveryCaseIsValidAndTheListIsComplete) {
    for (uint64_t n : msw::cases::indexSizes()) {
        const std::vector<IndexCase> cases = msw::cases::indexCases(n, 11);
        std::set<std::vector<uint64_t>> seen;
        std::set<uint64_t> singles;
        size_t several = 0;
        for (const IndexCase& c : cases) {
            ASSERT_TRUE(std::is_sorted(c.planted.begin(), c.planted.end())) << n << " " << c.kind;
            ASSERT_EQ(std::adjacent_find(c.planted.begin(), c.planted.end()), c.planted.end()) << n << " " << c.kind;
            for (uint64_t i : c.planted) ASSERT_LT(i, n) << c.kind;
            ASSERT_TRUE(seen.insert(c.planted).second) << "duplicate case " << c.kind;
            if (c.planted.size() == 1) singles.insert(c.planted[0]);
            if (c.planted.size() > 1) ++several;
        }
        EXPECT_TRUE(seen.count({})) << n;
        EXPECT_TRUE(singles.count(0)) << n;
        EXPECT_TRUE(singles.count(n - 1)) << n;
        if (n >= 2) EXPECT_GE(several, n >= 16 ? 4u : 1u) << n;
        const uint64_t chunk = msw::grade::chunkLength(n);
        const uint64_t chunks = (n + chunk - 1) / chunk;
        size_t boundariesAsked = 0;
        for (uint64_t k = 1; k < chunks; ++k) {
            const uint64_t b = k * chunk;
            const bool asked = singles.count(b) && singles.count(b - 1) && (b + 1 >= n || singles.count(b + 1));
            if (chunks <= msw::cases::kAllBoundariesUpTo) ASSERT_TRUE(asked) << "n " << n << " boundary " << b;
            boundariesAsked += asked;
        }
        EXPECT_GE(boundariesAsked, std::min<uint64_t>(chunks - 1, msw::cases::sampledBoundaries(n))) << n;
    }
}

// Each case is a full search of n words (a copy of b at 2^24 words is
// 128 MiB): the suite's time budget rests on these counts.
TEST(MswCases, LargeSizesStayWithinTheCaseBudget) {
    for (uint64_t n : msw::cases::indexSizes()) {
        const size_t count = msw::cases::indexCases(n, 11).size();
        const uint64_t chunks = (n + msw::grade::chunkLength(n) - 1) / msw::grade::chunkLength(n);
        if (chunks > msw::cases::kAllBoundariesUpTo) {
            EXPECT_LE(count, 3 * msw::cases::sampledBoundaries(n) + 20) << n;
        }
        EXPECT_LE(count, 3 * msw::cases::kAllBoundariesUpTo + 20) << n;
        if (n >= (uint64_t{1} << 24)) EXPECT_LE(count, 120u) << n;
    }
}

TEST(MswCases, WantsAboveTheFullScanSizeAreTheFirstPlantedIndex) {
    const uint64_t n = msw::cases::kFullScanUpTo + 3;
    const std::vector<IndexCase> cases = msw::cases::indexCases(n, 21);
    const std::vector<uint64_t> want = msw::cases::wants(n, 21, cases);
    ASSERT_EQ(want.size(), cases.size());
    for (size_t k = 0; k < cases.size(); ++k) {
        EXPECT_EQ(want[k], cases[k].planted.empty() ? n : cases[k].planted[0]) << cases[k].kind;
    }
}

TEST(MswCases, CasesAndWantsAreDeterministic) {
    const auto a = msw::cases::indexCases(1000, 5);
    const auto b = msw::cases::indexCases(1000, 5);
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) EXPECT_EQ(a[k].planted, b[k].planted);
    const std::vector<uint64_t> want = msw::cases::wants(1000, 5, a);
    for (size_t k = 0; k < a.size(); ++k) EXPECT_EQ(want[k], a[k].planted.empty() ? 1000u : a[k].planted[0]);
}

TEST(MswCases, WrapperFlagsAskEveryCaseOfSmallNAndTheKeyOnesOfLarge) {
    const auto small = msw::cases::indexCases(1025, 3);
    EXPECT_THAT(msw::cases::wrapperFlags(1025, small), ::testing::Each(1));
    const auto mid = msw::cases::indexCases(4097, 3);
    const auto midFlags = msw::cases::wrapperFlags(4097, mid);
    EXPECT_LT(std::count(midFlags.begin(), midFlags.end(), 1), static_cast<long>(mid.size()) / 4);
    const uint64_t big = (uint64_t{1} << 24) + 1;
    const auto cases = msw::cases::indexCases(big, 3);
    const auto flags = msw::cases::wrapperFlags(big, cases);
    ASSERT_EQ(flags.size(), cases.size());
    for (size_t k = 0; k < cases.size(); ++k) {
        if (cases[k].kind == "last word" || cases[k].planted.size() > 1) EXPECT_EQ(flags[k], 1) << cases[k].kind;
    }
    EXPECT_LT(std::count(flags.begin(), flags.end(), 1), static_cast<long>(cases.size()));
}

// ---- gate messages ------------------------------------------------------------------

TEST(MswGates, IndexNamesNPlantedIndexGotAndWant) {
    const IndexCase last{"last word", {9}};
    EXPECT_TRUE(msw::grade::checkIndex("f", 10, last, 9, 9).passed);
    const grading::GateResult r = msw::grade::checkIndex("par_find_mismatch(a, b, n)", 10, last, 10, 9);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "msw.index");
    EXPECT_EQ(r.message, "par_find_mismatch(a, b, n): n = 10, planted index 9 (last word): got 10, want 9");
    EXPECT_EQ(msw::grade::checkIndex("f", 5, {"identical arrays", {}}, 2, 5).message,
              "f: n = 5, no planted index (identical arrays): got 2, want 5");
    EXPECT_EQ(msw::grade::checkIndex("f", 100, {"several", {10, 50}}, 50, 10).message,
              "f: n = 100, planted indices 10, 50 (several): got 50, want 10");
    EXPECT_EQ(msw::grade::checkIndex("f", 100, {"", {3}}, -7, 3).message, "f: n = 100, planted index 3: got -7, want 3");
    IndexCase many{"several, one per chunk", {}};
    for (uint64_t i = 0; i < 10; ++i) many.planted.push_back(i * 10 + 1);
    EXPECT_EQ(msw::grade::checkIndex("f", 100, many, 91, 1).message,
              "f: n = 100, planted indices 1, 11, 21, 31, 41, 51, 61, 71, ... (10 in all, several, one per chunk): "
              "got 91, want 1");
}

TEST(MswGates, IndexBatchNamesTheFirstFailingCaseAndSkipsCasesNotAsked) {
    const std::vector<IndexCase> cases = {{"identical arrays", {}}, {"first word", {0}}, {"last word", {7}}};
    const std::vector<uint64_t> want = {8, 0, 7};
    EXPECT_TRUE(msw::grade::checkIndexBatch("f", 8, cases, {8, 0, 7}, want).passed);
    EXPECT_TRUE(msw::grade::checkIndexBatch("f", 8, cases, {8, -1, -1}, want).passed);
    EXPECT_EQ(msw::grade::checkIndexBatch("f", 8, cases, {8, 3, 8}, want).message,
              "f: n = 8, planted index 0 (first word): got 3, want 0");
    EXPECT_EQ(msw::grade::checkIndexBatch("f", 8, cases, {8, 0}, want).message, "f: n = 8: got 2 answers for 3 cases");
}

TEST(MswGates, EmptyNamesWhatCameBack) {
    EXPECT_TRUE(msw::grade::checkEmpty({{"par_find_mismatch(a, b, n)", 0}, {"g", 0}}, 0).passed);
    EXPECT_TRUE(msw::grade::checkEmpty({{"fast_find_mismatch(d_a, d_b, n)", 0}}, -1).passed);
    const grading::GateResult r = msw::grade::checkEmpty({{"par_find_mismatch(a, b, n)", 0}, {"g", 18446744}}, 0);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "msw.empty");
    EXPECT_EQ(r.message, "g: n = 0: got 18446744, want 0");
    EXPECT_EQ(msw::grade::checkEmpty({{"f", 0}}, 4294967297).message,
              "large_block_words(0): got 4294967297 words (34359738376 bytes), want at most 1024: "
              "n - 1 wrapped around before the square root");
    EXPECT_TRUE(msw::grade::checkEmpty({{"f", 0}}, msw::grade::kEmptyBlockLimitWords).passed);
}

TEST(MswGates, BlockNamesNGotAndWant) {
    EXPECT_TRUE(msw::grade::checkBlock({1, 16, 17}, {3, 21, 23}).passed);
    const grading::GateResult r = msw::grade::checkBlock({1, 16, 17}, {3, 22, 23});
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "msw.block");
    EXPECT_EQ(r.message, "n = 16: got 22 words, want 21 (n + floor(sqrt(n - 1)) + 2)");
    EXPECT_EQ(msw::grade::checkBlock({1, 2}, {3}).message, "got 1 block sizes for 2 values of n");
    EXPECT_EQ(msw::grade::wantBlockWords(uint64_t{1} << 62), (uint64_t{1} << 62) + (uint64_t{1} << 31) + 1);
}

}  // namespace
