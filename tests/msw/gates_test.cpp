// The msw gates on hand-made data: each gate's exact message, and the
// kernels' contracts launch by launch on blocks written out by hand.
#include <gtest/gtest.h>

#include <limits>

#include "gates.h"
#include "protocol.h"

namespace {

using msw::grade::IndexCase;
using msw::grade::Launch;
namespace proto = msw::protocol;

constexpr uint64_t kOnes = std::numeric_limits<uint64_t>::max();

// ---- msw.index: the answers -----------------------------------------------------

TEST(MswGates, IndexNamesNPlantedIndexGotAndWant) {
    const IndexCase last{"last word", {9}, {1}, {}};
    EXPECT_TRUE(msw::grade::checkIndex("f", 10, last, 9, 9).passed);
    const grading::GateResult r = msw::grade::checkIndex("par_find_mismatch(a, b, n)", 10, last, 10, 9);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "msw.index");
    EXPECT_EQ(r.message, "par_find_mismatch(a, b, n): n = 10, planted index 9 (last word): got 10, want 9");
    EXPECT_EQ(msw::grade::checkIndex("f", 5, {"identical arrays", {}, {}, {2}}, 2, 5).message,
              "f: n = 5, no planted index (identical arrays): got 2, want 5");
    EXPECT_EQ(msw::grade::checkIndex("f", 100, {"several", {10, 50}, {1, 2}, {}}, 50, 10).message,
              "f: n = 100, planted indices 10, 50 (several): got 50, want 10");
    EXPECT_EQ(msw::grade::checkIndex("f", 100, {"", {3}, {1}, {}}, -7, 3).message,
              "f: n = 100, planted index 3: got -7, want 3");
    IndexCase many{"several, one per chunk", {}, {}, {}};
    for (uint64_t i = 0; i < 10; ++i) many.planted.push_back(i * 10 + 1);
    EXPECT_EQ(msw::grade::checkIndex("f", 100, many, 91, 1).message,
              "f: n = 100, planted indices 1, 11, 21, 31, 41, 51, 61, 71, ... (10 in all, several, one per chunk): "
              "got 91, want 1");
}

TEST(MswGates, IndexBatchNamesTheFirstFailingCaseAndSkipsCasesNotAsked) {
    const std::vector<IndexCase> cases = {{"identical arrays", {}, {}, {}}, {"first word", {0}, {1}, {}},
                                          {"last word", {7}, {1}, {}}};
    const std::vector<uint64_t> want = {8, 0, 7};
    EXPECT_TRUE(msw::grade::checkIndexBatch("f", 8, cases, {8, 0, 7}, want).passed);
    EXPECT_TRUE(msw::grade::checkIndexBatch("f", 8, cases, {8, -1, -1}, want).passed);
    EXPECT_EQ(msw::grade::checkIndexBatch("f", 8, cases, {8, 3, 8}, want).message,
              "f: n = 8, planted index 0 (first word): got 3, want 0");
    EXPECT_EQ(msw::grade::checkIndexBatch("f", 8, cases, {8, 0}, want).message, "f: n = 8: got 2 answers for 3 cases");
}

// ---- msw.index: the kernels' contracts --------------------------------------------
// n = 10: chunks of 4 (0..3, 4..7, 8..9), flags at block offsets 0..9,
// *section at 10, chunk marks at 11..14.

Launch launch(int32_t kernel, uint64_t count, std::vector<std::pair<uint64_t, uint64_t>> words) {
    Launch l;
    l.kernel = kernel;
    l.count = count;
    l.nonZero = words.size();
    l.words = std::move(words);
    return l;
}

const IndexCase kSpread{"several, spread", {1, 9}, {4, 8}, {5}};

// What a correct search leaves for kSpread after each launch.
std::vector<Launch> spreadLaunches() {
    return {launch(proto::kParSigSqrt, 10, {{1, 1}, {9, 1}, {10, kOnes}, {11, 1}, {13, 1}}),
            launch(proto::kLeftmostPrisoner, 4, {{1, 1}, {9, 1}, {10, kOnes}, {11, 1}}),
            launch(proto::kSectionDiff, 4, {{1, 1}, {9, 1}, {11, 1}}),  // *section = 0
            launch(proto::kLeftmostPrisoner, 4, {{1, 1}, {9, 1}, {10, kOnes}, {11, 1}}),
            launch(proto::kSectionDiff, 4, {{1, 1}, {9, 1}, {10, 1}, {11, 1}})};
}

