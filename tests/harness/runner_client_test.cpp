// callRunner against a fake runner with scripted misbehaviour: each way a
// runner can end becomes the right status and an exact message, nothing a
// runner says about itself after its answer counts, and one bad call leaves
// nothing behind to disturb the next.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "harness/gpu_state.h"
#include "harness/runner_client.h"
#include "scoped_env.h"

namespace grading {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// The protocol itself, one process per call, outside the sandbox
// (sandbox_test.cpp runs the same runner inside it, session_test.cpp in
// sessions).
class Unsandboxed : public ::testing::Environment {
public:
    void SetUp() override {
        setSandboxPolicy(SandboxPolicy::Off);
        setenv("GRADING_RUNNER_SESSIONS", "0", 1);
    }
};
const ::testing::Environment* const kUnsandboxed = ::testing::AddGlobalTestEnvironment(new Unsandboxed);

RunnerOutcome callFake(const std::string& subcommand, double limitSeconds = 10.0, Record input = {},
                       std::string label = "") {
    RunnerCall call;
    call.runner = FAKE_RUNNER;
    call.subcommand = subcommand;
    call.input = std::move(input);
    call.timeLimitSeconds = limitSeconds;
    call.label = std::move(label);
    return callRunner(call);
}


bool processIsDead(int pid) {
    // SIGKILL lands asynchronously: the pipes close a moment before the
    // process turns into a zombie, so allow it a little time.
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        if (!stat) return true;
        std::string line;
        std::getline(stat, line);
        const size_t close = line.rfind(')');
        if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z') return true;
        usleep(10000);
    }
    return false;
}

const std::string kEarlyExitAdvice = "; a submission that calls exit() ends the runner like this";

TEST(RunnerClient, OkReturnsTheResultAndTheDevice) {
    const RunnerOutcome o = callFake("ok");
    ASSERT_TRUE(o.ok()) << o.message;
    EXPECT_FALSE(o.noDevice());
    EXPECT_EQ(o.message, "");
    EXPECT_TRUE(o.process.exitedWith(0));
    EXPECT_EQ(o.device.device, "fake device");
    EXPECT_EQ(o.device.smCount, 4);
    EXPECT_EQ(o.result.integer("levels").value(), 3);
    EXPECT_THAT(o.result.ints("dist").value(), ElementsAre(0, 1, 2, -1));
    EXPECT_EQ(o.result.real("ms").value(), 1.25);
}

TEST(RunnerClient, HangIsKilledAndNamesTheLastBreadcrumb) {
    const auto start = std::chrono::steady_clock::now();
    const RunnerOutcome o = callFake("hang", 1.0);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 4.0);
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_TRUE(o.process.timedOut);
    EXPECT_EQ(o.message, "the runner for `hang` did not finish in 1 s (it was in fakeKernel at level 3)");
}

TEST(RunnerClient, HangLeavesNoProcessBehindAndTheNextCallWorks) {
    const RunnerOutcome hung = callFake("hang", 0.5, {}, "bfs on chain");
    EXPECT_EQ(hung.message, "the runner for `bfs on chain` did not finish in 0.5 s (it was in fakeKernel at level 3)");
    const std::string marker = "helper: ";
    const size_t at = hung.process.err.find(marker);
    ASSERT_NE(at, std::string::npos) << hung.process.err;
    const int helper = std::atoi(hung.process.err.c_str() + at + marker.size());
    ASSERT_GT(helper, 1);
    EXPECT_TRUE(processIsDead(helper)) << "the hung runner's helper " << helper << " survived";

    const RunnerOutcome next = callFake("ok");
    EXPECT_TRUE(next.ok()) << next.message;
}

TEST(RunnerClient, CrashNamesTheSignalBreadcrumbAndStderr) {
    const RunnerOutcome o = callFake("crash");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_EQ(o.process.signal, 11);
    EXPECT_EQ(o.message,
              "the runner for `crash` was killed by signal 11 (Segmentation fault) (it was in fakeKernel at "
              "level 1); stderr: at: fakeKernel at level 1");
}

TEST(RunnerClient, EarlyExitWithoutAnAnswerFails) {
    const RunnerOutcome o = callFake("early-exit");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_TRUE(o.process.exitedWith(0));
    EXPECT_EQ(o.message,
              "the runner for `early-exit` exited with status 0 without a complete result (it was in fakeKernel "
              "at level 2)" + kEarlyExitAdvice);
}

