// Every day 34 gate must bite. Each planted bug is its own runner (see
// harness/day34/CMakeLists.txt) and must trip the gate meant for it, with the
// message the spec names; the untouched exercise stub must fail cleanly.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <iostream>

#include "day34_cases.h"
#include "day34_gates.h"
#include "harness/testing.h"
#include "heat_constants.h"

namespace {

using ::testing::MatchesRegex;
using namespace day34::cases;
using grading::GateResult;
using grading::testing::runnerInDir;

// "<kernel> wrong after 4 steps at row R, col C: got G, want W"
const char* const kStencilMessage =
    "heatStepTiled wrong after 4 steps at row [0-9]+, col [0-9]+: got (-?nan|-?inf|[-+.e0-9]+), want [-+.e0-9]+";

TEST(Day34Planted, OnlyOneBufferInitialisedFailsRingNamingTheCell) {
    const std::string runner = runnerInDir("day34_runner_planted_one_buffer");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    // The first buffer keeps its ring, so the grid after 4 steps looks right
    // on the wall; the second buffer (the grid after 3) still holds the
    // guard pattern 0xCBCBCBCB where its ring should be.
    for (const std::string& kernel : kernels()) {
        const StepRun run = runStep(runner, kernel, day34::kCheckSteps);
        GRADING_ASSERT_RAN(run.outcome);
        ASSERT_EQ(run.problem, "");
        const GateResult ring = ringGate(kernel, run);
        EXPECT_FALSE(ring.passed) << kernel;
        EXPECT_EQ(ring.message, kernelName(kernel) +
                                    " moved a boundary cell after 3 steps: index 0 (row 0, col 0): got -26711958, "
                                    "want 1");
    }
}

TEST(Day34Planted, ApronOneRowShortFailsStencil) {
    const std::string runner = runnerInDir("day34_runner_planted_apron_row_short");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const StepRun run = runStep(runner, "tiled", day34::kCheckSteps);
    GRADING_ASSERT_RAN(run.outcome);
    const GateResult stencil = stencilGate("tiled", run);
    EXPECT_FALSE(stencil.passed);
    EXPECT_THAT(stencil.message, MatchesRegex(kStencilMessage));
    EXPECT_TRUE(ringGate("tiled", run).passed);  // the ring is never written, only read wrong
    // The course's global kernel in the same runner is untouched.
    EXPECT_TRUE(stencilGate("global", runStep(runner, "global", day34::kCheckSteps)).passed);
}

// The missing barrier with the race made certain: the planted kernel poisons
// the apron with NaN and holds every warp but the first back before its
// loads, so the first warp reads neighbours that are not there yet.
TEST(Day34Planted, MissingBarrierExposedFailsStencil) {
    const std::string runner = runnerInDir("day34_runner_planted_no_sync_exposed");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const StepRun run = runStep(runner, "tiled", day34::kCheckSteps);
    GRADING_ASSERT_RAN(run.outcome);
    const GateResult stencil = stencilGate("tiled", run);
    EXPECT_FALSE(stencil.passed);
    EXPECT_THAT(stencil.message, MatchesRegex(kStencilMessage));
}

// The plain missing barrier, as a student would write it. It is a race, so
// one run may pass by luck; it must fail on at least one of a few runs. (A
// warp that finishes its single fill pass reads the bottom halo rows, which
// other warps load in their second pass a full global-memory latency later,
// so in practice the first run already fails.)
TEST(Day34Planted, MissingBarrierFailsStencilOnSomeRun) {
    const std::string runner = runnerInDir("day34_runner_planted_no_sync");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    constexpr int kAttempts = 5;
    int failed = 0;
    int attempts = 0;
    std::string message;
    while (attempts < kAttempts && failed == 0) {
        ++attempts;
        const StepRun run = runStep(runner, "tiled", day34::kCheckSteps);
        GRADING_ASSERT_RAN(run.outcome);
        const GateResult stencil = stencilGate("tiled", run);
        if (!stencil.passed) {
            ++failed;
            message = stencil.message;
        }
    }
    ::testing::Test::RecordProperty("attempts_until_failure", std::to_string(attempts));
    std::cout << "missing barrier: 34.stencil failed on attempt " << attempts << " of at most " << kAttempts << "\n";
    EXPECT_EQ(failed, 1) << "the race passed " << kAttempts << " runs in a row";
    if (failed == 1) {
        EXPECT_THAT(message, MatchesRegex(kStencilMessage));
    }
}

// The copy-back has its arguments the wrong way round and uploads the
// (never-filled, zero) host snapshot over the device grid, so after the last
// copy the whole grid is 0 and the hot corner is the first difference.
TEST(Day34Planted, CopyBackThatWritesTheDeviceFailsCopyPolicy) {
    const std::string runner = runnerInDir("day34_runner_planted_copy_back_writes");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const PolicyRun run = runPolicy(runner);
    GRADING_ASSERT_RAN(run.outcome);
    const GateResult policy = copyPolicyGate(run);
    EXPECT_FALSE(policy.passed);
    EXPECT_EQ(policy.message,
              "copy policy changed the answer at index 0 (row 0, col 0): 0 with the grid copied back every 100 steps, 1 "
              "never copied back");
    // The kernels are the reference's: a plain run is still right.
    EXPECT_TRUE(stencilGate("tiled", runStep(runner, "tiled", day34::kCheckSteps)).passed);
}

TEST(Day34Planted, ClampedOutputFailsUnstableButNotMaxPrinciple) {
    const std::string runner = runnerInDir("day34_runner_planted_clamp");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const StabilityRun run = runStability(runner, "tiled");
    GRADING_ASSERT_RAN(run.outcome);
    const GateResult unstable = unstableGate(run);
    EXPECT_FALSE(unstable.passed);
    EXPECT_EQ(unstable.message,
              "no growth past the bound at r = 0.260: max abs(u) is 1 after 400 steps, not above the initial max 1; "
              "a correct step multiplies the checkerboard by |1 - 8r| = 1.080 every step");
    EXPECT_TRUE(maxPrincipleGate(run).passed) << maxPrincipleGate(run).message;
    // Harmless where the exact values stay in [0, 1].
    EXPECT_TRUE(stencilGate("tiled", runStep(runner, "tiled", day34::kCheckSteps)).passed);
}

TEST(Day34Planted, ExerciseStubFailsStencilCleanly) {
    const std::string runner = runnerInDir("day34_runner_exercise");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const StepRun run = runStep(runner, "tiled", day34::kCheckSteps);
    GRADING_ASSERT_RAN(run.outcome);  // it runs to the end: no fault, no hang
    ASSERT_EQ(run.problem, "");
    // The stub writes nothing, so both buffers still hold the initial grid and
    // the first wrong cell is the first interior one, next to the hot wall.
    const GateResult stencil = stencilGate("tiled", run);
    EXPECT_FALSE(stencil.passed);
    const double want = checkReference()[static_cast<size_t>(day34::kN) + 1];
    EXPECT_EQ(stencil.message,
              "heatStepTiled wrong after 4 steps at row 1, col 1: got 0, want " + day34::formatValue(want));
    EXPECT_TRUE(ringGate("tiled", run).passed);
}

}  // namespace