std::string contractMessage(const IndexCase& c, const std::vector<Launch>& launches) {
    const grading::GateResult r = msw::grade::checkLaunches(10, c, launches);
    EXPECT_EQ(r.id, "msw.index");
    return r.passed ? "(passed)" : r.message;
}

TEST(MswContracts, ACorrectSearchPasses) {
    EXPECT_EQ(contractMessage(kSpread, spreadLaunches()), "(passed)");
    // Words past the chunk marks (a larger block) are not the kernels'.
    std::vector<Launch> tail = spreadLaunches();
    for (Launch& l : tail) {
        l.words.emplace_back(15, 0xCBCBCBCBCBCBCBCBull);
        ++l.nonZero;
    }
    EXPECT_EQ(contractMessage(kSpread, tail), "(passed)");
    // Identical arrays: phase 1 finds nothing and the search stops there.
    const IndexCase same{"identical arrays", {}, {}, {3}};
    EXPECT_EQ(contractMessage(same, {launch(proto::kParSigSqrt, 10, {{10, kOnes}}),
                                     launch(proto::kLeftmostPrisoner, 4, {{10, kOnes}}),
                                     launch(proto::kSectionDiff, 4, {{10, kOnes}})}),
              "(passed)");
}

TEST(MswContracts, ParSigSqrtFlagsAreExactlyOneWhereTheWordsDiffer) {
    std::vector<Launch> l = spreadLaunches();
    l[0].words[0].second = 64;  // the XOR of the words, not 1
    EXPECT_EQ(contractMessage(kSpread, l),
              "par_sig_sqrt (phase 1), n = 10, planted indices 1, 9 (several, spread): flag 1 is 64, want 1 (the words "
              "differ)");
    l = spreadLaunches();
    l[0].words.insert(l[0].words.begin(), {0, 1});
    ++l[0].nonZero;
    EXPECT_EQ(contractMessage(kSpread, l),
              "par_sig_sqrt (phase 1), n = 10, planted indices 1, 9 (several, spread): flag 0 is 1, want 0 (the words "
              "are equal)");
}

TEST(MswContracts, ParSigSqrtMarksExactlyTheChunksThatDiffer) {
    std::vector<Launch> l = spreadLaunches();
    l[0].words.pop_back();  // chunk mark 2
    --l[0].nonZero;
    EXPECT_EQ(contractMessage(kSpread, l),
              "par_sig_sqrt (phase 1), n = 10, planted indices 1, 9 (several, spread): chunk mark 2 is 0, want 1 "
              "(chunk 2 holds differing word 9)");
    l = spreadLaunches();
    l[0].words.insert(l[0].words.end() - 1, {12, 1});
    ++l[0].nonZero;
    EXPECT_EQ(contractMessage(kSpread, l),
              "par_sig_sqrt (phase 1), n = 10, planted indices 1, 9 (several, spread): chunk mark 1 is 1, want 0 (no "
              "word of chunk 1 differs)");
    l = spreadLaunches();
    l[0].words.erase(l[0].words.begin() + 2);  // *section written 0
    --l[0].nonZero;
    EXPECT_EQ(contractMessage(kSpread, l),
              "par_sig_sqrt (phase 1), n = 10, planted indices 1, 9 (several, spread): *section (block word n) is 0, "
              "want 18446744073709551615 (par_sig_sqrt must leave it as the host set it)");
}

