// The spread printed beside every median, and what the GPU-state log says.
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <map>
#include <set>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/day.h"
#include "harness/gate.h"
#include "harness/gpu_state.h"
#include "harness/runner_client.h"
#include "harness/timing_stats.h"
#include "scoped_env.h"

using grading::GpuState;
using grading::GpuStateLog;
using grading::summarize;
using ::testing::HasSubstr;

TEST(TimingStats, QuartilesInterpolateBetweenSamples) {
    const grading::TimingStats t = summarize({4, 1, 3, 2, 5});  // sorted 1..5
    EXPECT_FLOAT_EQ(t.medianMs, 3);
    EXPECT_FLOAT_EQ(t.q1Ms, 2);
    EXPECT_FLOAT_EQ(t.q3Ms, 4);
    EXPECT_FLOAT_EQ(t.iqrMs(), 2);
    EXPECT_FLOAT_EQ(t.relativeSpread(), 2.0f / 3.0f);
    const grading::TimingStats even = summarize({1, 2, 3, 4});
    EXPECT_FLOAT_EQ(even.q1Ms, 1.75f);
    EXPECT_FLOAT_EQ(even.q3Ms, 3.25f);
}

// One wild run moves max - min, not the interquartile range.
TEST(TimingStats, AnOutlierDoesNotMoveTheSpread) {
    std::vector<float> runs(10, 1.0f);
    runs[3] = 50.0f;
    const grading::TimingStats t = summarize(runs);
    EXPECT_FLOAT_EQ(t.medianMs, 1.0f);
    EXPECT_FLOAT_EQ(t.iqrMs(), 0.0f);
    EXPECT_FLOAT_EQ(t.maxMs - t.minMs, 49.0f);
}

TEST(TimingStats, OneOrNoSample) {
    EXPECT_FLOAT_EQ(summarize({}).iqrMs(), 0.0f);
    const grading::TimingStats one = summarize({2.5f});
    EXPECT_FLOAT_EQ(one.q1Ms, 2.5f);
    EXPECT_FLOAT_EQ(one.q3Ms, 2.5f);
}

TEST(GpuState, OnlySlowingReasonsCountAsThrottled) {
    GpuState s;
    s.throttleReasons = 0x1 | 0x2;  // idle, application clocks
    EXPECT_FALSE(s.throttled());
    EXPECT_EQ(s.throttleText(), "none");
    s.throttleReasons |= 0x4 | 0x40;
    EXPECT_TRUE(s.throttled());
    EXPECT_EQ(s.throttleText(), "sw power cap, hw thermal");
}

TEST(GpuState, TheLogSummarizesRangesAndThrottling) {
    GpuStateLog log;
    EXPECT_THAT(log.summary(), HasSubstr("no NVML readings"));
    GpuState a;
    a.smClockMHz = 1980;
    a.memoryClockMHz = 2619;
    a.temperatureC = 40;
    GpuState b = a;
    b.smClockMHz = 1755;
    b.temperatureC = 47;
    b.throttleReasons = 0x20;
    log.readings = {a, b};
    log.remeasured = 1;
    EXPECT_EQ(log.summary(),
              "GPU during the timed calls (2 NVML readings): SM clock 1755-1980 MHz, memory clock 2619 MHz, 40-47 C, "
              "throttled: sw thermal (1 call(s) measured again)");
}

// No driver library (a CPU machine) reads as no state, never a crash; with
// one, the GPU CUDA calls 0 reads a running clock.
TEST(GpuState, ReadsNothingWithoutNvmlOrAPlausibleState) {
    const auto s = grading::readGpuState("0");
    if (s) EXPECT_GT(s->smClockMHz, 0u);
    EXPECT_FALSE(grading::readGpuState("GPU-not-a-real-uuid").has_value());
}