TEST(RunnerClient, TruncatedAnswerFails) {
    const RunnerOutcome o = callFake("truncated");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_EQ(o.message,
              "the runner for `truncated` sent a broken answer: the result file is truncated: no closing \"end\" "
              "line (the runner stopped before it finished writing)");
}

TEST(RunnerClient, GarbageAnswerFails) {
    const RunnerOutcome o = callFake("garbage");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_EQ(o.message,
              "the runner for `garbage` sent a broken answer: not a result file (it does not start with "
              "\"gpu-grading-record 1\")");
}

TEST(RunnerClient, NoDeviceIsItsOwnStatusWithTheReason) {
    const RunnerOutcome o = callFake("no-device");
    EXPECT_EQ(o.status, RunnerOutcome::Status::NoDevice);
    EXPECT_TRUE(o.noDevice());
    EXPECT_FALSE(o.ok());
    EXPECT_EQ(o.message, "no usable CUDA device: no NVIDIA GPU found: the CUDA runtime sees 0 devices");
}

TEST(RunnerClient, CudaErrorReportNamesTheKernel) {
    const RunnerOutcome o = callFake("error");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_TRUE(o.process.exitedWith(protocol::kCudaError.exitCode));
    EXPECT_EQ(o.message,
              "the runner for `error` failed (exit status 3): CUDA error in expandEdgePerThread (edge mapping) "
              "at level 4: cudaErrorIllegalAddress (an illegal memory access was encountered)");
}

// Out of device memory may be a neighbour's doing: the call is asked once
// more alone, and that answer counts; once 4 such retries failed alone too, a
// process retries no more, and any other failure is not retried.
TEST(RunnerClient, AResourceFailureIsAskedAgainAloneBeforeItCounts) {
    const std::string counter = ::testing::TempDir() + "/oom-calls-" + std::to_string(getpid());
    std::remove(counter.c_str());
    Record input;
    input.putText("count_file", counter);
    const int retriedBefore = runnerCallTotals().retriedAlone;
    ASSERT_EQ(runnerCallTotals().failedAlone, 0) << "the caps are a process's: this test needs its own";
    const RunnerOutcome once = callFake("out-of-memory-once", 10.0, input);
    EXPECT_TRUE(once.ok()) << once.message;
    EXPECT_EQ(runnerCallTotals().retriedAlone, retriedBefore + 1);
    int calls = 0;
    std::ifstream(counter) >> calls;
    EXPECT_EQ(calls, 2);

    const RunnerOutcome error = callFake("error");
    EXPECT_FALSE(error.ok());
    EXPECT_EQ(runnerCallTotals().retriedAlone, retriedBefore + 1) << "an illegal address is the code's own";

    int failed = 0;
    for (int k = 0; k < 8; ++k) {
        const RunnerOutcome always = callFake("out-of-memory", 10.0, input);
        EXPECT_THAT(always.message, HasSubstr("cudaErrorMemoryAllocation"));
        failed += !always.ok();
    }
    EXPECT_EQ(failed, 8);
    EXPECT_EQ(runnerCallTotals().failedAlone, 4);
    EXPECT_EQ(runnerCallTotals().retriedAlone, retriedBefore + 1 + 4) << "once 4 retries failed alone, no call is";
}

// A call that fails beside a neighbour and passes alone was the neighbour's
// victim: it does not spend the process's 4 retries that may fail alone, so an
// honest student beside a hostile one keeps being asked alone, 16 calls at most.
TEST(RunnerClient, ACallThatPassesAloneDoesNotSpendTheRetriesThatFail) {
    const std::string counter = ::testing::TempDir() + "/oom-alone-" + std::to_string(getpid());
    std::remove(counter.c_str());
    Record input;
    input.putText("count_file", counter);
    ASSERT_EQ(runnerCallTotals().retriedAlone, 0) << "the caps are a process's: this test needs its own";
    int passed = 0;
    std::string lastMessage;
    for (int k = 0; k < 18; ++k) {
        std::remove(counter.c_str());  // each call fails first, beside its neighbours, and passes alone
        const RunnerOutcome o = callFake("out-of-memory-once", 10.0, input);
        passed += o.ok();
        if (!o.ok()) lastMessage = o.message;
    }
    EXPECT_EQ(passed, 16) << "every call retried alone passed; past 16 retries none is";
    EXPECT_EQ(runnerCallTotals().retriedAlone, 16);
    EXPECT_EQ(runnerCallTotals().failedAlone, 0);
    EXPECT_THAT(lastMessage, HasSubstr("cudaErrorMemoryAllocation"));
}

