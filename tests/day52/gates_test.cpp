// The day 52 host side without a GPU: the fmaf reference against independent
// loops, the sum order, the seeded inputs, each gate's exact message on
// hand-made data, the time limits and the report text.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "cases.h"
#include "forkjoin_constants.h"
#include "gates.h"
#include "grading_hooks.h"
#include "inputs.h"
#include "protocol.h"
#include "reference.h"
#include "report.h"

namespace {

using day52::kElems;

// Written out again here, apart from reference.cpp.
float independentGrind(float x, float b) {
    for (int step = 0; step < 512; ++step) x = std::fmaf(0.999f, x, b);
    return x;
}

float independentDiamond(float x) {
    const float b[4] = {0.125f, 0.25f, 0.5f, 1.0f};
    const float mid = independentGrind(x, 1.0f);
    float want = independentGrind(mid, b[0]);
    for (int j = 1; j < 4; ++j) want = want + independentGrind(mid, b[j]);
    return want;
}

uint32_t bitsOf(float v) {
    uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return bits;
}

TEST(Day52Reference, GrindIsTheFmafChainInTheKernelsOrder) {
    for (float x : {0.0f, 0.01f, 1.37f, 2.5f, 401.0f, -512.0f}) {
        EXPECT_EQ(day52::grindHost(x, day52::kA, 1.0f, day52::kIters), independentGrind(x, 1.0f)) << x;
        EXPECT_EQ(day52::grindHost(x, day52::kA, 0.125f, day52::kIters), independentGrind(x, 0.125f)) << x;
        // The closed form, x_n = a^n x + b (1 - a^n) / (1 - a), in double:
        // 512 roundings stay well inside 1e-4 of it.
        const double an = std::pow(0.999, 512);
        const double closed = an * x + 1.0 * (1.0 - an) / (1.0 - 0.999);
        EXPECT_NEAR(day52::grindHost(x, day52::kA, 1.0f, day52::kIters), closed, 1e-4 * std::fabs(closed)) << x;
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

TEST(Day52Reference, CourseInputMatchesAPlainLoopAtSampleIndices) {
    const std::vector<float> in = day52::diamondInput(day52::kCourseInputKey);
    ASSERT_EQ(in.size(), kElems);
    const std::vector<float> out = day52::diamondHost(in);
    ASSERT_EQ(out.size(), kElems);
    for (size_t i : {size_t{0}, size_t{1}, size_t{250}, size_t{251}, size_t{252}, size_t{77777}, kElems - 1}) {
        const float x = static_cast<float>(i % 251) * 0.01f;
        EXPECT_EQ(in[i], x) << i;
        EXPECT_EQ(out[i], independentDiamond(x)) << "index " << i;
    }
    // 251 distinct inputs, so 251 distinct outputs at most (the grind is monotone: exactly 251).
    EXPECT_EQ(std::set<float>(out.begin(), out.end()).size(), 251u);
}

TEST(Day52Inputs, SeededInputsAreDeterministicDistinctAndInRange) {
    const std::vector<float> a = day52::diamondInput(12345);
    ASSERT_EQ(a.size(), kElems);
    EXPECT_EQ(a, day52::diamondInput(12345));  // both sides of the runner build the same bits
    const std::vector<float> b = day52::diamondInput(12346);
    size_t same = 0;
    for (size_t i = 0; i < kElems; ++i) same += bitsOf(a[i]) == bitsOf(b[i]);
    EXPECT_LT(same, kElems / 100) << "neighbouring keys must give different inputs";
    std::set<uint32_t> distinct;
    for (float x : a) {
        ASSERT_TRUE(x >= -512.0f && x < 512.0f) << x;
        ASSERT_EQ(std::ldexp(x, 14), std::round(std::ldexp(x, 14))) << x << " is not a multiple of 2^-14";
        distinct.insert(bitsOf(x));
    }
    EXPECT_LE(distinct.size(), day52::kPaletteSize);
    EXPECT_GT(distinct.size(), day52::kPaletteSize * 9 / 10);  // the scatter reaches nearly all of the palette
    // Both zeros and both ends of the range are in every palette.
    EXPECT_EQ(distinct.count(bitsOf(0.0f)), 1u);
    EXPECT_EQ(distinct.count(bitsOf(-0.0f)), 1u);
    EXPECT_EQ(distinct.count(bitsOf(-512.0f)), 1u);
    EXPECT_EQ(distinct.count(bitsOf(512.0f - std::ldexp(1.0f, -14))), 1u);
}

TEST(Day52Inputs, TheHandMadeInputIsStairsWithNegativeZeros) {
    const std::vector<float> in = day52::diamondInput(day52::kHandMadeInputKey);
    ASSERT_EQ(in.size(), kElems);
    EXPECT_EQ(in[0], -512.0f);
    EXPECT_EQ(in[4096], -496.0f);
    EXPECT_EQ(in[kElems - 1], -512.0f);  // down again, mirrored
    EXPECT_EQ(bitsOf(in[999]), bitsOf(-0.0f));
    std::set<uint32_t> distinct;
    for (float x : in) {
        ASSERT_TRUE(x >= -512.0f && x < 512.0f) << x;
        distinct.insert(bitsOf(x));
    }
    EXPECT_EQ(distinct.size(), 65u);  // 64 steps and -0: a quick reference
}

TEST(Day52Inputs, SeededReferenceMatchesAPlainLoop) {
    const std::vector<float> in = day52::diamondInput(777);
    const std::vector<float> out = day52::diamondHostForKey(777);
    ASSERT_EQ(out.size(), kElems);
    for (size_t i : {size_t{0}, size_t{1}, size_t{4095}, size_t{4096}, size_t{500000}, kElems - 1}) {
        EXPECT_EQ(bitsOf(out[i]), bitsOf(independentDiamond(in[i]))) << "index " << i;
    }
}

TEST(Day52Inputs, AMissingDependencyIsFarOffOnEveryInput) {
    // What a branch that ran too early computes: it read zeros. The stress
    // gate relies on it being wrong by far more than the tolerance, for every
    // input the generator can draw ([-512, 512)) and the course's.
    float fromZeros = 0.0f;
    for (int j = 0; j < 4; ++j) fromZeros += day52::grindHost(0.0f, day52::kA, day52::kBranchB[j], day52::kIters);
    for (float x : {-512.0f, -100.0f, 0.0f, 2.5f, 511.99994f}) {
        const float right = day52::diamondElementHost(x);
        EXPECT_GT(right, 970.0f) << x;
        EXPECT_GT(std::fabs(fromZeros - right), 200.0f) << x;
        EXPECT_FALSE(day52::closeEnough(fromZeros, right, day52::kRelTolerance)) << x;
    }
}

TEST(Day52Inputs, KeysDifferPerCaseAndRunAndNeverNameTheCourseInput) {
    std::set<uint64_t> keys;
    for (uint64_t salt : {1ull, 2ull, 3ull}) {
        for (uint64_t key : day52::cases::inputKeys(99, salt, 8)) {
            EXPECT_NE(key, day52::kCourseInputKey);
            EXPECT_NE(key, day52::kHandMadeInputKey);
            keys.insert(key);
        }
    }
    EXPECT_EQ(keys.size(), 24u);
    EXPECT_EQ(day52::cases::inputKeys(99, 1, 3), day52::cases::inputKeys(99, 1, 3));
    EXPECT_NE(day52::cases::inputKeys(99, 1, 3), day52::cases::inputKeys(100, 1, 3));
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

TEST(Day52Gates, OutsNameRunIndexGotWant) {
    const std::vector<float> want = {1.0f, 2.0f, 2.5f, 4.0f};
    EXPECT_TRUE(day52::checkOuts("52.diamond", {want}, {want}).passed);
    const grading::GateResult d = day52::checkOuts("52.diamond", {{1.0f, 2.0f, 1.5f, 0.0f}}, {want});
    EXPECT_FALSE(d.passed);
    EXPECT_EQ(d.id, "52.diamond");
    EXPECT_EQ(d.message, "index 2: got 1.5, want 2.5");
    const grading::GateResult s = day52::checkOuts("52.serial", {{1.0f, 2.0f, 2.5f, -26711960.0f}}, {want});
    EXPECT_EQ(s.id, "52.serial");
    EXPECT_EQ(s.message, "index 3: got -26711960, want 4");
    EXPECT_EQ(day52::checkOuts("52.diamond", {{1.0f}}, {want}).message, "got 1 values, want 4");
    EXPECT_EQ(day52::checkOuts("52.diamond", {{1.0f, std::nanf(""), 2.5f, 4.0f}}, {want}).message,
              "index 1: got nan, want 2");
    // Several runs, each against its own reference: the message names the run.
    const std::vector<float> other = {3.0f, 3.0f, 3.0f, 3.0f};
    EXPECT_TRUE(day52::checkOuts("52.diamond", {want, other}, {want, other}).passed);
    EXPECT_EQ(day52::checkOuts("52.diamond", {want, want}, {want, other}).message, "run 1: index 0: got 1, want 3");
    EXPECT_EQ(day52::checkOuts("52.diamond", {want}, {want, other}).message, "got 1 runs' outputs, want 2");
    EXPECT_EQ(day52::countMismatches({1.0f, 0.0f, 0.0f, 4.0f}, want, 1e-6f), 2u);
}

TEST(Day52Gates, AnUnwrittenElementIsNamedAsPoison) {
    float poison = 0.0f;
    const uint32_t word = 0xCBCBCBCBu;
    std::memcpy(&poison, &word, sizeof poison);
    EXPECT_EQ(day52::checkOuts("52.diamond", {{1.0f, poison}}, {{1.0f, 2.0f}}).message,
              "index 1: got -26711958 (never written: still the runner's poison), want 2");
}

TEST(Day52Gates, LaunchesAreTheCourseKernelsInTheCourseShape) {
    using day52::Launch;
    namespace proto = day52::protocol;
    const int64_t n = static_cast<int64_t>(day52::kElems);
    const Launch upstream{day52::kLoggedGrindFma, proto::kTargetMid, 8, 256, n};
    const Launch join{day52::kLoggedSumFour, proto::kTargetOut, 4096, 256, n};
    std::vector<Launch> right = {upstream};
    for (int j = 0; j < 4; ++j) right.push_back({day52::kLoggedGrindFma, proto::kTargetBranch0 + j, 8, 256, n});
    right.push_back(join);
    EXPECT_TRUE(day52::checkLaunches(right, -1).passed);
    std::vector<Launch> twice = right;  // a buffer written twice, each in the course's shape, is fine
    twice.push_back(right[1]);
    EXPECT_TRUE(day52::checkLaunches(twice, -1).passed);

    // A launch missing from the log: emptied, or the buffer computed another way.
    const std::vector<Launch> missing = {right[0], right[1], right[2], right[4], right[5]};
    EXPECT_EQ(day52::checkLaunches(missing, 1).message,
              "run 1: no grindFma launch wrote d_branch[2] (the diamond launches the course's kernels: grindFma into "
              "d_mid and each d_branch[j], sumFour into d_out)");
    EXPECT_EQ(day52::checkLaunches({}, -1).message,
              "no grindFma launch wrote d_mid (the diamond launches the course's kernels: grindFma into d_mid and "
              "each d_branch[j], sumFour into d_out)");
    std::vector<Launch> wrongKernel = right;
    wrongKernel[5].kernel = day52::kLoggedGrindFma;
    EXPECT_EQ(day52::checkLaunches(wrongKernel, -1).message,
              "no sumFour launch wrote d_out (the diamond launches the course's kernels: grindFma into d_mid and "
              "each d_branch[j], sumFour into d_out)");

    std::vector<Launch> wide = right;
    wide[3].blocks = 4096;
    const grading::GateResult w = day52::checkLaunches(wide, -1);
    EXPECT_EQ(w.id, "52.diamond");
    EXPECT_EQ(w.message,
              "grindFma into d_branch[2] was launched with 4096 blocks of 256 threads, want 8 blocks of 256 "
              "(the course's shape: kGrindBlocks x kThreadsPerBlock)");
    // Named in the diamond's buffer order, whichever branch started first.
    std::vector<Launch> twoWide = {right[4], right[0], right[2], right[5], right[3], right[1]};
    twoWide[0].blocks = twoWide[2].blocks = 4096;
    EXPECT_EQ(day52::checkLaunches(twoWide, -1).message,
              "grindFma into d_branch[1] was launched with 4096 blocks of 256 threads, want 8 blocks of 256 "
              "(the course's shape: kGrindBlocks x kThreadsPerBlock)");
    std::vector<Launch> narrow = right;
    narrow[5].threads = 128;
    EXPECT_EQ(day52::checkLaunches(narrow, 2).message,
              "run 2: sumFour into d_out was launched with 4096 blocks of 128 threads, want 4096 blocks of 256 "
              "(the course's shape: kSumBlocks x kThreadsPerBlock)");
    std::vector<Launch> stray = right;
    stray.push_back({day52::kLoggedGrindFma, proto::kTargetOther, 1, 256, n});
    EXPECT_EQ(day52::checkLaunches(stray, -1).message,
              "grindFma into a buffer not of the diamond was launched with 1 blocks of 256 threads, want 8 blocks "
              "of 256 (the course's shape: kGrindBlocks x kThreadsPerBlock)");
    // The course's shape on no work: the log would show the launch while
    // other code wrote the buffer.
    std::vector<Launch> idle = right;
    idle[2].elements = 0;
    EXPECT_EQ(day52::checkLaunches(idle, 3).message,
              "run 3: grindFma into d_branch[1] was given 0 elements, want kElems (1048576): each launch of the "
              "diamond does its whole buffer's work");
}

TEST(Day52Gates, StressNamesTheFirstWrongRunAndWhichRunsWereWrong) {
    const std::vector<float> want = {3.0f, 5.0f, 7.0f};
    const day52::StressHold hold{20.0, 20.0};
    std::vector<day52::StressRun> runs(8);
    for (int r = 0; r < 8; ++r) runs[r] = {want, want, r % 4};
    EXPECT_TRUE(day52::checkStress(runs, hold).passed);
    runs[3].out[2] = 0.0f;
    runs[7].out[0] = 1.0f;
    const grading::GateResult g = day52::checkStress(runs, hold);
    EXPECT_FALSE(g.passed);
    EXPECT_EQ(g.id, "52.stress");
    EXPECT_EQ(g.message,
              "run 3 (upstream held 20 ms, branch 3 held 20 ms): index 2: got 0, want 7 (2 of 8 runs wrong: runs 3, 7)");
    for (auto& r : runs) r.out[1] = 0.0f;
    EXPECT_EQ(day52::checkStress(runs, hold).message,
              "run 0 (upstream held 20 ms, branch 0 held 20 ms): index 1: got 0, want 5 (8 of 8 runs wrong)");
    // Each run is judged against its own reference.
    std::vector<day52::StressRun> own = {{{1.0f}, {1.0f}, 0}, {{1.0f}, {2.0f}, 1}};
    EXPECT_EQ(day52::checkStress(own, hold).message,
              "run 1 (upstream held 20 ms, branch 1 held 20 ms): index 0: got 1, want 2 (1 of 2 runs wrong: run 1)");
    EXPECT_EQ(day52::checkStress({}, hold).message, "no stress runs were reported");
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
    EXPECT_EQ(day52::cases::splitNames("cudaSuccess,cudaErrorInvalidResourceHandle"),
              (std::vector<std::string>{"cudaSuccess", "cudaErrorInvalidResourceHandle"}));
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
    EXPECT_EQ(g.message, "enqueueDiamond's first timed run is wrong (index 1: got 0, want 2), so its time is not graded");
    EXPECT_EQ(day52::checkTimedDiamond({0.0f}, {1.0f}, "enqueueSerial").message,
              "enqueueSerial's first timed run is wrong (index 0: got 0, want 1), so its time is not graded");
}

TEST(Day52Gates, EveryTimedRunMustDoItsOwnWork) {
    EXPECT_TRUE(day52::checkTimedRuns("enqueueDiamond", {-1, -1, -1}, 3).passed);
    const grading::GateResult g = day52::checkTimedRuns("enqueueDiamond", {-1, -1, 7, 0}, 4);
    EXPECT_FALSE(g.passed);
    EXPECT_EQ(g.id, "52.overlap");
    EXPECT_EQ(g.message, "enqueueDiamond's timed run 2: index 7 is not the course's enqueueSerial of the run's own "
                         "input: the run did not do its own work, so no time is graded");
    EXPECT_EQ(day52::checkTimedRuns("enqueueSerial", {-1}, 10).message,
              "the runner checked 1 of enqueueSerial's 10 timed runs");
}

TEST(Day52Gates, TheDiamondEndsOnStreamZero) {
    EXPECT_TRUE(day52::checkEndsOnStream0("52.diamond", {0, 0, 0}).passed);
    EXPECT_EQ(day52::checkEndsOnStream0("52.diamond", {1 << 4}).message,
              "s[4] still had work once s[0] was done: a caller that waits for s[0] alone reads d_out then, so the "
              "diamond must end on s[0]");
    const grading::GateResult g = day52::checkEndsOnStream0("52.stress", {0, (1 << 1) | (1 << 3), 1 << 2});
    EXPECT_EQ(g.id, "52.stress");
    EXPECT_EQ(g.message.rfind("run 1: s[1], s[3] still had work once s[0] was done", 0), 0u) << g.message;
}

TEST(Day52Cases, LimitsScaleWithRunsAndHolds) {
    using namespace day52::cases;
    EXPECT_DOUBLE_EQ(runSeconds(0), kCallSeconds);
    EXPECT_DOUBLE_EQ(runSeconds(3) - runSeconds(2), kSecondsPerMebiElement * kElems / (1 << 20));
    EXPECT_NEAR(runSeconds(8, 40.0) - runSeconds(8), 8 * kHoldSlack * 0.040, 1e-9);
    EXPECT_GT(timingSeconds(), runSeconds(day52::kWarmupRuns + day52::kTimedRuns));
}

TEST(Day52Cases, RunsSplitBackIntoOutputsAndLaunchLogs) {
    using namespace day52::cases;
    std::vector<float> out(2 * kElems, 1.0f);
    out[kElems] = 2.0f;
    const auto runs = perRun(out, 2);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[1].size(), kElems);
    EXPECT_EQ(runs[1][0], 2.0f);
    EXPECT_EQ(perRun({1.0f}, 2)[0].size(), 1u);  // a short answer reaches the gate, which names the sizes

    day52::protocol::RunsResult r;
    r.launchRun = {0, 1, 1};
    r.launchKernel = {day52::kLoggedGrindFma, day52::kLoggedGrindFma, day52::kLoggedSumFour};
    r.launchTarget = {0, 0, 5};
    r.launchBlocks = {8, 8, 4096};
    r.launchThreads = {256, 256, 256};
    r.launchElements = {1, 2, 3};
    const auto logs = launchesPerRun(r, 2);
    ASSERT_EQ(logs.size(), 2u);
    EXPECT_EQ(logs[0].size(), 1u);
    ASSERT_EQ(logs[1].size(), 2u);
    EXPECT_EQ(logs[1][1].blocks, 4096);
    EXPECT_EQ(logs[1][1].elements, 3);
    r.launchElements = {1, 2};  // a log missing a field is the runner's fault, named
    EXPECT_THROW(launchesPerRun(r, 2), std::runtime_error);
    r.launchElements = {1, 2, 3};
    r.launchRun = {0, 2, 1};
    EXPECT_THROW(launchesPerRun(r, 2), std::runtime_error);
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
    EXPECT_NE(gated.find("day 52 timings on NVIDIA H200 (132 SMs), 3 timed runs after 3 warm-ups"), std::string::npos)
        << gated;
    EXPECT_NE(gated.find("serial / diamond (medians): 2.55x (gated: >= 1.30x on >= 24 SMs)"), std::string::npos)
        << gated;
    EXPECT_NE(gated.find("  serial        2.800      0.100      2.700      2.900"), std::string::npos) << gated;
    EXPECT_NE(gated.find("  diamond       1.100      0.100      1.000      1.200"), std::string::npos) << gated;
    const std::string small = day52::timingTable(serial, diamond, "a small GPU", 20);
    EXPECT_NE(small.find("reported, not gated: under 24 SMs"), std::string::npos) << small;
}

TEST(Day52Gates, ClockedDiamondRunsProveTheirWorkAgainstTheSerialOnes) {
    const std::vector<double> serial = {1.0e9, 2.0e9, 3.0e9};
    EXPECT_TRUE(day52::checkClockedDiamond({1.0e9 * (1 + 1e-6), 2.0e9, 3.0e9}, serial).passed);
    const grading::GateResult skipped = day52::checkClockedDiamond({1.0e9, 2.1e9, 3.0e9}, serial);
    EXPECT_FALSE(skipped.passed);
    EXPECT_EQ(skipped.id, "52.overlap");
    EXPECT_EQ(skipped.message,
              "enqueueDiamond's clocked run 1 of 3 left a d_out whose squares sum to 2.1e+09, the course's "
              "enqueueSerial's on the same input 2e+09 (relative tolerance 0.0001): the timed runs were not all done");
    // Full-precision sums and two-digit run numbers, as a GPU run gives: the message keeps its ending.
    const std::vector<double> measured(20, 3.26612847e9);
    std::vector<double> replayed = measured;
    replayed[14] = 3.26698312e9;
    EXPECT_EQ(day52::checkClockedDiamond(replayed, measured).message,
              "enqueueDiamond's clocked run 14 of 20 left a d_out whose squares sum to 3.26698312e+09, the course's "
              "enqueueSerial's on the same input 3.26612847e+09 (relative tolerance 0.0001): the timed runs were not "
              "all done");
    EXPECT_FALSE(day52::checkClockedDiamond({1.0e9, std::nan(""), 3.0e9}, serial).passed);
    EXPECT_EQ(day52::checkClockedDiamond({1.0e9}, serial).message, "enqueueDiamond's clocked call proved 1 of 3 runs");
}

}  // namespace
