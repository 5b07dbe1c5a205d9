// The day 34 gates and host reference on hand-made data: each gate's exact
// message on a planted discrepancy, the double reference on a 6 x 6 grid
// worked by hand, the maximum principle in double, and the report arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "day34_gates.h"
#include "day34_reference.h"
#include "day34_report.h"
#include "heat_constants.h"
#include "heat_initial.h"

namespace {

using grading::GateResult;

// ---- the host reference

// The course's initial condition on 6 x 6: n / 8 = 0, so the "square" is the
// single cell (3, 3); the left wall is hot.
TEST(Day34Reference, InitialGridOfSixBySix) {
    const std::vector<float> g = day34::initialGrid(6);
    ASSERT_EQ(g.size(), 36u);
    for (int row = 0; row < 6; ++row) {
        for (int col = 0; col < 6; ++col) {
            const float want = (col == 0 || (row == 3 && col == 3)) ? 1.0f : 0.0f;
            EXPECT_EQ(g[row * 6 + col], want) << "row " << row << ", col " << col;
        }
    }
}

TEST(Day34Reference, InitialGridSquareIsOddAndCentred) {
    // n = 2048: n / 8 = 256, square rows and columns 768 .. 1280, 513 wide.
    const std::vector<float> g = day34::initialGrid(day34::kN);
    const size_t n = day34::kN;
    size_t hot = 0;
    for (float v : g) hot += v == 1.0f ? 1 : 0;
    EXPECT_EQ(hot, n + 513u * 513u);  // the wall plus the square (they do not meet)
    EXPECT_EQ(g[767 * n + 768], 0.0f);
    EXPECT_EQ(g[768 * n + 768], 1.0f);
    EXPECT_EQ(g[1280 * n + 1280], 1.0f);
    EXPECT_EQ(g[1281 * n + 1280], 0.0f);
    EXPECT_EQ(g[1280 * n + 1281], 0.0f);
    EXPECT_EQ(day34::maxAbs(g), 1.0f);
}

// At r = 1/4 the centre weight is zero and every new value is the plain
// average of four old ones, so after k steps every value is a multiple of
// 4^-k and exact in double. Worked by hand from the initial grid above; e.g.
// step 1: (1, 1) = (wall 1 + 0 + 0 + 0) / 4, (3, 2) = (0 + hot 1 + 0 + 0) / 4,
// (3, 3) = 0 (its four neighbours are cold); step 2: (1, 1) = (1 + 0 + 0 +
// 1/4) / 4 = 5/16, (2, 2) = (1/4 + 1/4 + 0 + 1/4) / 4 = 3/16.
TEST(Day34Reference, FourStepsOfSixBySixAtAQuarterByHand) {
    const std::vector<float> init = day34::initialGrid(6);
    // Interior rows 1..4, columns 1..4, in units of 4^-k after step k.
    const int want[4][4][4] = {
        {{1, 0, 0, 0}, {1, 0, 1, 0}, {1, 1, 0, 1}, {1, 0, 1, 0}},
        {{5, 1, 1, 0}, {6, 3, 0, 2}, {7, 1, 4, 0}, {5, 3, 0, 2}},
        {{23, 9, 1, 3}, {31, 8, 10, 0}, {28, 17, 1, 8}, {26, 6, 9, 0}},
        {{104, 32, 22, 1}, {123, 67, 10, 21}, {138, 43, 44, 1}, {98, 52, 7, 17}},
    };
    for (int steps = 1; steps <= 4; ++steps) {
        const std::vector<double> got = day34::hostReference(init, 6, steps, 0.25);
        const double unit = std::pow(4.0, -steps);
        for (int row = 0; row < 6; ++row) {
            for (int col = 0; col < 6; ++col) {
                const bool ring = row == 0 || col == 0 || row == 5 || col == 5;
                const double expect = ring ? init[row * 6 + col] : want[steps - 1][row - 1][col - 1] * unit;
                EXPECT_EQ(got[row * 6 + col], expect) << "after " << steps << " steps, row " << row << ", col " << col;
            }
        }
    }
}

// One step at the course's r, cell by cell as weights: (1 - 4r) * centre + r * neighbours.
TEST(Day34Reference, OneStepAtPointTwoFourIsTheWeightedSum) {
    const std::vector<float> init = day34::initialGrid(6);
    const double r = 0.24;
    const std::vector<double> got = day34::hostReference(init, 6, 1, r);
    EXPECT_DOUBLE_EQ(got[1 * 6 + 1], r * 1.0);               // the wall to the west
    EXPECT_DOUBLE_EQ(got[3 * 6 + 3], (1.0 - 4.0 * r) * 1.0);  // the hot cell itself: 0.04
    EXPECT_DOUBLE_EQ(got[3 * 6 + 2], r * 1.0);               // hot cell to the east
    EXPECT_DOUBLE_EQ(got[3 * 6 + 1], r * 1.0);               // wall west; hot cell two away does not count
    EXPECT_DOUBLE_EQ(got[1 * 6 + 3], 0.0);
    EXPECT_DOUBLE_EQ(got[0], 1.0);  // ring copied
}

// The discrete maximum principle, in double, for the course's initial
// condition: at r <= 1/4 every weight is non-negative and they sum to one, so
// the values stay inside [0, 1]. Past the bound the checkerboard grows.
TEST(Day34Reference, MaximumPrincipleHoldsInDoubleAtOrUnderAQuarter) {
    const int n = 64;
    const std::vector<float> init = day34::initialGrid(n);
    for (double r : {0.24, 0.25, 0.1}) {
        std::vector<double> cur(init.begin(), init.end());
        std::vector<double> next(cur.size());
        for (int step = 1; step <= day34::kStabilitySteps; ++step) {
            day34::heatStepHost(cur.data(), next.data(), n, r);
            cur.swap(next);
            double lo = 0.0, hi = 0.0;
            for (double v : cur) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            ASSERT_LE(hi, 1.0 + 1e-12) << "r = " << r << ", step " << step;
            ASSERT_GE(lo, -1e-12) << "r = " << r << ", step " << step;
        }
    }
}

TEST(Day34Reference, PastAQuarterTheGridGrowsInDouble) {
    const int n = 64;
    const std::vector<double> got =
        day34::hostReference(day34::initialGrid(n), n, day34::kStabilitySteps, day34::kUnstableR);
    EXPECT_GT(day34::maxAbs(got), 1e3);
}

TEST(Day34Reference, MaxAbsSkipsNaNAndCountNonFiniteSeesIt) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(day34::maxAbs(std::vector<float>{0.5f, nan, -2.0f}), 2.0f);
    EXPECT_EQ(day34::countNonFinite({0.5f, nan, -inf, 1.0f}), 2);
    EXPECT_TRUE(day34::onRing(0, 4));
    EXPECT_TRUE(day34::onRing(7, 4));   // row 1, col 3
    EXPECT_FALSE(day34::onRing(5, 4));  // row 1, col 1
    EXPECT_TRUE(day34::onRing(13, 4));  // row 3, col 1
}