TEST(MswContracts, ThePrisonerLeavesOnlyTheLeftmostSurvivor) {
    std::vector<Launch> l = spreadLaunches();
    l[1] = launch(proto::kLeftmostPrisoner, 4, {{1, 1}, {9, 1}, {10, kOnes}, {11, 1}, {13, 1}});
    EXPECT_EQ(contractMessage(kSpread, l),
              "naive_leftmost_prisoner (phase 1), n = 10, planted indices 1, 9 (several, spread): chunk marks 0 and 2 "
              "survive, want only 0");
    l[1] = launch(proto::kLeftmostPrisoner, 4, {{1, 1}, {9, 1}, {10, kOnes}, {13, 1}});
    EXPECT_EQ(contractMessage(kSpread, l),
              "naive_leftmost_prisoner (phase 1), n = 10, planted indices 1, 9 (several, spread): chunk mark 2 "
              "survives, want only 0");
    l[1] = launch(proto::kLeftmostPrisoner, 4, {{1, 1}, {9, 1}, {10, kOnes}});
    EXPECT_EQ(contractMessage(kSpread, l),
              "naive_leftmost_prisoner (phase 1), n = 10, planted indices 1, 9 (several, spread): no chunk mark "
              "survives, want only 0");
    l[1] = launch(proto::kLeftmostPrisoner, 4, {{1, 1}, {10, kOnes}, {11, 1}});  // and it cleared a flag
    EXPECT_EQ(contractMessage(kSpread, l),
              "naive_leftmost_prisoner (phase 1), n = 10, planted indices 1, 9 (several, spread): flag 9 changed from "
              "1 to 0; naive_leftmost_prisoner may write only the 4 chunk marks");
    // A survivor may hold any non-zero value.
    l = spreadLaunches();
    l[1].words[3].second = 5;
    l[2].words[2].second = 5;
    l[3].words[3].second = 5;
    l[4].words[3].second = 5;
    EXPECT_EQ(contractMessage(kSpread, l), "(passed)");
}

TEST(MswContracts, PhaseTwoWorksOnlyInsideTheChunkPhaseOneFound) {
    const IndexCase inOne{"several, in one chunk", {1, 3}, {2, 2}, {}};
    std::vector<Launch> l = {launch(proto::kParSigSqrt, 10, {{1, 1}, {3, 1}, {10, kOnes}, {11, 1}}),
                             launch(proto::kLeftmostPrisoner, 4, {{1, 1}, {3, 1}, {10, kOnes}, {11, 1}}),
                             launch(proto::kSectionDiff, 4, {{1, 1}, {3, 1}, {11, 1}}),
                             launch(proto::kLeftmostPrisoner, 4, {{1, 1}, {10, kOnes}, {11, 1}}),
                             launch(proto::kSectionDiff, 4, {{1, 1}, {10, 1}, {11, 1}})};
    EXPECT_EQ(contractMessage(inOne, l), "(passed)");
    l[3] = launch(proto::kLeftmostPrisoner, 4, {{1, 1}, {3, 1}, {10, kOnes}, {11, 1}});
    EXPECT_EQ(contractMessage(inOne, l),
              "naive_leftmost_prisoner (phase 2), n = 10, planted indices 1, 3 (several, in one chunk): flags 1 and 3 "
              "survive, want only 1");
    l[3] = launch(proto::kLeftmostPrisoner, 4, {{1, 1}, {10, kOnes}});  // cleared the chunk mark too
    EXPECT_EQ(contractMessage(inOne, l),
              "naive_leftmost_prisoner (phase 2), n = 10, planted indices 1, 3 (several, in one chunk): chunk mark 0 "
              "changed from 1 to 0; naive_leftmost_prisoner may write only the 4 flags of chunk 0");
    // The last chunk is shorter: chunk 2 holds words 8 and 9.
    const IndexCase last{"last word", {9}, {1}, {4, 6}};
    const std::vector<Launch> tail = {launch(proto::kParSigSqrt, 10, {{9, 1}, {10, kOnes}, {13, 1}}),
                                      launch(proto::kLeftmostPrisoner, 4, {{9, 1}, {10, kOnes}, {13, 1}}),
                                      launch(proto::kSectionDiff, 4, {{9, 1}, {10, 2}, {13, 1}}),
                                      launch(proto::kLeftmostPrisoner, 2, {{9, 1}, {10, kOnes}, {13, 1}}),
                                      launch(proto::kSectionDiff, 2, {{9, 1}, {10, 1}, {13, 1}})};
    EXPECT_EQ(contractMessage(last, tail), "(passed)");
}