// A runner's device memory is summed over the processes below it: a
// grandchild is below the test, the test is not below its child. Without
// NVML the memory reads as unknown; with it, a process that made no CUDA
// context holds none.
TEST(GpuState, ProcessesBelowARunnerAreItsOwn) {
    int up[2], down[2];  // the grandchild's pid up; the word to end down
    ASSERT_EQ(pipe(up), 0);
    ASSERT_EQ(pipe(down), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const pid_t grandchild = fork();
        if (grandchild == 0) {
            char c;
            (void)!read(down[0], &c, 1);
            _exit(0);
        }
        (void)!write(up[1], &grandchild, sizeof grandchild);
        waitpid(grandchild, nullptr, 0);
        _exit(0);
    }
    pid_t grandchild = 0;
    ASSERT_EQ(read(up[0], &grandchild, sizeof grandchild), static_cast<ssize_t>(sizeof grandchild));
    EXPECT_TRUE(grading::descendsFrom(grandchild, getpid()));
    EXPECT_TRUE(grading::descendsFrom(grandchild, child));
    EXPECT_TRUE(grading::descendsFrom(child, child));
    EXPECT_FALSE(grading::descendsFrom(getpid(), child));
    EXPECT_FALSE(grading::descendsFrom(child, grandchild));
    const auto held = grading::deviceMemoryBelow(child);
    if (held) EXPECT_EQ(*held, 0u);
    (void)!write(down[1], "x", 1);
    waitpid(child, nullptr, 0);
    for (int fd : {up[0], up[1], down[0], down[1]}) close(fd);
}

TEST(SpeedRamp, FullAtOnePointTwoNoneAtTenLogarithmicBetween) {
    const grading::SpeedRamp ramp;
    EXPECT_DOUBLE_EQ(ramp.score(0.5), 1.0);
    EXPECT_DOUBLE_EQ(ramp.score(1.2), 1.0);
    EXPECT_NEAR(ramp.score(std::sqrt(12.0)), 0.5, 1e-12);  // the geometric middle of 1.2x and 10x
    // Each doubling of the time costs the same share.
    EXPECT_NEAR(ramp.score(2.0) - ramp.score(4.0), ramp.score(4.0) - ramp.score(8.0), 1e-12);
    EXPECT_NEAR(ramp.score(4.63), 0.363, 0.001);  // the planted slow walk's ratio on the H200
    EXPECT_DOUBLE_EQ(ramp.score(10.0), 0.0);
    EXPECT_DOUBLE_EQ(ramp.score(80.0), 0.0);
}

TEST(SpeedRamp, TheMessageNamesBothTimesTheirSpreadAndTheRatio) {
    const grading::GateResult r = grading::scoreSpeed("38.speed", "the walks", summarize({1.9f, 2.0f, 2.0f, 2.0f, 2.1f}),
                                                      summarize({1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f}));
    EXPECT_TRUE(r.passed);
    ASSERT_TRUE(r.score.has_value());
    EXPECT_NEAR(*r.score, std::log(10.0 / 2.0) / std::log(10.0 / 1.2), 1e-12);
    EXPECT_EQ(r.message,
              "the walks: 2.0000 ms (IQR 0.0000, 5 runs) against the instructor's 1.0000 ms (IQR 0.0000, 6 runs), "
              "timed interleaved: 2.00x, 76% of the points (full at <= 1.2x, none at >= 10x)");
}

TEST(SpeedRamp, NoTimeIsAFailureNotAScore) {
    const grading::GateResult r = grading::scoreSpeed("38.speed", "the walks", summarize({}), summarize({1.0f}));
    EXPECT_FALSE(r.passed);
    EXPECT_FALSE(r.score.has_value());
    EXPECT_EQ(r.message, "the walks: no ratio: the student's median is 0 ms, the reference's 1 ms");
}

