// Runner sessions: one runner process answers the calls of a grading
// process one after another; each call keeps its own verdict, a failure ends
// the session and the next call starts a fresh one, and nothing a runner
// writes outside its turn counts: an answer before it was asked, a second
// answer, or one after its last are failures.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "harness/runner_client.h"
#include "scoped_env.h"

namespace grading {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

class Sessions : public ::testing::Test {
protected:
    void SetUp() override {
        setenv("GRADING_RUNNER_SESSIONS", "1", 1);
        setSandboxPolicy(SandboxPolicy::Off);
        // The fake runner holds no device memory: a stand-in keeps NVML and its
        // timing out of these protocol tests.
        setRunnerMemoryReader([](int) -> std::optional<uint64_t> { return 0; });
        closeSessions();
    }
    void TearDown() override {
        closeSessions();
        setRunnerMemoryReader(nullptr);
        setenv("GRADING_RUNNER_SESSIONS", "0", 1);
    }
    // `late` or `late-exit`, whose second answer is written once the call is
    // over (however long the grader takes after the first), and is in the
    // channel when this returns.
    static RunnerOutcome callAnsweringLate(const std::string& subcommand) {
        const std::string stem = ::testing::TempDir() + "late_" + std::to_string(getpid());
        Record in;
        in.putText("go_file", stem + ".go");
        in.putText("sent_file", stem + ".sent");
        std::remove((stem + ".sent").c_str());
        RunnerOutcome first = call(subcommand, 10.0, in);
        std::ofstream(stem + ".go") << "go\n";
        for (int i = 0; i < 1000 && !std::filesystem::exists(stem + ".sent"); ++i) usleep(10000);
        std::remove((stem + ".go").c_str());
        return first;
    }
    static RunnerOutcome call(const std::string& subcommand, double limit = 10.0, Record input = {},
                              bool timed = false) {
        RunnerCall c;
        c.runner = FAKE_RUNNER;
        c.subcommand = subcommand;
        c.input = std::move(input);
        c.timeLimitSeconds = limit;
        c.exclusiveGpu = timed;
        return callRunner(c);
    }
    // A 30 s limit, and a stall limit of 0.5 s (RunnerCall::stallSeconds).
    static RunnerOutcome stallLimitedCall(const std::string& subcommand, Record input = {}) {
        RunnerCall c;
        c.runner = FAKE_RUNNER;
        c.subcommand = subcommand;
        c.input = std::move(input);
        c.timeLimitSeconds = 30.0;
        c.stallSeconds = 0.5;
        return callRunner(c);
    }
    static RunnerOutcome timedCall(const std::string& subcommand, Record input = {}) {
        return call(subcommand, 10.0, std::move(input), true);
    }
    // More than the runner's stdin pipe holds, so the request goes in pieces.
    static Record largeInput() {
        std::vector<float> values(3 << 20);
        for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
        Record r;
        r.putFloats("grid", values);
        return r;
    }
    static int64_t pidOf(const RunnerOutcome& o) { return o.result.integer("pid").value(); }
};

TEST_F(Sessions, OneProcessAnswersCallAfterCall) {
    const RunnerOutcome a = call("ok");
    const RunnerOutcome b = call("ok");
    const RunnerOutcome c = call("echo-input");
    ASSERT_TRUE(a.ok() && b.ok() && c.ok()) << a.message << b.message << c.message;
    EXPECT_EQ(pidOf(a), pidOf(b));
    EXPECT_EQ(pidOf(b), pidOf(c));
    EXPECT_EQ(a.result.integer("levels").value(), 3);
    EXPECT_EQ(closeSessions(), "");
}

// Within one session the marker follows each call, not the session.
// A runner that floods its output is read to the end of its answer and keeps
// only the tail of each stream, as a runner started per call does
// (process_test's OutputCapKeepsTheTail): its last lines, exactly the cap.
TEST_F(Sessions, AFloodOfOutputKeepsExactlyItsTail) {
    Record flood;
    flood.putInt("flood_mib", 40);
    const RunnerOutcome o = call("flood", 60.0, std::move(flood));
    ASSERT_TRUE(o.ok()) << o.message;
    const size_t cap = ProcessOptions{}.outputCap;
    EXPECT_TRUE(o.process.truncated);
    EXPECT_EQ(o.process.out.size(), cap);
    EXPECT_EQ(o.process.err.size(), cap);
    EXPECT_THAT(o.process.out, ::testing::EndsWith("y\nflooded 40 MiB\n"));
    EXPECT_THAT(o.process.err, ::testing::EndsWith("y\nat: flooded\n"));
    EXPECT_TRUE(call("ok").ok()) << "the session goes on after the flood";
}

TEST_F(Sessions, EachCallSaysWhetherItIsTimed) {
    const RunnerOutcome timed = timedCall("echo-input");
    const RunnerOutcome untimed = call("echo-input");
    ASSERT_TRUE(timed.ok() && untimed.ok()) << timed.message << untimed.message;
    EXPECT_EQ(pidOf(timed), pidOf(untimed));
    ASSERT_TRUE(timed.result.integer(protocol::kTimedCallField).ok());
    EXPECT_EQ(timed.result.integer(protocol::kTimedCallField).value(), 1);
    EXPECT_FALSE(untimed.result.has(protocol::kTimedCallField));
    ASSERT_TRUE(timed.result.integer(protocol::kTimedSectionsField).ok()) << "a session's timed call asks around what it measures";
    EXPECT_EQ(timed.result.integer(protocol::kTimedSectionsField).value(), 1);
    EXPECT_FALSE(untimed.result.has(protocol::kTimedSectionsField));
}

// Only a timed call may ask for the GPU exclusively, and only once at a time: a
// runner that asks otherwise fails its call, and the session ends.
TEST_F(Sessions, AnUntimedCallThatAsksForTheGpuExclusivelyFails) {
    const RunnerOutcome before = call("ok");
    const RunnerOutcome asked = call("ask-anyway");
    const RunnerOutcome after = call("ok");
    EXPECT_FALSE(asked.ok());
    EXPECT_THAT(asked.message, HasSubstr("it asked for the GPU \"exclusive\" in a call that measures nothing"));
    ASSERT_TRUE(before.ok() && after.ok()) << before.message << after.message;
    EXPECT_NE(pidOf(before), pidOf(after)) << "the session that asked was ended";
}

TEST_F(Sessions, AskingForTheGpuExclusivelyTwiceFails) {
    const RunnerOutcome twice = timedCall("ask-exclusive-twice");
    EXPECT_FALSE(twice.ok());
    EXPECT_THAT(twice.message, HasSubstr("it asked for the GPU \"exclusive\" while it held it exclusively"));
    const RunnerOutcome measured = timedCall("measure");
    EXPECT_TRUE(measured.ok()) << measured.message;
}

// A runner lends its slot only where the grader let it (a call with a
// shared slot of its own) and never while it measures exclusively.
TEST_F(Sessions, LendingTheGpuWhereTheCallCannotFails) {
    const RunnerOutcome echoed = call("echo-input");
    ASSERT_TRUE(echoed.ok()) << echoed.message;
    EXPECT_TRUE(echoed.result.integer(protocol::kLendsField).ok()) << "a shared call may lend its slot";
    const RunnerOutcome lends = call("lend-anyway");
    EXPECT_TRUE(lends.ok()) << lends.message;
    {
        // Unbounded slots (as ctest runs these tests): the scope drains no
        // other test on this machine.
        const ScopedEnv unbounded({{"GRADING_GPU_SLOTS", "0"}});
        const ExclusiveGpuScope scope;
        const RunnerOutcome held = call("lend-anyway");
        EXPECT_FALSE(held.ok());
        EXPECT_THAT(held.message, HasSubstr("it lent the GPU in a call that was not asked to"));
    }
    const RunnerOutcome measuring = timedCall("lend-while-exclusive");
    EXPECT_FALSE(measuring.ok());
    EXPECT_THAT(measuring.message, HasSubstr("it lent the GPU while it held it exclusively"));
}

// Every request for the GPU exclusively drains it for everyone: a call may make a
// few (32 sections), not a stream of them.
TEST_F(Sessions, ACallThatAsksForTheGpuOverAndOverFails) {
    Record input;
    input.putInt("sections", 32);
    const RunnerOutcome few = timedCall("measure", input);
    EXPECT_TRUE(few.ok()) << few.message;
    input.putInt("sections", 33);
    const RunnerOutcome many = timedCall("measure", input);
    EXPECT_FALSE(many.ok());
    EXPECT_THAT(many.message, HasSubstr("asked for the GPU exclusively or back more than 64 times in one call"));
}

TEST_F(Sessions, ARequestLargerThanThePipeArrivesIntact) {
    const Record input = largeInput();
    const RunnerOutcome echoed = call("echo-input", 10.0, input);
    ASSERT_TRUE(echoed.ok()) << echoed.message;
    ASSERT_TRUE(echoed.result.has("grid"));
    EXPECT_EQ(echoed.result.fields().at("grid").bytes, input.fields().at("grid").bytes);
}

// Writing to a runner that no longer reads fails that call (EPIPE), never
// the grading process (SIGPIPE), and the next call starts a fresh session.
TEST_F(Sessions, ARunnerThatStopsReadingFailsOnlyThatCall) {
    const RunnerOutcome closing = call("close-input");
    ASSERT_TRUE(closing.ok()) << closing.message;
    const RunnerOutcome refused = call("echo-input", 10.0, largeInput());
    EXPECT_FALSE(refused.ok());
    EXPECT_THAT(refused.message, HasSubstr("exited with status 0 without a complete result"));
    const RunnerOutcome next = call("ok");
    ASSERT_TRUE(next.ok()) << next.message;
    EXPECT_NE(pidOf(next), pidOf(closing));
}

TEST_F(Sessions, ACrashFailsItsCallAndTheNextStartsAfresh) {
    const int64_t first = pidOf(call("ok"));
    const RunnerOutcome crash = call("crash");
    EXPECT_FALSE(crash.ok());
    EXPECT_THAT(crash.message, HasSubstr("was killed by signal 11 (Segmentation fault) (it was in crash in session"));
    const RunnerOutcome next = call("ok");
    ASSERT_TRUE(next.ok()) << next.message;
    EXPECT_NE(pidOf(next), first);
}

TEST_F(Sessions, AHangIsKilledAtItsLimitAndNamed) {
    ASSERT_TRUE(call("ok").ok());
    const RunnerOutcome hang = call("hang", 0.5);
    EXPECT_FALSE(hang.ok());
    EXPECT_TRUE(hang.process.timedOut);
    EXPECT_THAT(hang.message, HasSubstr("the runner for `hang` did not finish in 0.5 s (it was in hang in session"));
    EXPECT_TRUE(call("ok").ok());
}

// A call with a stall limit ends when its last breadcrumb is that old, long
// before its limit; one that keeps leaving them runs on past the stall limit.
TEST_F(Sessions, AStalledCallIsStoppedBeforeItsLimitAndNamed) {
    const auto start = std::chrono::steady_clock::now();
    const RunnerOutcome hang = stallLimitedCall("hang");
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
    EXPECT_FALSE(hang.ok());
    EXPECT_TRUE(hang.process.timedOut);
    EXPECT_THAT(hang.message, HasSubstr("the runner for `hang` made no progress for 0.5 s (it was in hang in session"));
    EXPECT_THAT(hang.message, HasSubstr("so it was stopped before its 30 s limit"));
    EXPECT_TRUE(call("ok").ok());
}

TEST_F(Sessions, ProgressKeepsAStallLimitedCallGoing) {
    Record steps;
    steps.putInt("steps", 12);
    steps.putInt("step_ms", 100);
    const RunnerOutcome crawl = stallLimitedCall("crawl", std::move(steps));
    EXPECT_TRUE(crawl.ok()) << crawl.message;
    EXPECT_GT(crawl.process.seconds, 1.0);  // twice the stall limit and more, in steps shorter than it
}

// The start allowance is paid once per session: a warm session's hang ends
// that much sooner.
TEST_F(Sessions, AWarmSessionsLimitLeavesOutTheStartAllowance) {
    ASSERT_TRUE(call("ok").ok());
    const RunnerOutcome hang = call("hang", grading::kRunnerStartSeconds + 1.0);
    EXPECT_TRUE(hang.process.timedOut);
    EXPECT_THAT(hang.message, HasSubstr("did not finish in 2.5 s"));
}

// Read by the grader from /proc, not by the runner: a process the runner
// left running fails the call that left it, whatever it names itself (it
// takes the runner's name, which the grader does not go by).
TEST_F(Sessions, AProcessLeftRunningFailsItsCall) {
    const RunnerOutcome left = call("leave-child");
    ASSERT_FALSE(left.ok());
    EXPECT_THAT(left.message, HasSubstr("left 1 process running beside it once it had answered"));
    const RunnerOutcome next = call("ok");
    EXPECT_TRUE(next.ok()) << next.message;
}

// Threads too are read from outside (/proc/<runner>/task): one that keeps
// the runner's name, and one renamed as the CUDA runtime names its own after
// the first call, fail the call that left them; nothing in the runner's
// process (a weak definition of a library function, say) takes part.
TEST_F(Sessions, AThreadLeftRunningFailsItsCall) {
    const RunnerOutcome left = call("leave-thread");
    ASSERT_FALSE(left.ok());
    EXPECT_THAT(left.message, MatchesRegex(".*left 1 host thread running once it had answered \\(thread [0-9]+, "
                                           "\"fake_runner\"\\): a submission's threads must end before its "
                                           "function returns.*"));
    EXPECT_TRUE(call("ok").ok());
}

TEST_F(Sessions, ARenamedThreadLeftRunningFailsItsCall) {
    ASSERT_TRUE(call("ok").ok());
    const RunnerOutcome left = call("leave-renamed-thread");
    ASSERT_FALSE(left.ok());
    EXPECT_THAT(left.message, HasSubstr("left 1 host thread running once it had answered"));
    EXPECT_THAT(left.message, HasSubstr("\"cuda-EvtHandlr\""));
}

// A runner whose own view of its threads is blinded (libc's opendir replaced)
// sees none, and still fails the call whose thread it left.
TEST_F(Sessions, ARunnerBlindToItsOwnThreadsCannotHideOne) {
    RunnerCall c;
    c.runner = FAKE_RUNNER_BLIND;
    c.timeLimitSeconds = 10.0;
    c.subcommand = "count-own-threads";
    const RunnerOutcome seen = callRunner(c);
    ASSERT_TRUE(seen.ok()) << seen.message;
    EXPECT_EQ(seen.result.integer("threads_seen").value(), 0) << "the runner is not blinded";
    c.subcommand = "leave-thread";
    const RunnerOutcome left = callRunner(c);
    ASSERT_FALSE(left.ok());
    EXPECT_THAT(left.message, HasSubstr("left 1 host thread running once it had answered"));
}

// Code a runner made for itself (a memfd or a file in its own folder, mapped
// executable), which the system-call filter lets by since the loader maps
// libraries the same way, fails the call: the grader reads the runner's
// memory map, in the sandbox and out of it. The same runner answering
// plainly, its libraries mapped from the system, passes.
class CodeMappings : public Sessions, public ::testing::WithParamInterface<std::tuple<bool, std::string>> {
protected:
    void SetUp() override {
        Sessions::SetUp();
        setSandboxPolicy(std::get<0>(GetParam()) ? SandboxPolicy::Required : SandboxPolicy::Off);
    }
    void TearDown() override {
        Sessions::TearDown();
        setSandboxPolicy(SandboxPolicy::Off);
    }
};

TEST_P(CodeMappings, CodeTheRunnerWroteFailsItsCall) {
    RunnerCall c;
    c.runner = FAKE_RUNNER_FILTERED;
    c.timeLimitSeconds = 10.0;
    c.subcommand = "ok";
    const RunnerOutcome plain = callRunner(c);
    ASSERT_TRUE(plain.ok()) << plain.message;
    c.subcommand = std::get<1>(GetParam());
    const RunnerOutcome mapped = callRunner(c);
    ASSERT_FALSE(mapped.ok());
    EXPECT_THAT(mapped.message, HasSubstr("ran code it made itself: "));
    EXPECT_THAT(mapped.message, HasSubstr(c.subcommand == "map-memfd-exec" ? "/memfd:code" : "/code"));
    EXPECT_THAT(mapped.message, HasSubstr("is mapped executable"));
}

INSTANTIATE_TEST_SUITE_P(
    InAndOutOfTheSandbox, CodeMappings,
    ::testing::Combine(::testing::Bool(), ::testing::Values("map-memfd-exec", "map-tmp-exec")),
    [](const ::testing::TestParamInfo<std::tuple<bool, std::string>>& p) {
        return std::string(std::get<0>(p.param) ? "Sandboxed" : "Unsandboxed") +
               (std::get<1>(p.param) == "map-memfd-exec" ? "Memfd" : "FileInItsFolder");
    });

TEST_F(Sessions, AThreadThatEndsWithItsCallIsNoMatter) {
    ASSERT_TRUE(call("ok").ok());
    const RunnerOutcome joined = call("join-thread");
    EXPECT_TRUE(joined.ok()) << joined.message;
    EXPECT_TRUE(call("ok").ok());
}

TEST_F(Sessions, AFailureReportEndsTheSession) {
    const RunnerOutcome error = call("error");
    EXPECT_THAT(error.message, HasSubstr("failed (exit status 3): CUDA error in fakeKernel"));
    EXPECT_TRUE(call("ok").ok());
}

TEST_F(Sessions, EndingWithoutAnAnswerFails) {
    EXPECT_THAT(call("exit-zero").message, HasSubstr("exited with status 0 without a complete result"));
}

// Written right after the first, a second answer fails the call, or (when
// it arrives a moment later) the next one, never passing unseen.
TEST_F(Sessions, ASecondAnswerFailsTheCallOrTheNext) {
    const RunnerOutcome twice = call("twice");
    const RunnerOutcome next = call("ok");
    EXPECT_TRUE(twice.message.find("answered 2 times") != std::string::npos ||
                next.message.find("it answered before it was asked") != std::string::npos)
        << twice.message << " / " << next.message;
}

TEST_F(Sessions, AnAnswerBetweenCallsFailsTheNextCall) {
    ASSERT_TRUE(callAnsweringLate("late").ok());
    const RunnerOutcome next = call("ok");
    EXPECT_FALSE(next.ok());
    EXPECT_THAT(next.message, HasSubstr("it answered before it was asked"));
}

// The writer gone by the next call does not take its bytes with it.
TEST_F(Sessions, AnAnswerBetweenCallsFailsTheNextCallEvenWhenTheWriterExited) {
    ASSERT_TRUE(callAnsweringLate("late-exit").ok());
    const RunnerOutcome next = call("ok");
    EXPECT_FALSE(next.ok());
    EXPECT_THAT(next.message, HasSubstr("it answered before it was asked"));
}

TEST_F(Sessions, AnAnswerAfterTheLastCallIsReportedWhenTheSessionsClose) {
    ASSERT_TRUE(callAnsweringLate("late").ok());
    EXPECT_THAT(closeSessions(), HasSubstr("bytes to its channel after its last answer"));
}

TEST_F(Sessions, ClosingOneRunnersSessionLeavesTheOthersAndReportsItsLateAnswer) {
    // A second runner: the stand-in under another path.
    const std::string other = ::testing::TempDir() + "other_runner_" + std::to_string(getpid());
    std::filesystem::copy_file(FAKE_RUNNER, other, std::filesystem::copy_options::overwrite_existing);
    RunnerCall toOther;
    toOther.runner = other;
    toOther.subcommand = "ok";
    toOther.timeLimitSeconds = 10.0;
    const RunnerOutcome before = call("ok");
    const RunnerOutcome first = callRunner(toOther);
    ASSERT_TRUE(before.ok() && first.ok()) << before.message << first.message;
    EXPECT_EQ(closeSession(other), "");
    EXPECT_EQ(closeSession(other), "") << "a runner with no session has nothing to close";
    const RunnerOutcome again = callRunner(toOther);
    const RunnerOutcome after = call("ok");
    ASSERT_TRUE(again.ok() && after.ok()) << again.message << after.message;
    EXPECT_NE(pidOf(again), pidOf(first)) << "its session was closed, so the next call starts another";
    EXPECT_EQ(pidOf(after), pidOf(before)) << "the other runner's session was left running";
    ASSERT_TRUE(callAnsweringLate("late").ok());
    EXPECT_THAT(closeSession(FAKE_RUNNER), HasSubstr("bytes to its channel after its last answer"));
    EXPECT_EQ(closeSessions(), "") << "closed already: nothing of it is reported twice";
    std::filesystem::remove(other);
}

// The device memory a session holds (read by a stand-in for NVML here):
// over GRADING_RUNNER_GPU_MEMORY_GIB (default 16), the session is ended and
// the call fails naming both amounts, whether the memory is kept past the
// answer or taken mid-call; under it, or with no bound, nothing happens.
class SessionMemory : public Sessions {
protected:
    // Every session holds `gib`; `seen` collects the processes read.
    void holdEverywhere(double gib) {
        setRunnerMemoryReader([this, gib](int pid) -> std::optional<uint64_t> {
            seen.push_back(pid);
            return static_cast<uint64_t>(gib * 1073741824.0);
        });
    }
    std::vector<int> seen;
};

TEST_F(SessionMemory, MemoryKeptPastTheAnswerEndsTheSession) {
    holdEverywhere(20);
    const RunnerOutcome kept = call("ok");
    EXPECT_FALSE(kept.ok());
    EXPECT_THAT(kept.message, HasSubstr("held 20.0 GiB of device memory, more than the 16 GiB a runner may hold"));
    EXPECT_TRUE(grading::endedForDeviceMemory(kept.message));
    ASSERT_FALSE(seen.empty());
    const int hog = seen.back();
    holdEverywhere(1);
    const RunnerOutcome next = call("ok");
    ASSERT_TRUE(next.ok()) << next.message;
    EXPECT_NE(seen.back(), hog) << "a new session";
}

TEST_F(SessionMemory, MemoryTakenMidCallStopsItThen) {
    holdEverywhere(40);
    Record steps;
    steps.putInt("steps", 50);
    steps.putInt("step_ms", 100);
    const auto start = std::chrono::steady_clock::now();
    const RunnerOutcome crawl = call("crawl", 30.0, std::move(steps));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_FALSE(crawl.ok());
    EXPECT_THAT(crawl.message, HasSubstr("held 40.0 GiB"));
    EXPECT_LT(seconds, 2.5) << "its 5 s of steps were cut short";
}

TEST_F(SessionMemory, UnderTheBoundOrWithoutOneNothingHappens) {
    holdEverywhere(8);
    const RunnerOutcome a = call("ok");
    const RunnerOutcome b = call("ok");
    ASSERT_TRUE(a.ok() && b.ok()) << a.message << b.message;
    EXPECT_EQ(pidOf(a), pidOf(b));
    holdEverywhere(100);
    const ScopedEnv unbounded({{"GRADING_RUNNER_GPU_MEMORY_GIB", "0"}});
    const RunnerOutcome c = call("ok");
    ASSERT_TRUE(c.ok()) << c.message;
    EXPECT_EQ(pidOf(c), pidOf(a));
}

}  // namespace
}  // namespace grading
