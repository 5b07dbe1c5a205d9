// The day 52 host side without a GPU: the fmaf reference against independent
// loops, the sum order, each gate's exact message on planted discrepancies,
// and the report text.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "day52_gates.h"
#include "day52_reference.h"
#include "day52_report.h"
#include "forkjoin_constants.h"

namespace {

using day52::kElems;

// Written out again here, apart from day52_reference.cpp.
float independentGrind(float x, float b) {
    for (int step = 0; step < 512; ++step) x = std::fmaf(0.999f, x, b);
    return x;
}

TEST(Day52Reference, GrindIsTheFmafChainInTheKernelsOrder) {
    for (float x : {0.0f, 0.01f, 1.37f, 2.5f, 401.0f}) {
        EXPECT_EQ(day52::grindHost(x, day52::kA, 1.0f, day52::kIters), independentGrind(x, 1.0f)) << x;
        EXPECT_EQ(day52::grindHost(x, day52::kA, 0.125f, day52::kIters), independentGrind(x, 0.125f)) << x;
        // The closed form, x_n = a^n x + b (1 - a^n) / (1 - a), in double:
        // 512 roundings stay well inside 1e-4 of it.
        const double an = std::pow(0.999, 512);
        const double closed = an * x + 1.0 * (1.0 - an) / (1.0 - 0.999);
        EXPECT_NEAR(day52::grindHost(x, day52::kA, 1.0f, day52::kIters), closed, 1e-4 * closed) << x;
    }
    EXPECT_EQ(day52::grindHost(3.0f, day52::kA, 1.0f, 0), 3.0f);
    EXPECT_EQ(day52::grindHost(3.0f, 0.5f, 1.0f, 1), 2.5f);
}

TEST(Day52Reference, SumFourAddsLeftToRightInFloat) {
    const float half = std::ldexp(1.0f, -24);  // half an ulp of 1
    // Left to right each half-ulp rounds away (ties to even); paired first,
    // they make a whole ulp. The reference must be the first, like sumFour.
    EXPECT_EQ(day52::sumFourHost(1.0f, half, half, 0.0f), 1.0f);
    EXPECT_NE(1.0f + (half + half), 1.0f);
    EXPECT_EQ(day52::sumFourHost(1.0f, 2.0f, 3.0f, 4.0f), 10.0f);
}

TEST(Day52Reference, DiamondMatchesAPlainLoopAtSampleIndices) {
    const std::vector<float> in = day52::courseInputs();
    ASSERT_EQ(in.size(), kElems);
    const std::vector<float> out = day52::diamondHost(in);
    ASSERT_EQ(out.size(), kElems);
    const float b[4] = {0.125f, 0.25f, 0.5f, 1.0f};
    for (size_t i : {size_t{0}, size_t{1}, size_t{250}, size_t{251}, size_t{252}, size_t{77777}, kElems - 1}) {
        const float x = static_cast<float>(i % 251) * 0.01f;
        EXPECT_EQ(in[i], x) << i;
        const float mid = independentGrind(x, 1.0f);
        float want = independentGrind(mid, b[0]);
        for (int j = 1; j < 4; ++j) want = want + independentGrind(mid, b[j]);
        EXPECT_EQ(out[i], want) << "index " << i;
    }
    // 251 distinct inputs, so 251 distinct outputs at most (the grind is monotone: exactly 251).
    EXPECT_EQ(std::set<float>(out.begin(), out.end()).size(), 251u);
}

TEST(Day52Reference, ReadingZerosInsteadOfTheUpstreamIsFarOff) {
    // What a branch that ran too early computes: the stress gate relies on it
    // being wrong by far more than the tolerance.
    const float x = day52::courseInput(7);
    const float right = day52::diamondElementHost(x);
    float fromZeros = 0.0f;
    for (int j = 0; j < 4; ++j) fromZeros += day52::grindHost(0.0f, day52::kA, day52::kBranchB[j], day52::kIters);
    EXPECT_FALSE(day52::closeEnough(fromZeros, right, day52::kRelTolerance));
    EXPECT_GT(std::fabs(fromZeros - right), 100.0f);
}

TEST(Day52Gates, CloseEnoughIsRelativeAndNeverForNaN) {
    EXPECT_TRUE(day52::closeEnough(1000.0005f, 1000.0f, 1e-6f));
    EXPECT_FALSE(day52::closeEnough(1000.01f, 1000.0f, 1e-6f));
    EXPECT_TRUE(day52::closeEnough(5e-7f, 0.0f, 1e-6f));  // scale 1 where want is 0
    EXPECT_FALSE(day52::closeEnough(2e-6f, 0.0f, 1e-6f));
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(day52::closeEnough(nan, 1.0f, 1e-6f));
    EXPECT_FALSE(day52::closeEnough(1.0f, nan, 1e-6f));
}

TEST(Day52Gates, DiamondAndSerialNameIndexGotWant) {
    const std::vector<float> want = {1.0f, 2.0f, 2.5f, 4.0f};
    EXPECT_TRUE(day52::checkDiamond(want, want).passed);
    const grading::GateResult d = day52::checkDiamond({1.0f, 2.0f, 1.5f, 0.0f}, want);
    EXPECT_FALSE(d.passed);
    EXPECT_EQ(d.id, "52.diamond");
    EXPECT_EQ(d.message, "index 2: got 1.5, want 2.5");
    const grading::GateResult s = day52::checkSerial({1.0f, 2.0f, 2.5f, -26711958.0f}, want);
    EXPECT_EQ(s.id, "52.serial");
    EXPECT_EQ(s.message, "index 3: got -26711958, want 4");
    EXPECT_EQ(day52::checkDiamond({1.0f}, want).message, "got 1 values, want 4");
    EXPECT_EQ(day52::checkDiamond({1.0f, std::nanf(""), 2.5f, 4.0f}, want).message, "index 1: got nan, want 2");
    EXPECT_EQ(day52::countMismatches({1.0f, 0.0f, 0.0f, 4.0f}, want, 1e-6f), 2u);
}

TEST(Day52Gates, StressNamesTheFirstWrongRunAndCountsThem) {
    const std::vector<float> want = {3.0f, 5.0f, 7.0f};
    const day52::StressHold hold{20.0, 20.0};
    std::vector<day52::StressRun> runs(4);
    for (int r = 0; r < 4; ++r) runs[r] = {want, r % 4};
    EXPECT_TRUE(day52::checkStress(runs, want, hold).passed);
    runs[1].out[2] = 0.0f;
    runs[3].out[0] = 1.0f;
    const grading::GateResult g = day52::checkStress(runs, want, hold);
    EXPECT_FALSE(g.passed);
    EXPECT_EQ(g.id, "52.stress");
    EXPECT_EQ(g.message, "run 1 (upstream held 20 ms, branch 1 held 20 ms): index 2: got 0, want 7 (2 of 4 runs wrong)");
    EXPECT_EQ(day52::checkStress({}, want, hold).message, "no stress runs were reported");
}

TEST(Day52Gates, NoTimingNamesTheErrorReturned) {
    const day52::ElapsedProbe right{"fork, branchDone[0]", "cudaErrorInvalidResourceHandle", "cudaSuccess"};
    EXPECT_TRUE(day52::checkNoTiming({right, right}).passed);
    const grading::GateResult timed =
        day52::checkNoTiming({{"fork, branchDone[0]", "cudaSuccess", "cudaSuccess"}});
    EXPECT_FALSE(timed.passed);
    EXPECT_EQ(timed.id, "52.no_timing");
    EXPECT_EQ(timed.message,
              "cudaEventElapsedTime(fork, branchDone[0]): expected cudaErrorInvalidResourceHandle, got cudaSuccess");
    const grading::GateResult stuck =
        day52::checkNoTiming({right, {"fork, branchDone[1]", "cudaErrorInvalidResourceHandle", "cudaErrorUnknown"}});
    EXPECT_EQ(stuck.message,
              "cudaEventElapsedTime(fork, branchDone[1]): the error slot still held cudaErrorUnknown after "
              "cudaGetLastError() cleared it");
    EXPECT_EQ(day52::checkNoTiming({}).message, "no cudaEventElapsedTime probe was reported");
}

TEST(Day52Gates, OverlapIsGatedFromTwentyFourSms) {
    const day52::OverlapVerdict good = day52::checkOverlap(2.8, 1.15, 132);
    EXPECT_TRUE(good.gated);
    EXPECT_TRUE(good.result.passed);
    EXPECT_NEAR(good.ratio, 2.8 / 1.15, 1e-12);
    EXPECT_EQ(good.note, "serial 2.800 ms / diamond 1.150 ms = 2.43x on 132 SMs");

    const day52::OverlapVerdict flat = day52::checkOverlap(2.8, 2.75, 132);
    EXPECT_TRUE(flat.gated);
    EXPECT_FALSE(flat.result.passed);
    EXPECT_EQ(flat.result.id, "52.overlap");
    EXPECT_EQ(flat.result.message,
              "serial 2.800 ms / diamond 2.750 ms = 1.02x on 132 SMs, want >= 1.30x: the branches are not overlapping");

    EXPECT_TRUE(day52::checkOverlap(1.3, 1.0, 24).result.passed);  // the bound itself passes
    EXPECT_FALSE(day52::checkOverlap(1.29, 1.0, 24).result.passed);

    const day52::OverlapVerdict small = day52::checkOverlap(2.8, 2.75, 20);
    EXPECT_FALSE(small.gated);
    EXPECT_EQ(small.note,
              "serial 2.800 ms / diamond 2.750 ms = 1.02x on 20 SMs: reported, not gated (the gate needs >= 24 SMs, "
              "room for the upstream and all four branches at once)");

    const day52::OverlapVerdict zero = day52::checkOverlap(2.8, 0.0, 132);
    EXPECT_FALSE(zero.result.passed);
    EXPECT_EQ(zero.result.message, "the diamond time is not a positive time: 0 ms on 132 SMs");
}

TEST(Day52Gates, OverlapNeedsARightTimedDiamond) {
    EXPECT_TRUE(day52::checkTimedDiamond({1.0f, 2.0f}, {1.0f, 2.0f}).passed);
    const grading::GateResult g = day52::checkTimedDiamond({1.0f, 0.0f}, {1.0f, 2.0f});
    EXPECT_EQ(g.id, "52.overlap");
    EXPECT_EQ(g.message, "the timed diamond's result is wrong (index 1: got 0, want 2), so its time is not graded");
}

TEST(Day52ReportText, RaceObservationSaysWhatZeroMeans) {
    const std::string s = day52::raceObservation(0, kElems);
    EXPECT_NE(s.find("0 of 1048576 elements wrong"), std::string::npos) << s;
    EXPECT_NE(s.find("A count of 0 does not make the broken order correct"), std::string::npos) << s;
    EXPECT_NE(s.find("not a gate"), std::string::npos) << s;
}

TEST(Day52ReportText, TimingTableShowsTheRatioAndWhetherItIsGated) {
    const grading::TimingStats serial = grading::summarize({2.9f, 2.8f, 2.7f});
    const grading::TimingStats diamond = grading::summarize({1.1f, 1.2f, 1.0f});
    const std::string gated = day52::timingTable(serial, diamond, "NVIDIA H200", 132);
    EXPECT_NE(gated.find("serial / diamond (medians): 2.55x (gated: >= 1.30x on >= 24 SMs)"), std::string::npos)
        << gated;
    EXPECT_NE(gated.find("  serial        2.800      2.700      2.900"), std::string::npos) << gated;
    const std::string small = day52::timingTable(serial, diamond, "Tesla T4", 20);
    EXPECT_NE(small.find("reported, not gated: under 24 SMs"), std::string::npos) << small;
}

}  // namespace
