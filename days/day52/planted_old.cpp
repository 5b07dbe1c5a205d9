// Every day 52 gate must bite. Each planted bug is its own runner (see
// harness/day52/CMakeLists.txt) and must trip the gate meant for it with the
// message the spec names; the untouched exercise stub must fail cleanly. The
// planted bug for 52.overlap is in day52_timing_test.cpp (run alone).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "day52_cases.h"
#include "day52_gates.h"
#include "day52_stress.h"
#include "forkjoin_constants.h"
#include "harness/testing.h"

namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using grading::testing::runnerInDir;

// The indices of the stress runs whose out is wrong.
std::vector<int> wrongRuns(const day52::cases::StressResult& s) {
    std::vector<int> wrong;
    for (size_t r = 0; r < s.runs.size(); ++r) {
        if (!day52::checkDiamond(s.runs[r].out, day52::cases::want()).passed) wrong.push_back(static_cast<int>(r));
    }
    return wrong;
}

TEST(Day52Planted, RecordBeforeUpstreamFailsStressOnEveryRun) {
    const std::string runner = runnerInDir("day52_runner_planted_record_before_upstream");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const day52::cases::StressResult s = day52::cases::runStress(runner);
    ASSERT_TRUE(s.ok()) << s.why();
    const grading::GateResult stress = day52::checkStress(s.runs, day52::cases::want(), s.hold);
    EXPECT_FALSE(stress.passed);
    EXPECT_EQ(stress.id, "52.stress");
    EXPECT_THAT(stress.message, MatchesRegex("run 0 \\(upstream held 20 ms, branch 0 held 20 ms\\): index [0-9]+: "
                                             "got [-+0-9.e]+, want [-+0-9.e]+ \\(8 of 8 runs wrong\\)"));
    EXPECT_EQ(wrongRuns(s).size(), s.runs.size()) << "a branch that waits for nothing read the zeroed d_mid";
}

TEST(Day52Planted, JoinThatForgetsABranchFailsStressWhenThatBranchIsHeld) {
    const std::string runner = runnerInDir("day52_runner_planted_join_forgets_branch");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const day52::cases::StressResult s = day52::cases::runStress(runner);
    ASSERT_TRUE(s.ok()) << s.why();
    const grading::GateResult stress = day52::checkStress(s.runs, day52::cases::want(), s.hold);
    EXPECT_FALSE(stress.passed);
    EXPECT_THAT(stress.message, MatchesRegex("run 3 \\(upstream held 20 ms, branch 3 held 20 ms\\): index [0-9]+: "
                                             "got [-+0-9.e]+, want [-+0-9.e]+ \\([1-8] of 8 runs wrong\\)"));
    // Branch 3 is the one the join forgets: every run that holds it is wrong.
    const std::vector<int> wrong = wrongRuns(s);
    for (size_t r = 0; r < s.runs.size(); ++r) {
        if (s.runs[r].heldBranch == 3) {
            EXPECT_NE(std::find(wrong.begin(), wrong.end(), static_cast<int>(r)), wrong.end())
                << "run " << r << " held branch 3 and still came out right";
        }
    }
}

TEST(Day52Planted, AllOnStreamZeroIsStillRight) {
    // It fails 52.overlap (PlantedTiming.AllOnStreamZeroFailsOverlap); every
    // result gate passes, ordering on one stream is ordering all the same.
    const std::string runner = runnerInDir("day52_runner_planted_all_on_stream0");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const day52::cases::OutRun d = day52::cases::runOut(runner, "diamond");
    ASSERT_TRUE(d.ok()) << d.why();
    EXPECT_TRUE(day52::checkDiamond(d.out, day52::cases::want()).passed);
    const day52::cases::StressResult s = day52::cases::runStress(runner);
    ASSERT_TRUE(s.ok()) << s.why();
    const grading::GateResult stress = day52::checkStress(s.runs, day52::cases::want(), s.hold);
    EXPECT_TRUE(stress.passed) << stress.message;
}

TEST(Day52Planted, TimingEventsFailNoTiming) {
    const std::string runner = runnerInDir("day52_runner_planted_timing_events");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const day52::cases::NoTimingResult r = day52::cases::runNoTiming(runner);
    ASSERT_TRUE(r.ok()) << r.why();
    const grading::GateResult noTiming = day52::checkNoTiming(r.probes);
    EXPECT_FALSE(noTiming.passed);
    EXPECT_EQ(noTiming.message,
              "cudaEventElapsedTime(fork, branchDone[0]): expected cudaErrorInvalidResourceHandle, got cudaSuccess");
    // The events still order the work.
    const day52::cases::OutRun d = day52::cases::runOut(runner, "diamond");
    ASSERT_TRUE(d.ok()) << d.why();
    EXPECT_TRUE(day52::checkDiamond(d.out, day52::cases::want()).passed);
}

TEST(Day52Planted, ExerciseStubFailsDiamondCleanly) {
    const std::string runner = runnerInDir("day52_runner_exercise");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const day52::cases::OutRun d = day52::cases::runOut(runner, "diamond");
    GRADING_ASSERT_RAN(d.outcome);  // it runs to the end: no fault, no hang
    ASSERT_TRUE(d.ok()) << d.why();
    const grading::GateResult diamond = day52::checkDiamond(d.out, day52::cases::want());
    EXPECT_FALSE(diamond.passed);
    EXPECT_THAT(diamond.message, MatchesRegex("index 0: got [-+0-9.e]+, want [-+0-9.e]+"));
    const day52::cases::StressResult s = day52::cases::runStress(runner);
    ASSERT_TRUE(s.ok()) << s.why();
    const grading::GateResult stress = day52::checkStress(s.runs, day52::cases::want(), s.hold);
    EXPECT_FALSE(stress.passed);
    EXPECT_THAT(stress.message, HasSubstr("(8 of 8 runs wrong)"));
}

}  // namespace