// ---- the gates

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
              "heatStepTiled moved a boundary cell after 3 steps: index 0 (row 0, col 0): got -26711958, want 1");
    got[0] = std::nanf("");
    EXPECT_FALSE(day34::checkRing("heatStepTiled", 4, 4, got, init).passed);
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

// ---- the report

TEST(Day34ReportText, Arithmetic) {
    // One read and one write of 2048^2 floats in 1 ms: 33.554432 GB/s.
    EXPECT_NEAR(day34::bandwidthGBs(1.0, day34::kCells), 33.554432, 1e-9);
    EXPECT_EQ(day34::bandwidthGBs(0.0, day34::kCells), 0.0);
    // 16 MiB a copy: 10 copies are 160 MiB, 1000 are 15.625 GiB.
    EXPECT_DOUBLE_EQ(day34::gibToHost(0, 1000, day34::kCells), 0.0);
    EXPECT_DOUBLE_EQ(day34::gibToHost(100, 1000, day34::kCells), 0.15625);
    EXPECT_DOUBLE_EQ(day34::gibToHost(1, 1000, day34::kCells), 15.625);
    EXPECT_EQ(day34::policyLabel(0), "never copied back");
    EXPECT_EQ(day34::policyLabel(100), "copied back every 100 steps");
    EXPECT_EQ(day34::policyLabel(1), "copied back every step");
}

TEST(Day34ReportText, TablesHoldTheCourseColumns) {
    const std::string one = day34::oneStepTable({{"copyGrid, no stencil", 0.02}, {"heatStepGlobal", 0.025}},
                                                day34::kCells, 3, 10);
    EXPECT_NE(one.find("% of copy"), std::string::npos) << one;
    EXPECT_NE(one.find("80.0"), std::string::npos) << one;  // 0.02 / 0.025
    const std::string policy = day34::policyTable({{0, 10.0}, {100, 15.0}, {1, 1000.0}}, 1000, day34::kCells);
    EXPECT_NE(policy.find("copied back every step"), std::string::npos) << policy;
    EXPECT_NE(policy.find("100.0x"), std::string::npos) << policy;
    EXPECT_NE(policy.find("15.6"), std::string::npos) << policy;  // GiB to host
    const std::string stability = day34::stabilityTable({{0.26, 3.5e12, true}}, 400, 1.0);
    EXPECT_NE(stability.find("-0.040"), std::string::npos) << stability;  // 1 - 4r
    EXPECT_NE(stability.find("1.080"), std::string::npos) << stability;   // |1 - 8r|
    EXPECT_NE(stability.find("yes"), std::string::npos) << stability;
}

}  // namespace