TEST(RunnerClient, GuardViolationReportNamesTheBuffer) {
    const RunnerOutcome o = callFake("guard");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_TRUE(o.process.exitedWith(protocol::kGuardViolation.exitCode));
    EXPECT_EQ(o.message,
              "the runner for `guard` failed (exit status 4): after expandEdgePerThread (edge mapping) at level "
              "2: buffer nextFrontier was written past its end, at index 10 (it holds 10)");
}

TEST(RunnerClient, FailureWithoutAnAnswerQuotesStderr) {
    const RunnerOutcome o = callFake("bogus");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_EQ(o.message,
              "the runner for `bogus` failed (exit status 2) without an answer: stderr: fake_runner: unknown "
              "subcommand \"bogus\"");
}

// The trust boundary: what follows the runner's own answer never counts.
TEST(RunnerClient, AResultForgedAfterAFailureReportFails) {
    const RunnerOutcome o = callFake("forged-after-failure");
    EXPECT_FALSE(o.ok());
    EXPECT_TRUE(o.process.exitedWith(0));
    EXPECT_EQ(o.message,
              "the runner for `forged-after-failure` answered 2 times: something other than the runner wrote to "
              "its channel (submitted code writing after, or before, the runner's own answer)");
}

TEST(RunnerClient, TwoResultsFail) {
    EXPECT_THAT(callFake("second-answer").message, HasSubstr("answered 2 times"));
}

TEST(RunnerClient, AResultWithAFailingStatusFails) {
    const RunnerOutcome o = callFake("result-then-status");
    EXPECT_FALSE(o.ok());
    EXPECT_EQ(o.message,
              "the runner for `result-then-status` sent a result and then exit status 3: a result counts only "
              "from a runner that ends with status 0");
}

TEST(RunnerClient, AFailureReportWithStatusZeroStillFails) {
    const RunnerOutcome o = callFake("failure-with-status-0");
    EXPECT_FALSE(o.ok());
    EXPECT_EQ(o.message,
              "the runner for `failure-with-status-0` failed (exit status 0): fakeKernel wrote to its input "
              "colIndices at index 0 (was 1, now -7) [and it exited with exit status 0, not 5, the status of a "
              "contract-violation (an input written, or work left running)]");
}

TEST(RunnerClient, AResultWithoutTheDeviceFails) {
    EXPECT_THAT(callFake("no-device-info").message,
                HasSubstr("sent a result without the device it ran on: the result has no field \"device\""));
}

TEST(RunnerClient, LabelNamesTheCall) {
    const RunnerOutcome o = callFake("error", 10.0, {}, "bfs --mapping edge on rmat");
    EXPECT_THAT(o.message, StartsWith("the runner for `bfs --mapping edge on rmat` failed (exit status 3): "));
}

TEST(RunnerClient, RequestReachesTheRunnerIntact) {
    Record input;
    input.putInts("row_offsets", {0, 2, 3, 3});
    input.putUints("mask", {0xdeadbeefu});
    input.putInt64s("big", {std::numeric_limits<int64_t>::min()});
    input.putUint64s("key", {std::numeric_limits<uint64_t>::max()});
    input.putFloats("f", {0.5f, -2.0f});
    input.putDoubles("d", {1e-300});
    input.putText("label", "3 2\na\nb\nc\n0 1\n1 2\n");
    const RunnerOutcome o = callFake("echo-input", 10.0, input);
    ASSERT_TRUE(o.ok()) << o.message;
    for (const auto& [name, field] : input.fields()) {
        SCOPED_TRACE(name);
        ASSERT_TRUE(o.result.has(name));
        const Field& echoed = o.result.fields().at(name);
        EXPECT_EQ(echoed.type, field.type);
        EXPECT_EQ(echoed.count, field.count);
        EXPECT_EQ(echoed.bytes, field.bytes);
    }
}

