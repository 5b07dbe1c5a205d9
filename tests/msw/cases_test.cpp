// msw's questions on the host: the sizes, the case lists at every size and
// their budget, the host answers, the edit lists the runner gets (which say
// nothing about the answer), the request's round trip and the time limits.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "arrays.h"
#include "cases.h"
#include "gates.h"
#include "msw_host.h"
#include "shrink.h"

namespace {

using msw::grade::IndexCase;

std::vector<uint64_t> fixedSizes() {
    std::vector<uint64_t> out;
    for (const msw::cases::SizeSpec& s : msw::cases::indexSizes()) {
        if (!s.seeded()) out.push_back(s.lo);
    }
    return out;
}

std::vector<uint64_t> allSizes(uint64_t seed) {
    std::vector<uint64_t> out;
    for (const msw::cases::SizeSpec& s : msw::cases::indexSizes()) out.push_back(msw::cases::sizeFor(s, seed));
    return out;
}

TEST(MswCases, SizesCoverTheSpec) {
    const std::vector<uint64_t> sizes = fixedSizes();
    for (uint64_t n : {1ull, 2ull, 3ull, 4ull, 12ull, 15ull, 16ull, 17ull, 20ull, 100ull, 1000ull, 1023ull, 1024ull,
                       1025ull, 1048576ull, 16777216ull, 16777217ull, 16785409ull, 134217728ull}) {
        EXPECT_THAT(sizes, ::testing::Contains(n));
    }
    EXPECT_EQ(*std::max_element(sizes.begin(), sizes.end()), msw::cases::kLargestWords);  // the runner's limit, graded
    std::set<std::string> names;
    size_t seeded = 0;
    for (const msw::cases::SizeSpec& s : msw::cases::indexSizes()) {
        EXPECT_TRUE(names.insert(s.name).second) << s.name;
        EXPECT_LE(s.lo, s.hi);
        seeded += s.seeded();
    }
    EXPECT_GE(seeded, 3u);
}

TEST(MswCases, OneSizeIsTheHandMadeArrayOfZeros) {
    size_t zeros = 0;
    for (const msw::cases::SizeSpec& s : msw::cases::indexSizes()) zeros += s.zeroWords;
    EXPECT_EQ(zeros, 1u);
    for (uint64_t i : {0ull, 1ull, 65536ull}) EXPECT_EQ(msw::arrays::word(msw::arrays::kZeroWordsKey, i), 0u);
    for (uint64_t seed = 0; seed < 1000; ++seed) {
        EXPECT_NE(msw::cases::generatorKey(seed, "msw.index/two_phase_n10"), msw::arrays::kZeroWordsKey);
    }
}

TEST(MswCases, SeededSizesStayInTheirRangeAndMoveWithTheSeed) {
    for (const msw::cases::SizeSpec& s : msw::cases::indexSizes()) {
        if (!s.seeded()) continue;
        std::set<uint64_t> drawn;
        for (uint64_t seed = 0; seed < 50; ++seed) {
            const uint64_t n = msw::cases::sizeFor(s, seed);
            ASSERT_GE(n, s.lo) << s.name;
            ASSERT_LE(n, s.hi) << s.name;
            drawn.insert(n);
        }
        EXPECT_GT(drawn.size(), 20u) << s.name;  // 50 draws from at least 61 values
        EXPECT_EQ(msw::cases::sizeFor(s, 7), msw::cases::sizeFor(s, 7));
    }
}

TEST(MswCases, EveryCaseIsValidAndTheListIsComplete) {
    std::vector<uint64_t> sizes = fixedSizes();
    for (uint64_t n : allSizes(99)) sizes.push_back(n);
    for (uint64_t n : sizes) {
        const std::vector<IndexCase> cases = msw::cases::indexCases(n, 11);
        std::set<std::vector<uint64_t>> seen;
        std::set<uint64_t> singles;
        size_t several = 0;
        for (const IndexCase& c : cases) {
            ASSERT_TRUE(std::is_sorted(c.planted.begin(), c.planted.end())) << n << " " << c.kind;
            ASSERT_EQ(std::adjacent_find(c.planted.begin(), c.planted.end()), c.planted.end()) << n << " " << c.kind;
            ASSERT_EQ(c.masks.size(), c.planted.size());
            for (uint64_t m : c.masks) ASSERT_NE(m, 0u) << c.kind;
            for (uint64_t i : c.planted) ASSERT_LT(i, n) << c.kind;
            std::set<uint64_t> decoys(c.decoys.begin(), c.decoys.end());
            ASSERT_EQ(decoys.size(), c.decoys.size()) << c.kind;
            for (uint64_t d : c.decoys) {
                ASSERT_LT(d, n);
                ASSERT_FALSE(std::binary_search(c.planted.begin(), c.planted.end(), d)) << c.kind;
            }
            ASSERT_EQ(c.decoys.size(), std::min<uint64_t>(msw::cases::kDecoysPerCase, n - c.planted.size())) << c.kind;
            ASSERT_TRUE(seen.insert(c.planted).second) << "duplicate case " << c.kind;
            if (c.planted.size() == 1) singles.insert(c.planted[0]);
            if (c.planted.size() > 1) ++several;
        }
        EXPECT_TRUE(seen.count({})) << n;
        EXPECT_TRUE(singles.count(0)) << n;
        EXPECT_TRUE(singles.count(n - 1)) << n;
        EXPECT_EQ(cases[1].kind, "first word");
        EXPECT_EQ(cases[1].masks[0], uint64_t{1} << 63);  // the top bit only
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
        EXPECT_LE(cases.size(), msw::cases::maxIndexCases(n)) << n;
    }
}

TEST(MswCases, QuestionsMoveWithTheStream) {
    const auto a = msw::cases::indexCases(1000, 5);
    const auto b = msw::cases::indexCases(1000, 5);
    const auto c = msw::cases::indexCases(1000, 6);
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a[k].planted, b[k].planted);
        EXPECT_EQ(a[k].masks, b[k].masks);
    }
    bool differs = a.size() != c.size();
    for (size_t k = 0; k < std::min(a.size(), c.size()); ++k) differs |= a[k].planted != c[k].planted;
    EXPECT_TRUE(differs);
}

