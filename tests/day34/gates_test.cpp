// The day 34 gates on hand-made data: each gate's exact message on a
// planted discrepancy (where, got, want), and what each must not forgive.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "gates.h"
#include "harness/poison.h"
#include "heat_initial.h"
#include "reference.h"

namespace {

using grading::GateResult;

float poisonFloat() {
    float v = 0.0f;
    const uint32_t bits = grading::kPoisonWord;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
}

TEST(Day34Gates, StencilNamesKernelStepsRowColGotWant) {
    const std::vector<double> want = {1, 1, 1, 1, 1, 0.5, 0.25, 1, 1, 0.125, 0, 1, 1, 1, 1, 1};
    std::vector<float> got(want.begin(), want.end());
    EXPECT_TRUE(day34::checkStencil("heatStepTiled", 4, 4, got, want).passed);
    got[9] = 0.126f;
    const GateResult r = day34::checkStencil("heatStepTiled", 4, 4, got, want);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "34.stencil");
    EXPECT_EQ(r.message, "heatStepTiled wrong after 4 steps at row 2, col 1: got 0.126000002, want 0.125");
}

TEST(Day34Gates, StencilToleranceIsRelativeAndAbsoluteAtZero) {
    EXPECT_TRUE(day34::checkStencil("k", 1, 1, {1000.05f}, {1000.0}).passed);  // 5e-5 relative
    EXPECT_FALSE(day34::checkStencil("k", 1, 1, {1000.2f}, {1000.0}).passed);  // 2e-4 relative
    EXPECT_TRUE(day34::checkStencil("k", 1, 1, {5e-5f}, {0.0}).passed);        // scale 1 at want 0
    EXPECT_FALSE(day34::checkStencil("k", 1, 1, {2e-4f}, {0.0}).passed);
    EXPECT_EQ(day34::checkStencil("heatStepGlobal", 4, 1, {2e-4f}, {0.0}).message,
              "heatStepGlobal wrong after 4 steps at row 0, col 0: got 0.000199999995, want 0");
}

TEST(Day34Gates, StencilFailsOnNaNAndInfinity) {
    const GateResult nan = day34::checkStencil("heatStepTiled", 4, 1, {std::nanf("")}, {0.5});
    EXPECT_FALSE(nan.passed);
    EXPECT_EQ(nan.message, "heatStepTiled wrong after 4 steps at row 0, col 0: got nan, want 0.5");
    EXPECT_FALSE(day34::checkStencil("k", 4, 1, {std::numeric_limits<float>::infinity()}, {0.5}).passed);
}

TEST(Day34Gates, StencilNamesAWrongSize) {
    const GateResult r = day34::checkStencil("heatStepTiled", 4, 4, std::vector<float>(15), std::vector<double>(16));
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.message, "heatStepTiled after 4 steps: the grid has 15 cells, want 16 (4 x 4)");
}

TEST(Day34Gates, RingNamesKernelIndexRowColGotWant) {
    const std::vector<float> init = day34::initialGrid(5);
    std::vector<float> got = init;
    got[12] = 7.0f;  // the interior may change freely
    EXPECT_TRUE(day34::checkRing("heatStepGlobal", 4, 5, got, init).passed);
    got[9] = 0.5f;  // row 1, col 4: the right wall
    got[20] = 0.25f;  // row 4, col 0: later in row-major order
    const GateResult r = day34::checkRing("heatStepGlobal", 3, 5, got, init);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "34.ring");
    EXPECT_EQ(r.message, "heatStepGlobal moved a boundary cell after 3 steps: index 9 (row 1, col 4): got 0.5, want 0");
}

TEST(Day34Gates, RingIsExactAndSeesTheGuardPattern) {
    const std::vector<float> init = day34::initialGrid(4);
    std::vector<float> got = init;
    got[0] = std::nextafter(1.0f, 2.0f);  // one ulp is a move
    EXPECT_EQ(day34::checkRing("heatStepTiled", 4, 4, got, init).message,
              "heatStepTiled moved a boundary cell after 4 steps: index 0 (row 0, col 0): got 1.00000012, want 1");
    got[0] = -26711958.0f;  // 0xCBCBCBCB: what an uninitialised guarded buffer holds
    EXPECT_EQ(day34::checkRing("heatStepTiled", 3, 4, got, init).message,
              "heatStepTiled moved a boundary cell after 3 steps: index 0 (row 0, col 0): got -26711958, want 1 "
              "(never written: still the runner's poison)");
    got[0] = std::nanf("");
    EXPECT_FALSE(day34::checkRing("heatStepTiled", 4, 4, got, init).passed);
}