// A timed call tells the runner so (it then spins while it waits for the
// GPU, and measures the host's round trip first); any other call's request
// carries no such field. The round trip a timed call's runner measured goes
// into the timed calls' log and its summary.
TEST(RunnerClient, OnlyATimedCallsRequestIsMarkedTimed) {
    RunnerCall call;
    call.runner = FAKE_RUNNER;
    call.subcommand = "echo-input";
    call.timeLimitSeconds = 10.0;
    GpuStateLog& log = timedCallGpuLog();
    log.hostRoundTripsUs.clear();
    const RunnerOutcome untimed = callRunner(call);
    ASSERT_TRUE(untimed.ok()) << untimed.message;
    EXPECT_FALSE(untimed.result.has(protocol::kTimedCallField));
    EXPECT_FALSE(untimed.device.hostRoundTripUs.has_value());
    EXPECT_TRUE(log.hostRoundTripsUs.empty());

    call.exclusiveGpu = true;
    const RunnerOutcome timed = callRunner(call);
    ASSERT_TRUE(timed.ok()) << timed.message;
    ASSERT_TRUE(timed.result.integer(protocol::kTimedCallField).ok());
    EXPECT_EQ(timed.result.integer(protocol::kTimedCallField).value(), 1);
    EXPECT_EQ(log.hostRoundTripsUs, std::vector<float>{11.5f});
    EXPECT_EQ(log.hostRoundTripMedianUs(), 11.5f);
    EXPECT_THAT(log.summary(), HasSubstr("host round trip before each timed call (launch, 4 bytes back, wait; 1 "
                                         "calls): 11.5 us median (11.5-11.5)"));
}

// GRADING_CALL_TRACE: one line per call, its label first, then the ms from
// asking to the verdict, the runner's ms, the answer's bytes, whether it
// held the GPU exclusively, when it was asked, the runner and how it ended.
TEST(RunnerClient, CallTraceWritesOneLinePerCall) {
    const std::string path = ::testing::TempDir() + "call-trace-" + std::to_string(getpid()) + ".tsv";
    std::filesystem::remove(path);
    setenv("GRADING_CALL_TRACE", path.c_str(), 1);
    Record input;
    input.putFloats("grid", std::vector<float>(1000, 1.0f));
    ASSERT_TRUE(callFake("echo-input", 10.0, input, "echo on grid").ok());
    ASSERT_FALSE(callFake("error", 10.0, {}, "the failing call").ok());
    unsetenv("GRADING_CALL_TRACE");
    ASSERT_TRUE(callFake("ok").ok());  // traced no more

    std::ifstream in(path);
    std::vector<std::vector<std::string>> lines;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> fields;
        std::stringstream split(line);
        for (std::string f; std::getline(split, f, '\t');) fields.push_back(f);
        lines.push_back(fields);
    }
    std::filesystem::remove(path);
    ASSERT_EQ(lines.size(), 2u);
    ASSERT_EQ(lines[0].size(), 8u);
    ASSERT_EQ(lines[1].size(), 8u);
    EXPECT_EQ(lines[0][0], "echo on grid");
    EXPECT_GE(std::stol(lines[0][1]), std::stol(lines[0][2])) << "the call's ms include the runner's";
    EXPECT_GE(std::stol(lines[0][3]), 4000) << "the echoed grid's bytes are counted";
    EXPECT_EQ(lines[0][4], "0");
    const long long askedMs = std::stoll(lines[0][5]);
    const long long nowMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
    EXPECT_GT(askedMs, nowMs - 60'000);
    EXPECT_LE(askedMs, std::stoll(lines[1][5])) << "asked in order";
    EXPECT_EQ(lines[0][6], FAKE_RUNNER);
    EXPECT_EQ(lines[0][7], "ok");
    EXPECT_EQ(lines[1][0], "the failing call");
    EXPECT_EQ(lines[1][3], "0") << "a failed call has no answer";
    EXPECT_THAT(lines[1][7], StartsWith("the runner for `the failing call`"));
}

