// msw's arithmetic on the host: seq_find_mismatch, the course's square roots
// and block sizes against the gates' own, the array generator, and the key
// derivation that keeps the seed away from the runner.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "arrays.h"
#include "cases.h"
#include "gates.h"
#include "msw_host.h"
#include "msw_math.h"

namespace {

// ---- seq_find_mismatch ------------------------------------------------------

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
    const uintmax_t top[] = {1ull << 63};
    const uintmax_t zero[] = {0};
    EXPECT_EQ(seq_find_mismatch(top, zero, 1), 0u);  // only bit 63 differs
}

// ---- square roots and block sizes ---------------------------------------------

TEST(MswArithmetic, FloorSqrtIsExactEverywhere) {
    for (uint64_t x = 0; x < 100000; ++x) {
        ASSERT_EQ(msw::floor_sqrt(x), msw::grade::floorSqrt(x)) << x;
        const uint64_t r = msw::floor_sqrt(x);
        ASSERT_LE(r * r, x);
        ASSERT_GT((r + 1) * (r + 1), x);
    }
    uint64_t state = 7;
    for (int t = 0; t < 200000; ++t) {
        state = grading::splitMix64Finalize(state + grading::kSplitMix64Step);
        const uint64_t x = state >> (state % 64);
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

// Why the course computes the chunk in integers: past k = 2^26 the double
// square root of k^2 - 1 rounds up to k (far beyond any graded n), and a
// float one does from n = 4097^2 on (a graded size), while below 2^24 words
// it is never wrong.
TEST(MswArithmetic, FloatingPointSquareRootsRoundUpNearLargeSquares) {
    const uint64_t k = 94906265;
    EXPECT_EQ(static_cast<uint64_t>(std::sqrt(static_cast<double>(k * k - 1))), k);
    EXPECT_EQ(msw::floor_sqrt(k * k - 1), k - 1);

    const auto floatChunk = [](uint64_t n) { return static_cast<uint64_t>(std::sqrt(static_cast<float>(n - 1))) + 1; };
    for (uint64_t n = 1; n <= (uint64_t{1} << 20); ++n) ASSERT_EQ(floatChunk(n), msw::grade::chunkLength(n)) << n;
    for (uint64_t r = 1024; r <= 4096; ++r) {  // where it could go wrong: next to the squares
        for (uint64_t n : {r * r - 1, r * r, r * r + 1}) ASSERT_EQ(floatChunk(n), msw::grade::chunkLength(n)) << n;
    }
    const uint64_t n = 4097ull * 4097ull;
    EXPECT_EQ(floatChunk(n), 4098u);
    EXPECT_EQ(msw::grade::chunkLength(n), 4097u);
    // The first word of chunk 1 is marked in chunk 0, where the host then looks in vain.
    EXPECT_EQ(4097u / floatChunk(n), 0u);
    bool graded = false;
    for (const msw::cases::SizeSpec& s : msw::cases::indexSizes()) graded |= s.lo == n && s.hi == n;
    EXPECT_TRUE(graded) << "4097^2 is where a float square root first fails; it must be a graded size";
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
        ASSERT_GE(c, (n - 1) / c + 1) << n;               // ceil(n / c) <= c chunks
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

// The planted one-element-per-thread bug needs more words than the host's
// grid has threads: at most 8 blocks of 256 per SM, so 2^20 words outrun
// any GPU of fewer than 512 SMs (an H200 has 132).
TEST(MswArithmetic, TwoToTheTwentyWordsOutrunTheHostsGrid) {
    const uint64_t n = uint64_t{1} << 20;
    EXPECT_LT(uint64_t{511} * 8 * 256, n);
    bool graded = false;
    for (const msw::cases::SizeSpec& s : msw::cases::indexSizes()) graded |= s.lo == n && s.hi == n;
    EXPECT_TRUE(graded);
}

// ---- the generator ------------------------------------------------------------

TEST(MswArrays, WordsAreTheSplitMix64Sequence) {
    for (uint64_t key : {0ull, 1ull, 0x123456789abcdefull}) {
        uint64_t state = key;  // splitmix64, written out
        for (uint64_t i = 0; i < 1000; ++i) {
            state += 0x9e3779b97f4a7c15ull;
            uint64_t z = state;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            ASSERT_EQ(msw::arrays::word(key, i), z ^ (z >> 31)) << i;
        }
    }
    std::vector<uint64_t> a(100), b(100);
    msw::arrays::fill(a.data(), a.size(), 42);
    msw::arrays::fill(b.data(), b.size(), 42);
    EXPECT_EQ(a, b);
    msw::arrays::fill(b.data(), b.size(), 43);
    EXPECT_NE(a, b);
    // No word is 0 or 1 in practice: a flag left in place of a word is told apart.
    for (uint64_t i = 0; i < 100000; ++i) ASSERT_GT(msw::arrays::word(42, i), 1u);
}

// ---- keys --------------------------------------------------------------------

TEST(MswKeys, DerivedPerCallAndNeverTheSeed) {
    const uint64_t seed = 1234;
    const uint64_t key = msw::cases::generatorKey(seed, "msw.index/two_phase_n10");
    EXPECT_EQ(key, msw::cases::generatorKey(seed, "msw.index/two_phase_n10"));  // replays
    EXPECT_NE(key, seed);
    EXPECT_NE(key, msw::cases::generatorKey(seed, "msw.index/fast_n10"));  // another call, other arrays
    EXPECT_NE(key, msw::cases::generatorKey(seed + 1, "msw.index/two_phase_n10"));
    EXPECT_NE(key, msw::cases::caseStream(seed, "msw.index/two_phase_n10"));  // the questions' stream is not sent
    // The first 64 bits of SHA-256("msw generator key <call>\n<seed>").
    EXPECT_EQ(msw::cases::derive(0, "abc"), msw::cases::derive(0, "abc"));
    EXPECT_EQ(msw::cases::derive(0, ""), 0xc7757c0896cbfe61ull);  // sha256("\n0") = c7757c0896cbfe61...
}

}  // namespace