// ringCell walks the ring in row-major order: every cell onRing names,
// each once, and nothing else.
TEST(Day34Gates, RingCellsAreTheRingInRowMajorOrder) {
    for (int n : {3, 4, 5, 10}) {
        SCOPED_TRACE(n);
        std::vector<size_t> onRing;
        for (size_t i = 0; i < static_cast<size_t>(n * n); ++i) {
            if (day34::onRing(i, n)) onRing.push_back(i);
        }
        std::vector<size_t> walked(day34::ringCells(n));
        for (size_t k = 0; k < walked.size(); ++k) walked[k] = day34::ringCell(k, n);
        EXPECT_EQ(walked, onRing);
    }
}

// The other buffer's ring, all a runner sends of it, is judged as a whole
// grid's would be: the same first cell, the same message.
TEST(Day34Gates, RingCellsNameWhatTheWholeGridWould) {
    const std::vector<float> init = day34::initialGrid(5);
    std::vector<float> got = init;
    got[9] = 0.5f;
    got[20] = 0.25f;
    std::vector<float> ring(day34::ringCells(5));
    for (size_t k = 0; k < ring.size(); ++k) ring[k] = got[day34::ringCell(k, 5)];
    EXPECT_EQ(day34::checkRingCells("heatStepTiled", 3, 5, ring, init).message,
              day34::checkRing("heatStepTiled", 3, 5, got, init).message);
    ring.pop_back();
    EXPECT_EQ(day34::checkRingCells("heatStepTiled", 3, 5, ring, init).message,
              "heatStepTiled after 3 steps: the ring has 15 cells, want 16 (5 x 5)");
}

TEST(Day34Gates, CopyPolicyNamesIndexBothValuesAndInterval) {
    const std::vector<float> never = {1, 0.5f, 0.25f, 0, 1, 0.5f, 0.25f, 0, 1};
    EXPECT_TRUE(day34::checkCopyPolicy(3, never, never, 100).passed);
    std::vector<float> copied = never;
    copied[5] = 0.75f;
    const GateResult r = day34::checkCopyPolicy(3, never, copied, 100);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "34.copy_policy");
    EXPECT_EQ(r.message,
              "copy policy changed the answer at index 5 (row 1, col 2): 0.75 with the grid copied back every 100 "
              "steps, 0.5 never copied back");
    EXPECT_EQ(day34::checkCopyPolicy(3, never, copied, 1).message,
              "copy policy changed the answer at index 5 (row 1, col 2): 0.75 with the grid copied back every step, "
              "0.5 never copied back");
}

TEST(Day34Gates, CopyPolicyIsBitForBit) {
    const std::vector<float> never = {0.0f};
    EXPECT_FALSE(day34::checkCopyPolicy(1, never, {-0.0f}, 100).passed);  // equal values, different bits
    EXPECT_TRUE(day34::checkCopyPolicy(1, {std::nanf("")}, {std::nanf("")}, 100).passed);
    EXPECT_EQ(day34::checkCopyPolicy(2, {1, 2, 3, 4}, {1, 2, 3}, 1).message,
              "the grid copied back every step has 3 cells, want 4 (2 x 2)");
}

TEST(Day34Gates, MaxPrincipleNamesRMaxStepsAndInitialMax) {
    EXPECT_TRUE(day34::checkMaxPrinciple(0.24, 1.0f, 0, 400, 1.0f).passed);
    EXPECT_TRUE(day34::checkMaxPrinciple(0.25, 1.000005f, 0, 400, 1.0f).passed);  // inside the slack
    const GateResult r = day34::checkMaxPrinciple(0.25f, 1.5f, 0, 400, 1.0f);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "34.max_principle");
    EXPECT_EQ(r.message, "maximum principle broken at r = 0.250: max abs(u) is 1.5 after 400 steps, and it started at 1");
    const GateResult nan = day34::checkMaxPrinciple(0.24f, 0.5f, 12, 400, 1.0f);
    EXPECT_FALSE(nan.passed);
    EXPECT_EQ(nan.message,
              "maximum principle broken at r = 0.240: max abs(u) is 0.5 and 12 cells are not finite after 400 steps, "
              "and it started at 1");
    EXPECT_FALSE(day34::checkMaxPrinciple(0.24, 1.0001f, 0, 400, 1.0f).passed);
}