// A call marked answerShared asks its runner once: the same request to the
// same runner, from this process or another of the run, reads the kept
// answer back, or the hang it met under the same limits. Another request is
// asked; any other failure is never kept, so each call meets it with its own
// message; without GRADING_ANSWER_CACHE a process still reads back what it
// met itself; unmarked, every call asks.
std::string emptyFolder(const std::string& name) {
    const std::string dir = ::testing::TempDir() + name + "-" + std::to_string(getpid());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// The run's answer folder (GRADING_ANSWER_CACHE), empty, for one test.
class AnswerFolder {
public:
    explicit AnswerFolder(const std::string& name)
        : dir_(emptyFolder(name)), env_({{"GRADING_ANSWER_CACHE", dir_.c_str()}}) {}
    ~AnswerFolder() { std::filesystem::remove_all(dir_); }
    const std::string& path() const { return dir_; }

private:
    std::string dir_;
    ScopedEnv env_;
};

// The fake runner's echo, its answer shared.
RunnerCall sharedEcho(double limitSeconds) {
    RunnerCall call;
    call.runner = FAKE_RUNNER;
    call.subcommand = "echo-input";
    call.timeLimitSeconds = limitSeconds;
    call.answerShared = true;
    return call;
}

TEST(RunnerClient, ASharedAnswerOrHangIsAskedOnceAndOtherFailuresEveryTime) {
    const AnswerFolder folder("shared-answers");
    RunnerCall call = sharedEcho(10.0);
    call.input.putInts("dist", {0, 1, 2});
    const RunnerCallTotals before = runnerCallTotals();
    const auto asked = [&before] { return runnerCallTotals().calls - before.calls; };
    const auto reused = [&before] { return runnerCallTotals().answersReused - before.answersReused; };

    const RunnerOutcome first = callRunner(call);
    const RunnerOutcome again = callRunner(call);
    ASSERT_TRUE(first.ok()) << first.message;
    ASSERT_TRUE(again.ok()) << again.message;
    EXPECT_THAT(again.result.ints("dist").value(), ElementsAre(0, 1, 2));
    EXPECT_EQ(again.device.device, "fake device");
    EXPECT_TRUE(again.process.exitedWith(0));
    EXPECT_EQ(asked(), 1);
    EXPECT_EQ(reused(), 1);

    call.input.putInts("dist", {0, 1, 3});
    const RunnerOutcome other = callRunner(call);
    ASSERT_TRUE(other.ok()) << other.message;
    EXPECT_THAT(other.result.ints("dist").value(), ElementsAre(0, 1, 3));
    EXPECT_EQ(asked(), 2) << "another request was answered from the first";

    call.subcommand = "error";
    for (int k = 0; k < 2; ++k) {
        const RunnerOutcome failed = callRunner(call);
        EXPECT_FALSE(failed.ok());
        EXPECT_THAT(failed.message, HasSubstr("failed (exit status 3)"));
    }
    EXPECT_EQ(asked(), 4) << "a failure was kept";

    call.subcommand = "hang";
    call.timeLimitSeconds = 0.5;
    const RunnerOutcome hung = callRunner(call);
    const auto start = std::chrono::steady_clock::now();
    const RunnerOutcome hungAgain = callRunner(call);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.25);
    EXPECT_EQ(asked(), 5) << "a hang under the same limits was met again";
    EXPECT_EQ(reused(), 2);
    EXPECT_THAT(hung.message, HasSubstr("did not finish in 0.5 s"));
    EXPECT_EQ(hungAgain.message, hung.message);
    EXPECT_FALSE(hungAgain.ok());
    EXPECT_TRUE(hungAgain.process.timedOut);
    call.timeLimitSeconds = 0.6;
    EXPECT_THAT(callRunner(call).message, HasSubstr("did not finish in 0.6 s"));
    EXPECT_EQ(asked(), 6) << "a hang under a shorter limit answered a call with a longer one";
    call.timeLimitSeconds = 10.0;

    call.subcommand = "echo-input";
    call.answerShared = false;
    ASSERT_TRUE(callRunner(call).ok());
    EXPECT_EQ(asked(), 7) << "an unmarked call was answered from a kept one";
    call.answerShared = true;
    {
        // No folder: another process's answers are out of reach, this one's are not.
        const ScopedEnv none({{"GRADING_ANSWER_CACHE", nullptr}});
        ASSERT_TRUE(callRunner(call).ok());
        EXPECT_EQ(asked(), 7) << "this process asked again what it had asked before";
        call.input.putInts("dist", {0, 1, 4});
        ASSERT_TRUE(callRunner(call).ok());
        ASSERT_TRUE(callRunner(call).ok());
        EXPECT_EQ(asked(), 8) << "this process asked again what it had asked before";
        call.subcommand = "hang";
        call.timeLimitSeconds = 0.5;
        const RunnerOutcome myHang = callRunner(call);
        EXPECT_EQ(callRunner(call).message, myHang.message);
        EXPECT_EQ(asked(), 9) << "this process met again a hang it had met before";
        call.subcommand = "echo-input";
        call.timeLimitSeconds = 10.0;
    }
    EXPECT_EQ(reused(), 5);
    shareRunnerAnswers(false);
    ASSERT_TRUE(callRunner(call).ok());
    shareRunnerAnswers(true);
    EXPECT_EQ(asked(), 10) << "a process that shares no answers read one back";
    EXPECT_EQ(reused(), 5);
}