// Steady runs stop at the least number of calls; noisy ones are called
// again up to the budget, the sets growing; an error comes back as it was.
TEST(SampleUntilSteady, StopsOnceSteadyOrAtTheBudget) {
    int calls = 0;
    const auto steady = grading::sampleUntilSteady([&]() -> grading::Expected<std::vector<std::vector<float>>> {
        ++calls;
        return std::vector<std::vector<float>>{{1.0f, 1.0f, 1.01f, 1.0f}, {2.0f, 2.0f, 2.0f, 2.0f}};
    });
    ASSERT_TRUE(steady.ok());
    EXPECT_EQ(calls, grading::kSteadyMinCalls);  // the default least: never one call's moment
    EXPECT_GT(grading::kSteadyMinCalls, 1);
    EXPECT_EQ((*steady)[0].size(), 4u * grading::kSteadyMinCalls);

    calls = 0;
    const auto once = grading::sampleUntilSteady(
        [&]() -> grading::Expected<std::vector<std::vector<float>>> {
            ++calls;
            return std::vector<std::vector<float>>{{1.0f, 1.0f}};
        },
        0.02, 1, 4);
    ASSERT_TRUE(once.ok());
    EXPECT_EQ(calls, 1);

    calls = 0;
    const auto noisy = grading::sampleUntilSteady(
        [&]() -> grading::Expected<std::vector<std::vector<float>>> {
            ++calls;
            return std::vector<std::vector<float>>{{1.0f, 2.0f, 3.0f, 4.0f}};
        },
        0.02, 1, 3);
    ASSERT_TRUE(noisy.ok());
    EXPECT_EQ(calls, 3);
    EXPECT_EQ((*noisy)[0].size(), 12u);

    const auto failed = grading::sampleUntilSteady(
        []() -> grading::Expected<std::vector<std::vector<float>>> { return grading::Error{"the runner hung"}; });
    EXPECT_FALSE(failed.ok());
    EXPECT_EQ(failed.error(), "the runner hung");
}

TEST(ClockedRunMs, TheDifferenceOfTwoCallsOverTheirRunsIsOneRun) {
    // A call costs 0.5 s whatever it does, and 2 ms a run; the first costs
    // a second more (loading kernels), and is not counted. Either order.
    std::set<std::vector<int>> orders;
    for (uint64_t seed = 0; seed < 16; ++seed) {
        std::vector<int> asked;
        const auto call = [&](int runs) -> grading::Expected<double> {
            asked.push_back(runs);
            return (asked.size() == 1 ? 1.5 : 0.5) + 0.002 * runs;
        };
        const grading::Expected<float> ms = grading::clockedRunMs(call, 100, seed);
        ASSERT_TRUE(ms.ok()) << ms.error();
        EXPECT_NEAR(*ms, 2.0f, 1e-4f);
        ASSERT_EQ(asked.size(), 3u);
        EXPECT_EQ(asked[0], 10);
        orders.insert(asked);
    }
    // The seed draws the order: the longer call first in some measures,
    // second in others.
    EXPECT_EQ(orders, (std::set<std::vector<int>>{{10, 100, 200}, {10, 200, 100}}));
}

TEST(ClockedRunMs, AShorterCallHeldUpIsTakenAgain) {
    std::vector<int> asked;
    // The first pair's shorter call waited 300 ms for the host.
    bool heldUp = false;
    const auto call = [&](int runs) -> grading::Expected<double> {
        asked.push_back(runs);
        const bool hold = runs == 100 && !heldUp;
        if (hold) heldUp = true;
        return (hold ? 0.8 : 0.5) + 0.002 * runs;
    };
    const grading::Expected<float> ms = grading::clockedRunMs(call, 100, 1);
    ASSERT_TRUE(ms.ok()) << ms.error();
    EXPECT_NEAR(*ms, 2.0f, 1e-4f);
    EXPECT_EQ(asked.size(), 5u);
}

TEST(ClockedRunMs, NoTimeForMoreRunsOrAFailedCallIsAnError) {
    int calls = 0;
    const auto flat = [&](int) -> grading::Expected<double> {
        ++calls;
        return 0.5;
    };
    const grading::Expected<float> none = grading::clockedRunMs(flat, 100, 1);
    ASSERT_FALSE(none.ok());
    EXPECT_THAT(none.error(), HasSubstr("the grader's clock found no time in 100 more runs"));
    EXPECT_EQ(calls, 1 + 2 * grading::kClockedAttempts);
    const auto failing = [](int runs) -> grading::Expected<double> {
        if (runs > 100) return grading::Error{"the proof of work was wrong"};
        return 0.5 + 0.002 * runs;
    };
    const grading::Expected<float> failed = grading::clockedRunMs(failing, 100, 1);
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error(), "the proof of work was wrong");
}