TEST(Day34Gates, UnstableNamesRMaxAndInitialMax) {
    EXPECT_TRUE(day34::checkUnstable(0.26f, 3.5e12f, 0, 400, 1.0f).passed);
    const GateResult r = day34::checkUnstable(day34::kUnstableR, 1.0f, 0, 400, 1.0f);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "34.unstable");
    EXPECT_EQ(r.message,
              "no growth past the bound at r = 0.260: max abs(u) is 1 after 400 steps, not above the initial max 1; "
              "a correct step multiplies the checkerboard by |1 - 8r| = 1.080 every step");
    EXPECT_EQ(day34::checkUnstable(0.26f, 0.0f, 4194304, 400, 1.0f).message,
              "no growth past the bound at r = 0.260: max abs(u) is 0 (and 4194304 cells are not finite) after 400 "
              "steps, not above the initial max 1; a correct step multiplies the checkerboard by |1 - 8r| = 1.080 "
              "every step");
}

TEST(Day34Gates, EveryTimedRunMustDoItsOwnStep) {
    EXPECT_TRUE(day34::checkTimedRuns("heatStepTiled", 10, {-1, -1, -1}, 3).passed);
    const GateResult r = day34::checkTimedRuns("heatStepTiled", 10, {-1, -1, 37}, 3);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "34.timing");
    EXPECT_EQ(r.message, "heatStepTiled's timed run 2: the cell at row 3, col 7 is not the course's answer to the run's "
                         "own grid: the run did not do its own step");
    // The first run that differs is named, the last one too.
    std::vector<int64_t> diff(10, -1);
    diff[9] = 0;
    EXPECT_NE(day34::checkTimedRuns("copyGrid", 10, diff, 10).message.find("timed run 9: the cell at row 0, col 0 is not "),
              std::string::npos);
    EXPECT_EQ(day34::checkTimedRuns("copyGrid", 10, {-1}, 10).message, "the runner checked 1 of copyGrid's 10 timed runs");
}

TEST(Day34Gates, TimingNamesTheFigure) {
    EXPECT_TRUE(day34::checkTimings({{"copyGrid one step, timed run 0", 0.01}}).passed);
    const GateResult r = day34::checkTimings({{"copyGrid one step, timed run 0", 0.01},
                                              {"1000 steps copied back every step", 0.0}});
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "34.timing");
    EXPECT_EQ(r.message, "1000 steps copied back every step is not a positive time: 0 ms");
    EXPECT_FALSE(day34::checkTimings({{"x", -1.0}}).passed);
    EXPECT_FALSE(day34::checkTimings({{"x", std::nan("")}}).passed);
    EXPECT_EQ(day34::checkTimings({}).message, "no timings were reported");
}

TEST(Day34Gates, StencilNamesACellTheKernelNeverWrote) {
    // The runner poisons the output's interior before every launch: a cell
    // still holding it was skipped, and the message says so.
    const std::vector<double> want = {1, 1, 1, 1, 0.378839038, 1, 1, 1, 1};
    std::vector<float> got(want.begin(), want.end());
    got[4] = poisonFloat();
    EXPECT_EQ(poisonFloat(), -26711958.0f);
    const GateResult r = day34::checkStencil("heatStepTiled", 4, 3, got, want);
    EXPECT_EQ(r.message,
              "heatStepTiled wrong after 4 steps at row 1, col 1: got -26711958, want 0.378839038 (never written: "
              "still the runner's poison)");
    // One step reads as one step (34.timing checks the timed one-step runs).
    EXPECT_EQ(day34::checkStencil("heatStepGlobal", 1, 3, got, want).message,
              "heatStepGlobal wrong after 1 step at row 1, col 1: got -26711958, want 0.378839038 (never written: "
              "still the runner's poison)");
}

TEST(Day34Gates, StencilCountsTheCellsNeverWritten) {
    // 5 x 5: a kernel that skipped column 3; its neighbour in column 2 read
    // the poison a step later and is the first wrong cell in row-major order.
    std::vector<double> want(25, 0.5);
    std::vector<float> got(want.begin(), want.end());
    got[1 * 5 + 2] = -6e6f;
    for (int row = 1; row <= 3; ++row) got[row * 5 + 3] = poisonFloat();
    EXPECT_EQ(day34::checkStencil("heatStepTiled", 4, 5, got, want).message,
              "heatStepTiled wrong after 4 steps at row 1, col 2: got -6000000, want 0.5; 3 cells were never written "
              "(still the runner's poison), the first at row 1, col 3");
    // The first wrong cell is itself unwritten: the count alone.
    got[1 * 5 + 2] = 0.5f;
    EXPECT_EQ(day34::checkStencil("heatStepTiled", 4, 5, got, want).message,
              "heatStepTiled wrong after 4 steps at row 1, col 3: got -26711958, want 0.5 (never written: still the "
              "runner's poison); 3 cells in all were never written");
}