// An answer too large for the run's folder (a 256 MiB heat grid a student
// would fill a class's disk) is read back by this process's later calls
// alone: nothing of it is written there.
TEST(RunnerClient, ALargeSharedAnswerStaysInItsProcess) {
    const AnswerFolder folder("large-answers");
    RunnerCall call = sharedEcho(30.0);
    std::vector<int32_t> large((size_t{65} << 20) / sizeof(int32_t));
    for (size_t i = 0; i < large.size(); ++i) large[i] = static_cast<int32_t>(i * 2654435761u);
    call.input.putInts("dist", large);
    const int before = runnerCallTotals().calls;

    const RunnerOutcome first = callRunner(call);
    const RunnerOutcome again = callRunner(call);
    ASSERT_TRUE(first.ok()) << first.message;
    ASSERT_TRUE(again.ok()) << again.message;
    EXPECT_EQ(runnerCallTotals().calls - before, 1);
    EXPECT_EQ(again.result.ints("dist").value(), large);
    EXPECT_TRUE(std::filesystem::is_empty(folder.path())) << "a 65 MiB answer was kept in the run's folder";
}

// askAgainStrictly's rule, against a stand-in runner that answers as scripted.
struct ScriptedCall {
    std::vector<std::string> problems;  // per call in order; "" answers
    std::vector<bool> askedStrictly;

    Reply<protocol::Probe> operator()(bool strict) {
        Reply<protocol::Probe> r;
        r.problem = problems.at(askedStrictly.size());
        askedStrictly.push_back(strict);
        return r;
    }
};

TEST(AskAgainStrictly, AnAnswerIsAskedOnceAndFast) {
    ScriptedCall runner{{""}, {}};
    EXPECT_TRUE(askAgainStrictly<protocol::Probe>(std::ref(runner)).ok());
    EXPECT_EQ(runner.askedStrictly, std::vector<bool>{false});
}

TEST(AskAgainStrictly, AFailedCallIsAskedAgainStrictlyForTheMessageThatNamesTheLaunch) {
    ScriptedCall runner{{"the runner for `find` failed: search 0 of 3: buffer d_large_block was written past its end",
                         "after naive_leftmost_prisoner (phase 1) in search 0 of 3: buffer d_large_block was written "
                         "past its end, at index 15"},
                        {}};
    const auto reply = askAgainStrictly<protocol::Probe>(std::ref(runner));
    EXPECT_EQ(runner.askedStrictly, (std::vector<bool>{false, true}));
    EXPECT_THAT(reply.problem, StartsWith("after naive_leftmost_prisoner (phase 1)"));
}

TEST(AskAgainStrictly, AStrictCallThatPassesLeavesTheFailureAsItWas) {
    ScriptedCall runner{{"search 2 of 3: d_a changed (seen by the device scan)", ""}, {}};
    const auto reply = askAgainStrictly<protocol::Probe>(std::ref(runner));
    EXPECT_EQ(runner.askedStrictly, (std::vector<bool>{false, true}));
    EXPECT_FALSE(reply.ok());
    EXPECT_EQ(reply.problem, "search 2 of 3: d_a changed (seen by the device scan)");
}

TEST(AskAgainStrictly, AHangIsAskedAgainUnlessItsBreadcrumbsNameWhereAlready) {
    for (const Hangs hangs : {Hangs::AskedAgain, Hangs::NamedAlready}) {
        int asked = 0;
        const auto reply = askAgainStrictly<protocol::Probe>(
            [&](bool) {
                ++asked;
                Reply<protocol::Probe> r;
                r.outcome.process.timedOut = true;
                r.problem = "the runner for `bfs` made no progress for 5 s; last seen: edge mapping at level 3";
                return r;
            },
            hangs);
        EXPECT_EQ(asked, hangs == Hangs::AskedAgain ? 2 : 1);
        EXPECT_THAT(reply.problem, ::testing::EndsWith("level 3"));
    }
}