// A class times the instructor's rounds of a speed gate once (its
// instructor.<day> test) and each student's day test reads them back, so it
// times only the student; with nothing kept for this gate, seed and GPU,
// both are timed in turn, as in every suite.
class SpeedCaseTiming : public ::testing::Test {
protected:
    static constexpr int kRounds = 4;
    grading::CaseContext context(grading::InstructorTiming timing, const std::string& runner = "student") const {
        grading::CaseContext ctx{runner, 7, 10.0, true, "instructor"};
        ctx.instructorTiming = timing;
        return ctx;
    }
    // One round's time: 2 ms for the instructor, 5 ms for the student,
    // each measure counted by runner.
    grading::GateResult speed(const grading::CaseContext& ctx) {
        return grading::speedCase(ctx, "38.speed", "the walks", kRounds,
                                  [this](const std::string& runner) -> grading::Expected<std::vector<float>> {
                                      ++measured[runner];
                                      return std::vector<float>{runner == "instructor" ? 2.0f : 5.0f};
                                  });
    }
    grading::TempDir answers;
    ScopedEnv env{{"GRADING_ANSWER_CACHE", answers.path().c_str()}, {"CUDA_VISIBLE_DEVICES", "0"}};
    std::map<std::string, int> measured;
};

TEST_F(SpeedCaseTiming, TheClassTimesTheInstructorOnceAndEachStudentAlone) {
    const grading::GateResult kept = speed(context(grading::InstructorTiming::MeasureOnce, "instructor"));
    EXPECT_TRUE(kept.passed) << kept.message;
    EXPECT_EQ(measured, (std::map<std::string, int>{{"instructor", kRounds}}));
    measured.clear();
    for (int student = 0; student < 2; ++student) {
        const grading::GateResult r = speed(context(grading::InstructorTiming::ReadBackOnce));
        ASSERT_TRUE(r.score.has_value()) << r.message;
        EXPECT_THAT(r.message, HasSubstr("5.0000 ms (IQR 0.0000, 4 runs) against the instructor's 2.0000 ms (IQR "
                                         "0.0000, 4 runs), the instructor timed once for the class: 2.50x"));
    }
    EXPECT_EQ(measured, (std::map<std::string, int>{{"student", 2 * kRounds}}));
}

TEST_F(SpeedCaseTiming, NothingKeptForThisGpuOrSeedTimesBothInTurn) {
    speed(context(grading::InstructorTiming::MeasureOnce, "instructor"));
    measured.clear();
    const auto timedInTurn = [&](const grading::CaseContext& ctx) {
        measured.clear();
        const grading::GateResult r = speed(ctx);
        EXPECT_THAT(r.message, HasSubstr("timed interleaved: 2.50x"));
        EXPECT_EQ(measured, (std::map<std::string, int>{{"instructor", kRounds}, {"student", kRounds}}));
    };
    {
        const ScopedEnv otherGpu({{"CUDA_VISIBLE_DEVICES", "1"}});
        timedInTurn(context(grading::InstructorTiming::ReadBackOnce));
    }
    grading::CaseContext otherSeed = context(grading::InstructorTiming::ReadBackOnce);
    otherSeed.seed = 8;
    timedInTurn(otherSeed);
    // The suites never read the class's rounds back.
    timedInTurn(context(grading::InstructorTiming::Interleaved));
}

TEST_F(SpeedCaseTiming, AnInstructorWithoutTimesKeepsNothing) {
    const grading::GateResult failed = grading::speedCase(
        context(grading::InstructorTiming::MeasureOnce, "instructor"), "38.speed", "the walks", kRounds,
        [](const std::string&) -> grading::Expected<std::vector<float>> { return grading::Error{"no device"}; });
    EXPECT_FALSE(failed.passed);
    EXPECT_EQ(failed.message, "the walks: no time for the instructor's code: no device");
    const grading::GateResult r = speed(context(grading::InstructorTiming::ReadBackOnce));
    EXPECT_THAT(r.message, HasSubstr("timed interleaved: 2.50x"));
}
