// callRunner against a fake runner with scripted misbehaviour: each way a
// runner can end becomes the right status and an exact message, and one bad
// call leaves nothing behind to disturb the next.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "harness/runner_client.h"

namespace grading {
namespace {

using ::testing::ElementsAre;
using ::testing::StartsWith;

RunnerOutcome callFake(const std::string& subcommand, std::vector<std::string> args = {},
                       double limitSeconds = 10.0, const Record* input = nullptr, std::string label = "") {
    RunnerCall call;
    call.runner = FAKE_RUNNER;
    call.subcommand = subcommand;
    call.args = std::move(args);
    call.timeLimitSeconds = limitSeconds;
    call.input = input;
    call.label = std::move(label);
    return callRunner(call);
}

// The TempDir in a message is random; everything else must match exactly.
const std::regex kTempDir(R"([^ (]*/grading-[A-Za-z0-9]{6})");
std::string withoutTempDir(const std::string& message) { return std::regex_replace(message, kTempDir, "TMP"); }

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

const std::string kEarlyExitAdvice =
    "; a submission that calls exit() ends the runner like this";

TEST(RunnerClient, OkReturnsTheResultAndPassesArgsInOrder) {
    const RunnerOutcome o = callFake("ok", {"--mapping", "edge", "--repeat", "3"});
    ASSERT_TRUE(o.ok()) << o.message;
    EXPECT_FALSE(o.noDevice());
    EXPECT_EQ(o.message, "");
    EXPECT_TRUE(o.process.exitedWith(0));
    EXPECT_EQ(o.result.text("device").value(), "fake device");
    EXPECT_EQ(o.result.text("args").value(), "--mapping edge --repeat 3");
    EXPECT_EQ(o.result.integer("levels").value(), 3);
    EXPECT_THAT(o.result.ints("dist").value(), ElementsAre(0, 1, 2, -1));
    EXPECT_EQ(o.result.real("ms").value(), 1.25);
}

TEST(RunnerClient, HangIsKilledAndNamesTheLastBreadcrumb) {
    const auto start = std::chrono::steady_clock::now();
    const RunnerOutcome o = callFake("hang", {}, 1.0);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 4.0);
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_TRUE(o.process.timedOut);
    EXPECT_EQ(o.message, "the runner for `hang` did not finish in 1 s (it was in fakeKernel at level 3)");
}

TEST(RunnerClient, HangLeavesNoProcessBehindAndTheNextCallWorks) {
    const RunnerOutcome hung = callFake("hang", {}, 0.5, nullptr, "bfs on chain");
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

TEST(RunnerClient, EarlyExitWithoutAResultFails) {
    const RunnerOutcome o = callFake("early-exit");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_TRUE(o.process.exitedWith(0));
    EXPECT_EQ(withoutTempDir(o.message),
              "the runner for `early-exit` exited with status 0 without a complete result (it was in fakeKernel "
              "at level 2): no result file at TMP/result.rec" + kEarlyExitAdvice);
}

TEST(RunnerClient, EarlyExitTempDirIsRemovedAfterTheCall) {
    const RunnerOutcome o = callFake("early-exit");
    std::smatch dir;
    ASSERT_TRUE(std::regex_search(o.message, dir, kTempDir)) << o.message;
    EXPECT_FALSE(std::filesystem::exists(dir.str())) << dir.str();
}

TEST(RunnerClient, TruncatedResultFails) {
    const RunnerOutcome o = callFake("truncated");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_EQ(o.message,
              "the runner for `truncated` exited with status 0 without a complete result: the result file is "
              "truncated: no closing \"end\" line (the runner stopped before it finished writing)" +
                  kEarlyExitAdvice);
}

TEST(RunnerClient, GarbageResultFails) {
    const RunnerOutcome o = callFake("garbage");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_EQ(o.message,
              "the runner for `garbage` exited with status 0 without a complete result: not a result file (it "
              "does not start with \"gpu-grading-record 1\")" + kEarlyExitAdvice);
}

TEST(RunnerClient, NoDeviceIsItsOwnStatusWithTheReason) {
    const RunnerOutcome o = callFake("no-device");
    EXPECT_EQ(o.status, RunnerOutcome::Status::NoDevice);
    EXPECT_TRUE(o.noDevice());
    EXPECT_FALSE(o.ok());
    EXPECT_EQ(o.message, "no usable CUDA device: cudaErrorNoDevice: no CUDA-capable device is detected");
}

TEST(RunnerClient, CudaErrorExitGivesTheErrorLines) {
    const RunnerOutcome o = callFake("error");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_TRUE(o.process.exitedWith(runner_exit::kCudaError));
    EXPECT_EQ(o.message,
              "the runner for `error` failed (exit status 3): CUDA error in expandEdgePerThread (edge mapping) "
              "at level 4: cudaErrorIllegalAddress (an illegal memory access was encountered)");
}

TEST(RunnerClient, GuardViolationExitGivesTheErrorLine) {
    const RunnerOutcome o = callFake("guard");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_TRUE(o.process.exitedWith(runner_exit::kGuardViolation));
    EXPECT_EQ(o.message,
              "the runner for `guard` failed (exit status 4): after expandEdgePerThread (edge mapping) at level "
              "2: buffer nextFrontier was written past its end, at index 10 (it holds 10)");
}

TEST(RunnerClient, FailureWithoutErrorLinesQuotesStderr) {
    const RunnerOutcome o = callFake("bogus");
    EXPECT_EQ(o.status, RunnerOutcome::Status::Failed);
    EXPECT_EQ(o.message, "the runner for `bogus` failed (exit status 2): stderr: fake_runner: unknown subcommand \"bogus\"");
}

TEST(RunnerClient, DefaultLabelIsSubcommandAndArgs) {
    const RunnerOutcome o = callFake("error", {"--mapping", "edge"});
    EXPECT_THAT(o.message, StartsWith("the runner for `error --mapping edge` failed (exit status 3): "));
}

TEST(RunnerClient, InputRecordReachesTheRunnerIntact) {
    Record input;
    input.putInts("row_offsets", {0, 2, 3, 3});
    input.putUints("mask", {0xdeadbeefu});
    input.putInt64s("big", {std::numeric_limits<int64_t>::min()});
    input.putFloats("f", {0.5f, -2.0f});
    input.putDoubles("d", {1e-300});
    input.putText("graph", "3 2\na\nb\nc\n0 1\n1 2\n");
    const RunnerOutcome o = callFake("echo-input", {"--source", "0"}, 10.0, &input);
    ASSERT_TRUE(o.ok()) << o.message;
    EXPECT_EQ(o.result.text("args").value(), "--source 0");
    for (const auto& [name, field] : input.fields()) {
        SCOPED_TRACE(name);
        ASSERT_TRUE(o.result.has(name));
        const Field& echoed = o.result.fields().at(name);
        EXPECT_EQ(echoed.type, field.type);
        EXPECT_EQ(echoed.count, field.count);
        EXPECT_EQ(echoed.bytes, field.bytes);
    }
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
    for (const char* bad : {"crash", "garbage", "error", "no-device"}) {
        SCOPED_TRACE(bad);
        EXPECT_FALSE(callFake(bad).ok());
        const RunnerOutcome o = callFake("ok", {"--after", bad});
        ASSERT_TRUE(o.ok()) << o.message;
        EXPECT_EQ(o.result.text("args").value(), std::string("--after ") + bad);
    }
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

// Sets environment variables for one test and restores them after.
class ScopedEnv {
public:
    ScopedEnv(std::initializer_list<std::pair<const char*, const char*>> vars) {
        for (const auto& [name, value] : vars) {
            const char* old = std::getenv(name);
            saved_.emplace_back(name, old == nullptr ? std::nullopt : std::optional<std::string>(old));
            setenv(name, value, 1);
        }
    }
    ~ScopedEnv() {
        for (const auto& [name, value] : saved_) {
            if (value) {
                setenv(name.c_str(), value->c_str(), 1);
            } else {
                unsetenv(name.c_str());
            }
        }
    }

private:
    std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

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
    const RunnerOutcome o = callFake("ok", {}, 10.0, nullptr, "walk --mapping edge");
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
    EXPECT_THAT(o.message, ::testing::Not(::testing::HasSubstr("/nonexistent/tool")));
}

}  // namespace
}  // namespace grading