TEST(AskAgainStrictly, AMachineThatCannotRunItIsNotAskedAgain) {
    int asked = 0;
    const auto reply = askAgainStrictly<protocol::Probe>([&](bool) {
        ++asked;
        Reply<protocol::Probe> r;
        r.outcome.status = RunnerOutcome::Status::NoDevice;
        r.problem = "no NVIDIA GPU found";
        return r;
    });
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(reply.cannotRunHere());
}

TEST(RunnerClient, MissingRunnerCannotStart) {
    RunnerCall call;
    call.runner = "/nonexistent/fake_runner";
    call.subcommand = "ok";
    const RunnerOutcome o = callRunner(call);
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_FALSE(o.process.started);
    EXPECT_EQ(o.message, "the runner for `ok` could not start: cannot start /nonexistent/fake_runner: No such file or directory");
}

TEST(RunnerClient, FailuresDoNotAffectTheNextCall) {
    for (const char* bad : {"crash", "garbage", "error", "no-device", "forged-after-failure"}) {
        SCOPED_TRACE(bad);
        EXPECT_FALSE(callFake(bad).ok());
        const RunnerOutcome o = callFake("ok");
        ASSERT_TRUE(o.ok()) << o.message;
    }
}

// The filter's pipe (fd 4) is read and closed before any code of the
// runner's own runs, as a real runner does.
TEST(RunnerClient, TheRunnerHoldsOnlyStdioAndItsChannel) {
    RunnerCall call;
    call.runner = FAKE_RUNNER_FILTERED;
    call.subcommand = "open-fds";
    call.timeLimitSeconds = 10.0;
    const RunnerOutcome o = callRunner(call);
    ASSERT_TRUE(o.ok()) << o.message;
    EXPECT_EQ(o.result.text("fds").value(), "0 1 2 3");
}

TEST(RunnerLastBreadcrumb, FindsTheLastAtLine) {
    EXPECT_EQ(lastBreadcrumb(""), "");
    EXPECT_EQ(lastBreadcrumb("nothing to see\n"), "");
    EXPECT_EQ(lastBreadcrumb("at: first kernel\n"), "first kernel");
    EXPECT_EQ(lastBreadcrumb("at: first\nat: second at level 2\nerror: boom\n"), "second at level 2");
    EXPECT_EQ(lastBreadcrumb("noise\nat: unterminated"), "unterminated");
    EXPECT_EQ(lastBreadcrumb("at: only\nwhat: at: not a breadcrumb\n"), "only");
    EXPECT_EQ(lastBreadcrumb("look at: this\n"), "");
    EXPECT_EQ(lastBreadcrumb("at: \n"), "");
}

TEST(RunnerClient, CtestResourceGroupBindsTheRunnerToItsGpu) {
    {
        const ScopedEnv env({{"CTEST_RESOURCE_GROUP_COUNT", "1"}, {"CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:1"}});
        const RunnerOutcome o = callFake("echo-env");
        ASSERT_TRUE(o.ok()) << o.message;
        EXPECT_EQ(o.result.text("CUDA_VISIBLE_DEVICES").value(), "1");
    }
    const ScopedEnv none({{"CUDA_VISIBLE_DEVICES", "0"}});
    EXPECT_EQ(callFake("echo-env").result.text("CUDA_VISIBLE_DEVICES").value(), "0");  // inherited untouched
}

// Nothing of the grader's reaches submitted code: not its seed, not its
// mode, not its secrets; HOME and TMPDIR are the call's own folder.
TEST(RunnerClient, TheRunnerStartsWithACleanEnvironment) {
    const ScopedEnv env({{"GRADING_SEED", "1234"}, {"GRADING_FAKE_SECRET", "answer key"}, {"HOME", "/root"}});
    const RunnerOutcome o = callFake("echo-env");
    ASSERT_TRUE(o.ok()) << o.message;
    EXPECT_EQ(o.result.text("GRADING_SEED").value(), "(unset)");
    EXPECT_EQ(o.result.text("GRADING_FAKE_SECRET").value(), "(unset)");
    EXPECT_EQ(o.result.text("GRADING_SANITIZER").value(), "(unset)");
    EXPECT_NE(o.result.text("PATH").value(), "(unset)");
    const std::string home = o.result.text("HOME").value();
    EXPECT_EQ(home, o.result.text("TMPDIR").value());
    EXPECT_THAT(home, ::testing::MatchesRegex(".*/grading-[A-Za-z0-9]{6}"));
}

