// The day 52 suite, part 2: what depends on time. 52.overlap, the Day52Report
// observations (timings, ratio, the race count) and the planted bug that must
// fail 52.overlap. ctest runs these alone (RUN_SERIAL, see CMakeLists): GPU
// work of other test processes would time-slice into the event timings.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <iostream>

#include "day52_cases.h"
#include "day52_gates.h"
#include "day52_report.h"
#include "forkjoin_constants.h"
#include "harness/testing.h"
#include "harness/timing_stats.h"

namespace {

using grading::GateResult;
using grading::testing::expectGate;
using grading::testing::runnerInDir;
using grading::testing::runnerUnderTest;

std::string fixed(double v, const char* format) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

class Overlap : public ::testing::TestWithParam<day52::cases::CourseInput> {};

TEST_P(Overlap, DiamondBeatsSerial) {
    GRADING_SKIP_WITHOUT_DEVICE(runnerUnderTest());
    const day52::cases::TimingResult t = day52::cases::runTiming(runnerUnderTest());
    const char* context = "serial ms / diamond ms, medians of 10 timed runs";
    if (!t.ok()) {
        expectGate(GateResult::fail("52.overlap", t.why()), context);
        return;
    }
    const double serialMs = grading::summarize(t.serialMs).medianMs;
    const double diamondMs = grading::summarize(t.diamondMs).medianMs;
    const day52::OverlapVerdict v = day52::checkOverlap(serialMs, diamondMs, t.smCount);
    ::testing::Test::RecordProperty("overlap_ratio", fixed(v.ratio, "%.3f"));
    ::testing::Test::RecordProperty("sm_count", t.smCount);
    ::testing::Test::RecordProperty("serial_ms", fixed(serialMs, "%.4f"));
    ::testing::Test::RecordProperty("diamond_ms", fixed(diamondMs, "%.4f"));
    std::cout << "overlap on " << t.device << ": " << v.note << "\n";
    const GateResult right = day52::checkTimedDiamond(t.out, day52::cases::want());
    if (!v.gated) {
        // Reported, not gated: neither a pass nor a fail.
        GTEST_SKIP() << "52.overlap " << v.note << (right.passed ? "" : "; also " + right.message);
    }
    if (!right.passed) {
        expectGate(right, context);
        return;
    }
    expectGate(v.result, context);
}

INSTANTIATE_TEST_SUITE_P(Day52, Overlap, ::testing::Values(day52::cases::CourseInput{}));

// The course's printout: timings and ratio, then the broken order's race.
// Observations only. The broken order and the serial version are the
// course's own code, so they must run; the submitted diamond need not.
TEST(Day52Report, TimingsAndRace) {
    GRADING_SKIP_WITHOUT_DEVICE(runnerUnderTest());
    const day52::cases::TimingResult t = day52::cases::runTiming(runnerUnderTest());
    if (t.ok()) {
        const grading::TimingStats serial = grading::summarize(t.serialMs);
        const grading::TimingStats diamond = grading::summarize(t.diamondMs);
        std::cout << "\n" << day52::timingTable(serial, diamond, t.device, t.smCount);
        ::testing::Test::RecordProperty("serial_ms", fixed(serial.medianMs, "%.4f"));
        ::testing::Test::RecordProperty("diamond_ms", fixed(diamond.medianMs, "%.4f"));
        if (diamond.medianMs > 0.0f) {
            ::testing::Test::RecordProperty("overlap_ratio", fixed(serial.medianMs / diamond.medianMs, "%.3f"));
        }
    } else {
        std::cout << "\nno timings: " << t.why() << "\n";
    }

    const day52::cases::OutRun broken = day52::cases::runOut(runnerUnderTest(), "broken");
    ASSERT_TRUE(broken.ok()) << broken.why();
    ASSERT_EQ(broken.out.size(), day52::cases::want().size());
    const size_t wrong = day52::countMismatches(broken.out, day52::cases::want(), day52::kRelTolerance);
    ::testing::Test::RecordProperty("race_wrong_elements", std::to_string(wrong));
    std::cout << day52::raceObservation(wrong, broken.out.size()) << std::endl;
}

// Planted (registered once, AS planted): the branches launched on s[0]. The
// answer is right, so only the time can show it.
TEST(Day52PlantedTiming, AllOnStreamZeroFailsOverlap) {
    const std::string runner = runnerInDir("day52_runner_planted_all_on_stream0");
    GRADING_SKIP_WITHOUT_DEVICE(runner);
    const day52::cases::TimingResult t = day52::cases::runTiming(runner);
    ASSERT_TRUE(t.ok()) << t.why();
    EXPECT_TRUE(day52::checkTimedDiamond(t.out, day52::cases::want()).passed);
    const day52::OverlapVerdict v = day52::checkOverlap(grading::summarize(t.serialMs).medianMs,
                                                        grading::summarize(t.diamondMs).medianMs, t.smCount);
    std::cout << "all on s[0]: " << v.note << "\n";
    if (!v.gated) GTEST_SKIP() << "52.overlap is not gated on this device: " << v.note;
    EXPECT_FALSE(v.result.passed);
    EXPECT_THAT(v.result.message,
                ::testing::MatchesRegex("serial [0-9.]+ ms / diamond [0-9.]+ ms = [0-9.]+x on [0-9]+ SMs, "
                                        "want >= 1\\.30x: the branches are not overlapping"));
}

}  // namespace
