// Every msw gate must bite. Each planted bug is its own runner (see
// harness/msw/CMakeLists.txt) and must trip the gate meant for it, with the
// message the spec names, and leave the others passing; the untouched
// exercise stub must fail msw.index cleanly.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/testing.h"
#include "msw_cases.h"
#include "msw_gates.h"

namespace {

using ::testing::MatchesRegex;
using grading::GateResult;
using grading::testing::runnerInDir;
using msw::grade::IndexCase;

const std::string kBlockOverload = "par_find_mismatch(d_a, b, d_large_block, n)";

class MswPlanted : public ::testing::Test {
protected:
    // msw.index over `cases` for the two-phase search (both overloads; the
    // three-argument one on the cases wrapperFlags picks).
    GateResult index(const std::string& runner, uint64_t n, const std::vector<IndexCase>& cases,
                     std::vector<int64_t>* got = nullptr) {
        const uint64_t seed = grading::testing::gradingSeed();
        const std::vector<uint64_t> want = msw::cases::wants(n, seed, cases);
        const msw::cases::FindRun run =
            msw::cases::runFind(runnerInDir(runner), "two_phase", n, seed, cases, msw::cases::wrapperFlags(n, cases),
                                msw::cases::findTimeLimit(n));
        EXPECT_TRUE(run.outcome.ok()) << run.outcome.message;  // a wrong answer, not a crash
        EXPECT_EQ(run.fieldError, "");
        if (!run.outcome.ok()) return GateResult::fail("msw.index", run.outcome.message);
        if (got != nullptr) *got = run.got;
        GateResult r = msw::grade::checkIndexBatch(kBlockOverload, n, cases, run.got, want);
        if (r.passed) r = msw::grade::checkIndexBatch(msw::cases::kWrapperName, n, cases, run.gotWrapper, want);
        return r;
    }
    GateResult index(const std::string& runner, uint64_t n) {
        return index(runner, n, msw::cases::indexCases(n, grading::testing::gradingSeed()));
    }
    GateResult block(const std::string& runner) {
        const std::vector<uint64_t> ns = msw::cases::blockSizes();
        const msw::cases::BlockRun run = msw::cases::runBlock(runnerInDir(runner), ns);
        EXPECT_TRUE(run.outcome.ok()) << run.outcome.message;
        if (!run.outcome.ok()) return GateResult::fail("msw.block", run.outcome.message);
        return msw::grade::checkBlock(ns, run.blockWords);
    }
    GateResult empty(const std::string& runner) {
        const msw::cases::EmptyRun run = msw::cases::runEmpty(runnerInDir(runner), "two_phase");
        EXPECT_TRUE(run.outcome.ok()) << run.outcome.message;
        if (!run.outcome.ok()) return GateResult::fail("msw.empty", run.outcome.message);
        return msw::grade::checkEmpty(run.answers, run.blockWords);
    }
};

TEST_F(MswPlanted, LastMismatchFailsIndexOnSeveralMismatches) {
    const std::string runner = "msw_runner_planted_last_mismatch";
    GRADING_SKIP_WITHOUT_DEVICE(runnerInDir(runner));
    // One mismatch: first and last are the same word, so these pass.
    const std::vector<IndexCase> single = {{"first word", {0}}, {"last word", {99}}, {"random word", {37}}};
    EXPECT_TRUE(index(runner, 100, single).passed);
    // Two in different chunks (chunk length 10), then the whole case list.
    const GateResult two = index(runner, 100, {{"several", {10, 50}}});
    EXPECT_FALSE(two.passed);
    EXPECT_EQ(two.message, kBlockOverload + ": n = 100, planted indices 10, 50 (several): got 50, want 10");
    const GateResult all = index(runner, 1000);
    EXPECT_FALSE(all.passed);
    EXPECT_THAT(all.message, MatchesRegex("par_find_mismatch\\(d_a, b, d_large_block, n\\): n = 1000, planted "
                                          "indices [0-9, .]+ \\(.*several.*\\): got [0-9]+, want [0-9]+"));
}

TEST_F(MswPlanted, ChunkWithoutPlusOneMissesTheTail) {
    const std::string runner = "msw_runner_planted_chunk_floor_sqrt";
    GRADING_SKIP_WITHOUT_DEVICE(runnerInDir(runner));
    // n = 10: three chunks of three words cover 0..8; word 9 is never looked at.
    const GateResult ten = index(runner, 10, {{"last word", {9}}});
    EXPECT_FALSE(ten.passed);
    EXPECT_EQ(ten.message, kBlockOverload + ": n = 10, planted index 9 (last word): got 10, want 9");
    // The same at 2^24 + 1: 4096 chunks of 4096 words, the last word left over.
    constexpr uint64_t kBig = (uint64_t{1} << 24) + 1;
    const GateResult big = index(runner, kBig, {{"first word", {0}}, {"last word", {kBig - 1}}});
    EXPECT_FALSE(big.passed);
    EXPECT_EQ(big.message, kBlockOverload + ": n = 16777217, planted index 16777216 (last word): got 16777217, want "
                                            "16777216");
    // It only matters where there is a tail: perfect squares pass everything.
    EXPECT_TRUE(index(runner, 16).passed);
    EXPECT_TRUE(index(runner, 1024 * 1024).passed);
}

TEST_F(MswPlanted, PreconditionBlockSizeFailsBlockOnly) {
    const std::string runner = "msw_runner_planted_precondition_block";
    GRADING_SKIP_WITHOUT_DEVICE(runnerInDir(runner));
    const GateResult b = block(runner);
    EXPECT_FALSE(b.passed);
    EXPECT_EQ(b.message, "n = 1: got 4 words, want 3 (n + floor(sqrt(n - 1)) + 2)");
    EXPECT_TRUE(empty(runner).passed);
    EXPECT_TRUE(index(runner, 16).passed);  // a larger block does no harm
}

TEST_F(MswPlanted, EmptyUnderflowFailsEmptyOnly) {
    const std::string runner = "msw_runner_planted_empty_underflow";
    GRADING_SKIP_WITHOUT_DEVICE(runnerInDir(runner));
    const GateResult e = empty(runner);
    EXPECT_FALSE(e.passed);
    EXPECT_EQ(e.message, "large_block_words(0): got 4294967297 words (34359738376 bytes), want at most 1024: "
                         "n - 1 wrapped around before the square root");
    EXPECT_TRUE(block(runner).passed);  // n >= 1 is right
    EXPECT_TRUE(index(runner, 10).passed);
}

TEST_F(MswPlanted, ExerciseStubFailsIndexCleanly) {
    const std::string runner = "msw_runner_exercise";
    GRADING_SKIP_WITHOUT_DEVICE(runnerInDir(runner));
    std::vector<int64_t> got;
    const GateResult r = index(runner, 100, msw::cases::indexCases(100, grading::testing::gradingSeed()), &got);
    EXPECT_FALSE(r.passed);
    // It runs to the end (no fault, no hang) and answers n: nothing found.
    EXPECT_EQ(r.message, kBlockOverload + ": n = 100, planted index 0 (first word): got 100, want 0");
    EXPECT_THAT(got, ::testing::Each(100));
    // The host API's parts are the reference's: n = 0 and the block size pass.
    EXPECT_TRUE(empty(runner).passed);
    EXPECT_TRUE(block(runner).passed);
}

}  // namespace