TEST(RunnerClient, TheRunnerIsToldTheDeviceMemoryItMayHold) {
    {
        const ScopedEnv env({{"GRADING_RUNNER_GPU_MEMORY_GIB", "6"}});
        const RunnerOutcome o = callFake("echo-env");
        ASSERT_TRUE(o.ok()) << o.message;
        EXPECT_EQ(o.result.text("GRADING_RUNNER_GPU_MEMORY_GIB").value(), "6");
    }
    const ScopedEnv unset({{"GRADING_RUNNER_GPU_MEMORY_GIB", nullptr}});
    const RunnerOutcome o = callFake("echo-env");
    ASSERT_TRUE(o.ok()) << o.message;
    EXPECT_EQ(o.result.text("GRADING_RUNNER_GPU_MEMORY_GIB").value(), "(unset)");
}

TEST(RunnerClient, WhatARunnerLeavesInItsTempFolderIsGoneAfterTheCall) {
    const RunnerOutcome o = callFake("leave-file");
    ASSERT_TRUE(o.ok()) << o.message;
    const std::string left = o.result.text("left").value();
    EXPECT_THAT(left, ::testing::EndsWith("/left-behind"));
    EXPECT_FALSE(std::filesystem::exists(left)) << left << " outlived its call";
}

TEST(RunnerClient, SanitizerReportFailsTheCallNamingToolAndFirstError) {
    TempDir dir;
    const std::string fake = dir.file("fake-sanitizer");
    {
        std::ofstream script(fake);
        script << "#!/bin/sh\n"
                  "echo '========= COMPUTE-SANITIZER'\n"
                  "echo \"========= Invalid __global__ write of size 4 bytes ($2)\"\n"
                  "echo '=========     at walkEdgePerThread+0x90'\n"
                  "echo '========= '\n"
                  "exit 86\n";
    }
    std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
    const ScopedEnv env({{"GRADING_SANITIZER", "memcheck,racecheck"}, {"GRADING_COMPUTE_SANITIZER", fake.c_str()}});
    const RunnerOutcome o = callFake("ok", 10.0, {}, "walk --mapping edge");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_EQ(o.message,
              "compute-sanitizer (memcheck) found an error in `walk --mapping edge`: Invalid __global__ write of "
              "size 4 bytes (memcheck) | at walkEdgePerThread+0x90");
}

TEST(RunnerClient, ProbeNeverRunsUnderTheSanitizer) {
    const ScopedEnv env({{"GRADING_SANITIZER", "memcheck"}, {"GRADING_COMPUTE_SANITIZER", "/nonexistent/tool"}});
    RunnerCall call;
    call.runner = FAKE_RUNNER;
    call.subcommand = "probe";
    const RunnerOutcome o = callRunner(call);
    EXPECT_TRUE(o.ok()) << o.message;
}

// A typed subcommand of the fake runner's.
struct Levels {
    int64_t levels = 0;
    std::vector<int32_t> dist;
    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("levels", s.levels);
        field("dist", s.dist);
    }
};
struct Ok {
    static constexpr const char* kName = "ok";
    using Request = protocol::Empty;
    using Result = Levels;
};
struct Missing {
    static constexpr const char* kName = "echo-env";
    using Request = protocol::Empty;
    using Result = Levels;
};

TEST(RunnerClient, TypedCallDecodesOrNamesTheMissingField) {
    const Reply<Ok> ok = call<Ok>(FAKE_RUNNER, {}, {});
    ASSERT_TRUE(ok.ok()) << ok.problem;
    EXPECT_EQ(ok.result.levels, 3);
    EXPECT_THAT(ok.result.dist, ElementsAre(0, 1, 2, -1));
    const Reply<Missing> missing = call<Missing>(FAKE_RUNNER, {}, {});
    EXPECT_EQ(missing.problem, "the runner's result is incomplete: the result has no field \"levels\"");
}

}  // namespace
}  // namespace grading
