// runProcess: exit codes, capture of both streams, signals, the time limit
// (including children that leave something holding the pipes), environment,
// start failures, the output cap; and how describeEnd words each ending.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "harness/process.h"
#include "harness/runner_client.h"

namespace grading {
namespace {

using ::testing::EndsWith;

ProcessResult shell(const std::string& script, ProcessOptions options = {}) {
    return runProcess({"/bin/sh", "-c", script}, options);
}

ProcessOptions withLimit(double seconds) {
    ProcessOptions o;
    o.timeLimitSeconds = seconds;
    return o;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A killed process is either gone or a zombie waiting for its new parent.
bool processEnded(int pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    if (!stat) return true;
    std::string line;
    std::getline(stat, line);
    const size_t close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
}

// Whether `pid` had ended; if not, it is killed (ours to clean up).
bool endedElseKilled(int pid) {
    const bool ended = processEnded(pid);
    if (!ended) kill(pid, SIGKILL);
    return ended;
}

bool processIsDead(int pid) {
    // SIGKILL lands asynchronously: the pipes close a moment before the
    // process turns into a zombie, so allow it a little time.
    for (int attempt = 0; attempt < 100; ++attempt) {
        if (processEnded(pid)) return true;
        usleep(10000);
    }
    return false;
}

TEST(Process, ExitCodesAreReported) {
    for (int code : {0, 1, 3, 77}) {
        const ProcessResult r = shell("exit " + std::to_string(code));
        EXPECT_TRUE(r.started);
        EXPECT_FALSE(r.timedOut);
        EXPECT_EQ(r.signal, 0);
        EXPECT_EQ(r.exitCode, code);
        EXPECT_TRUE(r.exitedWith(code));
        EXPECT_FALSE(r.exitedWith(code + 1));
    }
}

TEST(Process, StdoutAndStderrAreCapturedSeparately) {
    const ProcessResult r = shell("printf 'to out\\n'; printf 'to err\\n' >&2; printf 'more out'");
    EXPECT_TRUE(r.exitedWith(0));
    EXPECT_EQ(r.out, "to out\nmore out");
    EXPECT_EQ(r.err, "to err\n");
    EXPECT_FALSE(r.truncated);
}

TEST(Process, LargeOutputOnBothStreamsDoesNotDeadlock) {
    // Far beyond a pipe buffer on each stream, so both must be drained together.
    const ProcessResult r = shell(
        "head -c 300000 /dev/zero | tr '\\0' a; head -c 300000 /dev/zero | tr '\\0' b >&2; "
        "head -c 300000 /dev/zero | tr '\\0' c",
        withLimit(20));
    EXPECT_TRUE(r.exitedWith(0)) << describeEnd(r);
    EXPECT_EQ(r.out, std::string(300000, 'a') + std::string(300000, 'c'));
    EXPECT_EQ(r.err, std::string(300000, 'b'));
}

TEST(Process, SignalIsReportedWithItsNumber) {
    const ProcessResult r = shell("ulimit -c 0; echo before; kill -SEGV $$; echo after");
    EXPECT_TRUE(r.started);
    EXPECT_FALSE(r.timedOut);
    EXPECT_EQ(r.signal, SIGSEGV);
    EXPECT_FALSE(r.exitedWith(0));
    EXPECT_EQ(r.out, "before\n");
    EXPECT_EQ(describeEnd(r), "killed by signal 11 (Segmentation fault)");
}

TEST(Process, HangIsKilledAtAShortLimit) {
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult r = shell("echo started; echo 'at: spin' >&2; sleep 30", withLimit(0.5));
    const double elapsed = secondsSince(start);
    EXPECT_TRUE(r.started);
    EXPECT_TRUE(r.timedOut);
    EXPECT_EQ(r.signal, 0);  // our own SIGKILL is not the child's fault
    EXPECT_FALSE(r.exitedWith(0));
    EXPECT_GE(r.seconds, 0.5);
    EXPECT_LT(elapsed, 3.0);
    // What it printed before the kill is kept: it says where it was.
    EXPECT_EQ(r.out, "started\n");
    EXPECT_EQ(r.err, "at: spin\n");
    EXPECT_EQ(describeEnd(r), "killed at the time limit after 1 s");
}

TEST(Process, GrandchildHoldingThePipeIsKilledWithTheGroup) {
    // The child exits at once; its background grandchild keeps stdout open.
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult r = shell("sleep 30 & echo $!; exit 0", withLimit(0.5));
    EXPECT_LT(secondsSince(start), 3.0);
    EXPECT_TRUE(r.timedOut);
    const int grandchild = std::atoi(r.out.c_str());
    ASSERT_GT(grandchild, 1) << r.out;
    EXPECT_TRUE(processIsDead(grandchild)) << "grandchild " << grandchild << " survived";
}

TEST(Process, HangingChildWithHelperIsKilledWithTheGroup) {
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult r = shell("sleep 30 & echo $!; sleep 30", withLimit(0.5));
    EXPECT_LT(secondsSince(start), 3.0);
    EXPECT_TRUE(r.timedOut);
    const int helper = std::atoi(r.out.c_str());
    ASSERT_GT(helper, 1) << r.out;
    EXPECT_TRUE(processIsDead(helper)) << "helper " << helper << " survived";
}

TEST(Process, PipeHeldOutsideTheGroupStillReturns) {
    // A subshell that ends at once leaves its setsid grandchild to init: out
    // of the group and of the tree the kill finds, it keeps the pipes open;
    // runProcess must give up on them and return.
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult r = shell("(setsid sleep 5 & echo $!); sleep 30", withLimit(0.5));
    const double elapsed = secondsSince(start);
    const int escaped = std::atoi(r.out.c_str());
    if (escaped > 1) kill(escaped, SIGKILL);  // ours to clean up
    EXPECT_TRUE(r.timedOut);
    EXPECT_LT(elapsed, 4.0);
}

// A sandboxed runner lives in a session of its own, out of its group's
// reach, with its kernels: the kill ends it, and has waited for it, before
// the caller gives the GPU to the next call.
TEST(Process, AProcessThatLeftTheGroupHasEndedWhenTheKillReturns) {
    const ProcessResult r = shell("setsid sleep 30 >/dev/null 2>&1 & echo $!; sleep 30", withLimit(0.5));
    EXPECT_TRUE(r.timedOut);
    const int escaped = std::atoi(r.out.c_str());
    ASSERT_GT(escaped, 1) << r.out;
    EXPECT_TRUE(endedElseKilled(escaped)) << "process " << escaped << ", in a session of its own, outlived the kill";
}

TEST(Process, AStoppedChildsProcessesInOtherSessionsHaveEnded) {
    // The pid is said from inside the new session, so the kill comes after the escape.
    Child child = startChild(
        {"/bin/sh", "-c", "setsid sh -c 'echo $$; exec sleep 30 >/dev/null 2>&1' & exec sleep 30"}, {}, false);
    ASSERT_TRUE(child.started()) << child.startError;
    std::string line;
    char c = 0;
    while (read(child.out, &c, 1) == 1 && c != '\n') line += c;
    const int escaped = std::atoi(line.c_str());
    ASSERT_GT(escaped, 1) << line;
    stopChild(child);
    EXPECT_TRUE(endedElseKilled(escaped)) << "process " << escaped << ", in a session of its own, outlived stopChild";
}

TEST(Process, EnvironmentIsAddedToTheParents) {
    ProcessOptions options;
    options.environment = {{"GRADING_TEST_VALUE", "hello world"}, {"HOME", "/nowhere"}};
    const ProcessResult r =
        shell("printf '%s|%s|%s|' \"$GRADING_TEST_VALUE\" \"$HOME\" \"$PATH\"; env | grep -c '^HOME='", options);
    ASSERT_TRUE(r.exitedWith(0)) << describeEnd(r) << r.err;
    const char* path = std::getenv("PATH");
    // An override replaces the parent's entry rather than adding a second one.
    EXPECT_EQ(r.out, "hello world|/nowhere|" + std::string(path != nullptr ? path : "") + "|1\n");
}

TEST(Process, WorkingDirectoryIsUsed) {
    TempDir dir;
    ProcessOptions options;
    options.workingDirectory = dir.path();
    const ProcessResult r = shell("pwd -P", options);
    ASSERT_TRUE(r.exitedWith(0)) << describeEnd(r);
    EXPECT_EQ(r.out, std::filesystem::canonical(dir.path()).string() + "\n");
}

TEST(Process, MissingExecutableIsNotStarted) {
    const ProcessResult r = runProcess({"/nonexistent/grading-program", "arg"});
    EXPECT_FALSE(r.started);
    EXPECT_FALSE(r.timedOut);
    EXPECT_FALSE(r.exitedWith(127));
    EXPECT_EQ(r.startError, "cannot start /nonexistent/grading-program: No such file or directory");
    EXPECT_EQ(describeEnd(r), r.startError);
}

TEST(Process, EmptyCommandIsNotStarted) {
    const ProcessResult r = runProcess({});
    EXPECT_FALSE(r.started);
    EXPECT_EQ(r.startError, "no command");
}

TEST(Process, OutputCapKeepsTheTail) {
    std::ostringstream full;
    for (int i = 1; i <= 2000; ++i) full << i << '\n';
    ProcessOptions options;
    options.outputCap = 100;
    const ProcessResult r = shell("seq 1 2000; echo short >&2", options);
    ASSERT_TRUE(r.exitedWith(0)) << describeEnd(r);
    EXPECT_TRUE(r.truncated);
    EXPECT_EQ(r.out.size(), 100u);
    EXPECT_THAT(full.str(), EndsWith(r.out));
    EXPECT_THAT(r.out, EndsWith("1999\n2000\n"));
    EXPECT_EQ(r.err, "short\n");
}

// Many reads past the cap: never more than twice the cap kept between reads,
// and keepTails leaves exactly the last `cap` bytes of all that came.
TEST(Process, AppendCappedKeepsTheTailOfAFlood) {
    std::string all, kept;
    bool truncated = false;
    size_t most = 0;
    for (int i = 0; i < 5000; ++i) {
        const std::string read = std::to_string(i) + ",";
        all += read;
        appendCapped(&kept, read.data(), read.size(), 100, &truncated);
        most = std::max(most, kept.size());
    }
    EXPECT_TRUE(truncated);
    EXPECT_LE(most, 200u);
    ProcessResult r;
    r.out = kept;
    keepTails(r, 100);
    EXPECT_EQ(r.out, all.substr(all.size() - 100));
}

TEST(Process, AReadLongerThanTheCapKeepsItsOwnTail) {
    std::string kept = "earlier";
    bool truncated = false;
    const std::string read(300, 'x');
    appendCapped(&kept, (read + "end").data(), 303, 100, &truncated);
    EXPECT_TRUE(truncated);
    EXPECT_EQ(kept, std::string(97, 'x') + "end");
}

TEST(Process, OutputAtTheCapIsNotTruncated) {
    ProcessOptions options;
    options.outputCap = 6;
    const ProcessResult r = shell("printf 'abcdef'", options);
    EXPECT_FALSE(r.truncated);
    EXPECT_EQ(r.out, "abcdef");
}

TEST(ProcessDescribeEnd, WordsEachEnding) {
    ProcessResult r;
    r.started = true;
    r.exitCode = 3;
    EXPECT_EQ(describeEnd(r), "exit status 3");

    r.exitCode = -1;
    r.signal = SIGABRT;
    EXPECT_EQ(describeEnd(r), "killed by signal 6 (Aborted)");

    r.signal = 0;
    r.timedOut = true;
    r.seconds = 20.2;
    EXPECT_EQ(describeEnd(r), "killed at the time limit after 20 s");
    r.seconds = 0.6;
    EXPECT_EQ(describeEnd(r), "killed at the time limit after 1 s");

    ProcessResult notStarted;
    notStarted.startError = "cannot start x: Permission denied";
    EXPECT_EQ(describeEnd(notStarted), "cannot start x: Permission denied");
}

}  // namespace
}  // namespace grading