// Each question is a full search (a copy of b at 2^24 words is 128 MiB): the
// time limits rest on these counts.
TEST(MswCases, LargeSizesStayWithinTheCaseBudget) {
    for (uint64_t n : fixedSizes()) {
        const size_t count = msw::cases::indexCases(n, 11).size();
        EXPECT_LE(count, msw::cases::maxIndexCases(n)) << n;
        EXPECT_LE(count, 3 * msw::cases::kAllBoundariesUpTo + 20) << n;
        if (n >= (uint64_t{1} << 24)) EXPECT_LE(count, 120u) << n;
    }
}

TEST(MswCases, WantsAreTheFirstPlantedIndexBelowAndAboveTheFullScanSize) {
    for (uint64_t n : {uint64_t{1}, uint64_t{10}, uint64_t{1000}, msw::cases::kFullScanUpTo + 3}) {
        const std::vector<IndexCase> cases = msw::cases::indexCases(n, 21);
        const std::vector<uint64_t> want = msw::cases::wants(n, 77, cases);
        ASSERT_EQ(want.size(), cases.size());
        for (size_t k = 0; k < cases.size(); ++k) {
            EXPECT_EQ(want[k], cases[k].planted.empty() ? n : cases[k].planted[0]) << cases[k].kind;
        }
    }
}

