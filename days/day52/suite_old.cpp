// The day 52 suite, part 1: the result gates (52.diamond, 52.serial,
// 52.stress, 52.no_timing). The same binary runs against the reference runner
// and the submission's (see CMakeLists). The timing-sensitive 52.overlap and
// the report live in day52_timing_test.cpp, which ctest runs alone.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "day52_cases.h"
#include "day52_gates.h"
#include "day52_stress.h"
#include "harness/testing.h"

namespace {

using grading::GateResult;
using grading::testing::expectGate;
using grading::testing::runnerUnderTest;

const char* const kContext = "course input (2^20 floats)";

class Day52Case : public ::testing::TestWithParam<day52::cases::CourseInput> {
protected:
    void SetUp() override { GRADING_SKIP_WITHOUT_DEVICE(runnerUnderTest()); }
};

class Diamond : public Day52Case {};
class Serial : public Day52Case {};
class Stress : public Day52Case {};
class NoTiming : public Day52Case {};

TEST_P(Diamond, MatchesHostReference) {
    const day52::cases::OutRun run = day52::cases::runOut(runnerUnderTest(), "diamond");
    if (!run.ok()) {
        expectGate(GateResult::fail("52.diamond", run.why()), kContext);
        return;
    }
    expectGate(day52::checkDiamond(run.out, day52::cases::want()), kContext);
}

TEST_P(Serial, MatchesHostReference) {
    const day52::cases::OutRun run = day52::cases::runOut(runnerUnderTest(), "serial");
    if (!run.ok()) {
        expectGate(GateResult::fail("52.serial", run.why()), kContext);
        return;
    }
    expectGate(day52::checkSerial(run.out, day52::cases::want()), kContext);
}

TEST_P(Stress, RightOnEveryRunUnderAdversarialTiming) {
    const day52::cases::StressResult s = day52::cases::runStress(runnerUnderTest());
    const std::string context = std::string(kContext) + ", " + std::to_string(day52::kStressRuns) +
                                " runs, d_mid zeroed and the upstream and one branch held in each";
    if (!s.ok()) {
        expectGate(GateResult::fail("52.stress", s.why()), context);
        return;
    }
    // The holds are real when each run takes at least both of them.
    std::ostringstream times;
    for (size_t r = 0; r < s.runMs.size(); ++r) times << (r ? " " : "") << s.runMs[r];
    std::cout << "stress run wall times (ms, host clock): " << times.str() << "\n";
    ::testing::Test::RecordProperty("stress_run_ms", times.str());
    expectGate(day52::checkStress(s.runs, day52::cases::want(), s.hold), context);
}

TEST_P(NoTiming, DependencyEventsRefuseElapsedTime) {
    const day52::cases::NoTimingResult r = day52::cases::runNoTiming(runnerUnderTest());
    const char* context = "cudaEventElapsedTime on the fork and branchDone events";
    if (!r.ok()) {
        expectGate(GateResult::fail("52.no_timing", r.why()), context);
        return;
    }
    for (size_t j = 0; j < r.probes.size(); ++j) {
        std::cout << "cudaEventElapsedTime(" << r.probes[j].events << "): " << r.probes[j].error
                  << "; cudaGetLastError() then returned " << r.slotCleared[j] << ", and after it "
                  << r.probes[j].slotAfterClear << "\n";
    }
    expectGate(day52::checkNoTiming(r.probes), context);
}

INSTANTIATE_TEST_SUITE_P(Day52, Diamond, ::testing::Values(day52::cases::CourseInput{}));
INSTANTIATE_TEST_SUITE_P(Day52, Serial, ::testing::Values(day52::cases::CourseInput{}));
INSTANTIATE_TEST_SUITE_P(Day52, Stress, ::testing::Values(day52::cases::CourseInput{}));
INSTANTIATE_TEST_SUITE_P(Day52, NoTiming, ::testing::Values(day52::cases::CourseInput{}));

}  // namespace