TEST(MswContracts, SectionDiffWritesTheSurvivorsIndex) {
    std::vector<Launch> l = spreadLaunches();
    l[2].words.insert(l[2].words.begin() + 2, {10, 2});
    ++l[2].nonZero;
    EXPECT_EQ(contractMessage(kSpread, l),
              "par_get_section_diff (phase 1), n = 10, planted indices 1, 9 (several, spread): *section is 2, want 0 "
              "(chunk mark 0 survives)");
    l = spreadLaunches();
    l[4].words[2].second = 3;
    EXPECT_EQ(contractMessage(kSpread, l),
              "par_get_section_diff (phase 2), n = 10, planted indices 1, 9 (several, spread): *section is 3, want 1 "
              "(flag 1, word 1 of chunk 0, survives)");
    l = spreadLaunches();
    l[2].words.erase(l[2].words.begin());  // it cleared flag 1, which is not its to write
    --l[2].nonZero;
    EXPECT_EQ(contractMessage(kSpread, l),
              "par_get_section_diff (phase 1), n = 10, planted indices 1, 9 (several, spread): flag 1 changed from 1 to "
              "0; par_get_section_diff may write only *section");
    const IndexCase same{"identical arrays", {}, {}, {}};
    EXPECT_EQ(contractMessage(same, {launch(proto::kParSigSqrt, 10, {{10, kOnes}}),
                                     launch(proto::kLeftmostPrisoner, 4, {{10, kOnes}}),
                                     launch(proto::kSectionDiff, 4, {})}),
              "par_get_section_diff (phase 1), n = 10, no planted index (identical arrays): *section is 0, want "
              "18446744073709551615 (no chunk mark survives: *section keeps the all ones the host wrote)");
}

TEST(MswContracts, TheLaunchSequenceIsTheCoursesSearch) {
    std::vector<Launch> l = spreadLaunches();
    l.resize(3);
    EXPECT_EQ(contractMessage(kSpread, l),
              "the search, n = 10, planted indices 1, 9 (several, spread), made 3 launches, want 5: "
              "naive_leftmost_prisoner given n = 4 is missing");
    l = spreadLaunches();
    std::swap(l[1], l[2]);
    EXPECT_EQ(contractMessage(kSpread, l),
              "the search, n = 10, planted indices 1, 9 (several, spread): launch 2 was par_get_section_diff given n = "
              "4, want naive_leftmost_prisoner given n = 4");
    l = spreadLaunches();
    l.push_back(l.back());
    EXPECT_EQ(contractMessage(kSpread, l),
              "the search, n = 10, planted indices 1, 9 (several, spread), made 6 launches, want 5: launch 6 was "
              "par_get_section_diff given n = 4");
}

// The runner sends only the first non-zero words of a block that holds far
// more than a correct search leaves.
TEST(MswContracts, ASnapshotCutShortStillNamesTheFirstWrongWord) {
    std::vector<Launch> l = spreadLaunches();
    l[0] = launch(proto::kParSigSqrt, 10, {{0, 77}, {1, 88}, {2, 99}});
    l[0].nonZero = 14;  // every flag left as b's word
    EXPECT_EQ(contractMessage(kSpread, l),
              "par_sig_sqrt (phase 1), n = 10, planted indices 1, 9 (several, spread): flag 0 is 77, want 0 (the words "
              "are equal)");
    l[0] = launch(proto::kParSigSqrt, 10, {{1, 1}});
    l[0].nonZero = 9;
    EXPECT_EQ(contractMessage(kSpread, l),
              "par_sig_sqrt (phase 1), n = 10, planted indices 1, 9 (several, spread): the block holds 9 non-zero words "
              "after it, more than a correct search leaves (the runner sent the first 1)");
}

// ---- msw.empty and msw.block ----------------------------------------------------

TEST(MswGates, EmptyNamesWhatCameBack) {
    EXPECT_TRUE(msw::grade::checkEmpty({{"par_find_mismatch(a, b, n)", 0}, {"g", 0}}, 0, 1, 0).passed);
    EXPECT_TRUE(msw::grade::checkEmpty({{"fast_find_mismatch(d_a, d_b, n)", 0}}, -1).passed);
    const grading::GateResult r = msw::grade::checkEmpty({{"par_find_mismatch(a, b, n)", 0}, {"g", 18446744}}, 0);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "msw.empty");
    EXPECT_EQ(r.message, "g: n = 0: got 18446744, want 0");
    EXPECT_EQ(msw::grade::checkEmpty({{"f", 0}}, 4294967297).message,
              "large_block_words(0): got 4294967297 words (34359738376 bytes), want at most 1024: "
              "n - 1 wrapped around before the square root");
    EXPECT_TRUE(msw::grade::checkEmpty({{"f", 0}}, msw::grade::kEmptyBlockLimitWords).passed);
    EXPECT_EQ(msw::grade::checkEmpty({{"f", 0}}, 3, 0).message,
              "alloc_large_block_to_device(0): got a device block, want nullptr");
    EXPECT_EQ(msw::grade::checkEmpty({{"f", 0}}, 0, 1, 3).message, "n = 0: the calls launched 3 kernels, want none");
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