TEST(MswCases, WrapperFlagsAskEveryCaseOfSmallNAndTheKeyOnesOfLarge) {
    const auto small = msw::cases::indexCases(64, 3);
    EXPECT_THAT(msw::cases::wrapperFlags(64, small), ::testing::Each(1));
    const auto mid = msw::cases::indexCases(1025, 3);
    const auto midFlags = msw::cases::wrapperFlags(1025, mid);
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

// The runner gets the words to write into b, nothing else: the decoys make
// the list differ from the differences, and the list's order and minimum
// are not the answer.
TEST(MswCases, EditListsBuildBAndHideTheAnswer) {
    const uint64_t n = 1000;
    const uint64_t key = 5;
    const std::vector<IndexCase> cases = msw::cases::indexCases(n, 9);
    const std::vector<int32_t> wrapper = msw::cases::wrapperFlags(n, cases);
    const msw::protocol::FindRequest r = msw::cases::findRequest("two_phase", n, key, cases, wrapper, 9);
    ASSERT_EQ(r.editStart.size(), cases.size() + 1);
    ASSERT_EQ(r.editIndex.size(), r.editValue.size());
    EXPECT_EQ(r.key, key);
    EXPECT_EQ(r.wrapper, wrapper);
    size_t minimumIsNotTheAnswer = 0;
    size_t firstIsNotTheAnswer = 0;
    for (size_t k = 0; k < cases.size(); ++k) {
        std::vector<uint64_t> b(n);
        msw::arrays::fill(b.data(), n, key);
        std::vector<uint64_t> a = b;
        uint64_t lowest = n;
        for (uint64_t j = r.editStart[k]; j < r.editStart[k + 1]; ++j) {
            b[r.editIndex[j]] = r.editValue[j];
            lowest = std::min(lowest, r.editIndex[j]);
        }
        const uint64_t answer = seq_find_mismatch(a.data(), b.data(), n);
        EXPECT_EQ(answer, cases[k].planted.empty() ? n : cases[k].planted[0]) << cases[k].kind;
        std::vector<uint64_t> differing;
        for (uint64_t i = 0; i < n; ++i) {
            if (a[i] != b[i]) differing.push_back(i);
        }
        EXPECT_EQ(differing, cases[k].planted) << cases[k].kind;
        EXPECT_EQ(r.editStart[k + 1] - r.editStart[k], cases[k].planted.size() + cases[k].decoys.size());
        minimumIsNotTheAnswer += lowest != answer;
        firstIsNotTheAnswer += r.editStart[k + 1] > r.editStart[k] && r.editIndex[r.editStart[k]] != answer;
    }
    EXPECT_GT(minimumIsNotTheAnswer, cases.size() / 4);
    EXPECT_GT(firstIsNotTheAnswer, cases.size() / 4);
}

TEST(MswCases, FindRequestRoundTripsThroughTheProtocol) {
    const std::vector<IndexCase> cases = msw::cases::indexCases(20, 4);
    const msw::protocol::FindRequest r =
        msw::cases::findRequest("two_phase", 20, 123, cases, msw::cases::wrapperFlags(20, cases), 4);
    const auto back = grading::protocol::decode<msw::protocol::FindRequest>(grading::protocol::encode(r));
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->impl, "two_phase");
    EXPECT_EQ(back->n, 20u);
    EXPECT_EQ(back->key, 123u);
    EXPECT_EQ(back->editStart, r.editStart);
    EXPECT_EQ(back->editIndex, r.editIndex);
    EXPECT_EQ(back->editValue, r.editValue);
    EXPECT_EQ(back->wrapper, r.wrapper);
    EXPECT_EQ(back->strict, 0);  // callFind asks strictly only after a failure
    // A mode the runner does not have is refused where the request is decoded.
    grading::Record unknownMode = grading::protocol::encode(r);
    unknownMode.putInts("strict", {2});
    const auto refused = grading::protocol::decode<msw::protocol::FindRequest>(unknownMode);
    ASSERT_FALSE(refused.ok());
    EXPECT_THAT(refused.error(), testing::HasSubstr("strict"));
    // Nothing in the request names a want or a seed.
    const grading::Record record = grading::protocol::encode(r);
    for (const auto& [name, field] : record.fields()) {
        EXPECT_EQ(name.find("want"), std::string::npos) << name;
        EXPECT_EQ(name.find("seed"), std::string::npos) << name;
        EXPECT_EQ(name.find("plant"), std::string::npos) << name;
    }
}

// What a find call carries back beyond its answers: per launch at most
// snapshotCap of the block's non-zero words, whatever the kernels left. At
// every graded size from 2^20 words that is under 1/64 of the block, so no
// launch sends its block back, however broken the kernels.
TEST(MswFindCall, NoLaunchSendsItsBlockBack) {
    for (const msw::cases::SizeSpec& spec : msw::cases::indexSizes()) {
        const uint64_t n = msw::cases::sizeFor(spec, 77);
        if (n < (uint64_t{1} << 20)) continue;
        const uint64_t stream = msw::cases::caseStream(77, spec.name);
        const std::vector<IndexCase> cases = msw::cases::indexCases(n, stream);
        const msw::protocol::FindRequest r = msw::cases::findRequest("two_phase", n, 5, cases, {}, stream);
        for (size_t k = 0; k + 1 < r.editStart.size(); ++k) {
            const uint64_t edits = r.editStart[k + 1] - r.editStart[k];
            EXPECT_LE(msw::protocol::snapshotCap(edits, n, large_block_words(n)), n / 64)
                << spec.name << ", search " << k << " (" << edits << " edits)";
        }
    }
}