TEST(Day34Gates, SnapshotNamesTheCellTheHostCopyMissed) {
    const std::vector<float> final = {1, 0.5f, 0.25f, 0, 1, 0.5f, 0.25f, 0, 1};
    EXPECT_TRUE(day34::checkSnapshot(3, 1000, 100, final, final).passed);
    std::vector<float> snapshot = final;
    snapshot[4] = 0.0f;  // e.g. the copy taken from the other buffer, or never taken
    const GateResult r = day34::checkSnapshot(3, 1000, 100, final, snapshot);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "34.copy_policy");
    EXPECT_EQ(r.message,
              "the host copy of the grid copied back every 100 steps after step 1000 is not the final grid at index 4 "
              "(row 1, col 1): 0 on the host, 1 on the device");
    EXPECT_EQ(day34::checkSnapshot(3, 1000, 1, final, {1, 2}).message,
              "the host copy of the grid copied back every step has 2 cells, want 9 (3 x 3)");
}

TEST(Day34Gates, CopyIsBitForBitAndNamesTheCell) {
    const std::vector<float> input = day34::initialGrid(4);
    EXPECT_TRUE(day34::checkCopy(4, input, input).passed);
    std::vector<float> got = input;
    got[6] = poisonFloat();
    const GateResult r = day34::checkCopy(4, got, input);
    EXPECT_EQ(r.id, "34.timing");
    EXPECT_EQ(r.message,
              "copyGrid's output differs from its input at index 6 (row 1, col 2): got -26711958, want 0 (never "
              "written: still the runner's poison)");
    got = input;
    got[5] = -0.0f;  // equal as a float, not as bits
    EXPECT_FALSE(day34::checkCopy(4, got, input).passed);
    EXPECT_EQ(day34::checkCopy(4, {1}, input).message, "copyGrid's output has 1 cells, want 16 (4 x 4)");
}

TEST(Day34Gates, RingIsBitForBit) {
    const std::vector<float> init = day34::initialGrid(4);
    std::vector<float> got = init;
    got[3] = -0.0f;  // the top-right corner, cold: -0 is a write of the ring too
    EXPECT_EQ(day34::checkRing("heatStepTiled", 4, 4, got, init).message,
              "heatStepTiled moved a boundary cell after 4 steps: index 3 (row 0, col 3): got -0, want 0");
}

TEST(Day34Gates, ClockedStepsProveTheirWorkByTheEnergyTheyLeave) {
    // A kernel that rounds differently stays far inside the tolerance.
    EXPECT_TRUE(day34::checkClockedSteps("heatStepTiled", 2000, 1000.0 * (1 + 1e-5), 0, 1000.0, 0).passed);
    // One step in a hundred skipped leaves more energy than the tolerance allows.
    const grading::GateResult skipped = day34::checkClockedSteps("heatStepTiled", 2000, 1002.0, 0, 1000.0, 0);
    EXPECT_FALSE(skipped.passed);
    EXPECT_EQ(skipped.message,
              "heatStepTiled's 2000 clocked steps left a grid of energy 1002, the instructor's on the same input 1000 "
              "(relative tolerance 0.001): the timed steps were not all done");
    EXPECT_EQ(day34::checkClockedSteps("heatStepTiled", 2000, 123456.789012345, 0, 123987.654321098, 0).message,
              "heatStepTiled's 2000 clocked steps left a grid of energy 123456.789, the instructor's on the same "
              "input 123987.654 (relative tolerance 0.001): the timed steps were not all done");
    EXPECT_FALSE(day34::checkClockedSteps("heatStepTiled", 2000, 998.0, 0, 1000.0, 0).passed);
    EXPECT_FALSE(day34::checkClockedSteps("heatStepTiled", 2000, std::nan(""), 0, 1000.0, 0).passed);
    EXPECT_EQ(day34::checkClockedSteps("heatStepTiled", 1000, 1000.0, 3, 1000.0, 0).message,
              "heatStepTiled's 1000 clocked steps left 3 cells that are not finite, the instructor's on the same "
              "input 0");
}

}  // namespace