TEST(MswLimits, ScaleWithWordsAndSearchesFromOnePlace) {
    using namespace msw::cases;
    EXPECT_DOUBLE_EQ(searchSeconds(10, 0), kCallSeconds);
    EXPECT_DOUBLE_EQ(searchSeconds(1000, 10), kCallSeconds + 10 * (kSecondsPerSearch + 1000 * kSecondsPerWord));
    EXPECT_LT(searchSeconds(1000, 50), searchSeconds(1 << 24, 50));
    EXPECT_LT(searchSeconds(1 << 24, 50), searchSeconds(1 << 24, 100));
    // The largest graded call stays within a couple of minutes.
    for (uint64_t n : fixedSizes()) EXPECT_LT(searchSeconds(n, 2 * maxIndexCases(n)), 120.0) << n;
}

}  // namespace

namespace {

TEST(MswShrink, MovedMismatchesKeepTheirPlaceInTheChunks) {
    using msw::shrink::moveIndex;
    // n = 1000: chunks of 32 words (floor(sqrt(999)) + 1), 32 chunks; n = 10: chunks of 4, 3 chunks.
    EXPECT_EQ(moveIndex(999, 1000, 10), 9u);   // the last word stays the last
    EXPECT_EQ(moveIndex(0, 1000, 10), 0u);     // the first stays the first
    EXPECT_EQ(moveIndex(32, 1000, 10), 4u);    // the first word of chunk 1
    EXPECT_EQ(moveIndex(31, 1000, 10), 3u);    // the last word of chunk 0
    EXPECT_EQ(moveIndex(33, 1000, 10), 5u);    // the second word of chunk 1
    EXPECT_EQ(moveIndex(992, 1000, 10), 8u);   // the last chunk's first word: the last chunk's
    EXPECT_EQ(moveIndex(500, 1000, 1), 0u);
}

TEST(MswShrink, CandidatesAreSmallerAndKeepTheQuestionsShape) {
    msw::grade::IndexCase q;
    q.kind = "several, spread";
    q.planted = {31, 999};
    q.masks = {0xf0ull, 1};
    q.decoys = {500};
    const std::vector<msw::shrink::Input> c = msw::shrink::candidates({1000, q});
    ASSERT_FALSE(c.empty());
    uint64_t last = 0;
    for (const msw::shrink::Input& in : c) {
        EXPECT_LE(in.n, 1000u);
        EXPECT_EQ(in.question.planted.size(), 2u);
        EXPECT_EQ(in.question.kind, q.kind);
        for (uint64_t p : in.question.planted) EXPECT_LT(p, in.n);
        for (uint64_t d : in.question.decoys) EXPECT_LT(d, in.n);
        if (in.n < 1000) {
            EXPECT_GT(in.n, last);  // smallest first
            last = in.n;
        }
    }
    EXPECT_EQ(c.front().n, 2u);  // n = 1 cannot hold two mismatches; at 2 they meet and are pushed apart
    EXPECT_EQ(c.front().question.planted, (std::vector<uint64_t>{0, 1}));
    // Then the same n with one bit per mask, then without the decoy.
    EXPECT_EQ(c[c.size() - 3].question.masks, (std::vector<uint64_t>{0x80, 1}));
    EXPECT_EQ(c[c.size() - 2].question.masks, (std::vector<uint64_t>{0x10, 1}));
    EXPECT_TRUE(c.back().question.decoys.empty());
    EXPECT_EQ(c.back().n, 1000u);
}

TEST(MswShrink, TheFailedQuestionIsTheFirstTheGateWouldName) {
    msw::grade::IndexCase a, b;
    a.planted = {3};
    a.masks = {1};
    b.planted = {5};
    b.masks = {1};
    msw::protocol::FindResult r;
    r.got = {3, 7};
    r.gotWrapper = {-1, 5};
    r.launchStart = {0, 0, 0};
    r.wordStart = {0};
    EXPECT_EQ(msw::cases::failingQuestion("two_phase", 10, {a, b}, {3, 5}, r), 1u);
    r.got = {3, 5};
    r.gotWrapper = {4, 5};
    EXPECT_EQ(msw::cases::failingQuestion("two_phase", 10, {a, b}, {3, 5}, r), 0u);
    r.gotWrapper = {3, 5};  // every answer right: the launches decide, and none were recorded for search 0
    EXPECT_EQ(msw::cases::failingQuestion("two_phase", 10, {a, b}, {3, 5}, r), 0u);
    r.got = {3};  // malformed: no question alone
    EXPECT_EQ(msw::cases::failingQuestion("two_phase", 10, {a, b}, {3, 5}, r), 2u);
}

}  // namespace
