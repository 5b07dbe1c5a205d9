// The sandbox from outside: a runner of submitted code (the fake runner's
// escapes) cannot read another student's files or the grader's, cannot write
// the grader's outputs, cannot outlive its call, reach the network, exhaust
// processes or disk, or signal the grader; and without a sandbox, submitted
// code is not run unless the instructor says so. These need no GPU.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

#include "harness/runner_client.h"
#include "harness/sandbox.h"
#include "scoped_env.h"

namespace grading {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

std::atomic<int> usr1{0};
void countUsr1(int) { usr1.fetch_add(1); }

class Sandbox : public ::testing::Test {
protected:
    void SetUp() override {
        if (!sandboxUnavailable().empty()) GTEST_SKIP() << "no sandbox on this machine: " << sandboxUnavailable();
        setSandboxPolicy(SandboxPolicy::Required);
    }
    void TearDown() override { setSandboxPolicy(SandboxPolicy::Off); }

    // The outcome line the escape reported, or the call's failure.
    std::string attempt(const std::string& escape, Record request = {}, double limit = 20.0) {
        RunnerCall call;
        call.runner = FAKE_RUNNER;
        call.subcommand = escape;
        call.input = std::move(request);
        call.timeLimitSeconds = limit;
        const RunnerOutcome o = callRunner(call);
        if (!o.ok()) return "call failed: " + o.message;
        return o.result.text("outcome").value();
    }
    // One call in a session of its own, closed after it.
    static RunnerOutcome sessionCall(const std::string& subcommand) {
        const ScopedEnv sessions({{"GRADING_RUNNER_SESSIONS", "1"}});
        RunnerCall call;
        call.runner = FAKE_RUNNER;
        call.subcommand = subcommand;
        call.timeLimitSeconds = 20.0;
        RunnerOutcome o = callRunner(call);
        closeSessions();
        return o;
    }
    static Record with(const std::string& name, const std::string& value) {
        Record r;
        r.putText(name, value);
        return r;
    }

    TempDir outside;  // stands for another student's folder, the build folder, the report folder
};

TEST_F(Sandbox, RunsAsNobodyAndSeesOnlyItsOwnProcesses) {
    const std::string who = attempt("whoami");
    // As root, a uid of the call's own from 400000 up (setpriv).
    if (geteuid() == 0) EXPECT_THAT(who, MatchesRegex("uid 4[0-9]{5}, .*"));
    EXPECT_THAT(who, MatchesRegex("uid [0-9]+, pid [0-9], [1-9] processes visible")) << "it saw the machine's processes";
}

TEST_F(Sandbox, CannotReadAnotherStudentsFileOrTheGradersBuild) {
    std::ofstream(outside.file("alice.cu")) << "alice's solution\n";
    EXPECT_THAT(attempt("read-file", with("path", outside.file("alice.cu"))), StartsWith("open failed"));
    EXPECT_THAT(attempt("read-file", with("path", FAKE_RUNNER)), StartsWith("open failed"));
    // What it may read: the system's files.
    EXPECT_THAT(attempt("read-file", with("path", "/etc/os-release")), StartsWith("read: "));
}

TEST_F(Sandbox, CannotWriteTheGradersOutputs) {
    const std::string junit = outside.file("junit-submission.xml");
    std::ofstream(junit) << "<testsuite/>\n";
    EXPECT_THAT(attempt("write-file", with("path", junit)), StartsWith("open failed"));
    EXPECT_THAT(attempt("write-file", with("path", outside.file("results.json"))), StartsWith("open failed"));
    std::ifstream in(junit);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "<testsuite/>");
    EXPECT_FALSE(std::filesystem::exists(outside.file("results.json")));
}

// Processes of this machine whose name is `name` (the fake runner names
// its daemon and its bomb's children after the request, so a test run in
// parallel with others counts its own alone).
int alive(const std::string& name) {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::ifstream comm(entry.path() / "comm");
        std::string n;
        if (comm && std::getline(comm, n) && n == name) ++count;
    }
    return count;
}

std::string uniqueName(const char* what) { return what + std::to_string(getpid() % 100000); }

TEST_F(Sandbox, ADaemonDiesWithItsCall) {
    Record request = with("path", "/tmp/outlived");
    const std::string name = uniqueName("gdaemon");
    request.putText("name", name);
    EXPECT_EQ(attempt("daemon", request), "daemon started");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(alive(name), 0) << "a process of the runner (setsid, forked twice) outlived its call";
}

// A runner killed at its limit lives in the sandbox's session and PID
// namespace, which its group's kill misses and which die after the reaped
// bwrap: its call returns (and its GPU slot goes back) only once they have
// ended, so its kernels cannot slow the next call's. No sleep before the count.
TEST_F(Sandbox, AHungRunnerHasEndedWhenItsCallReturns) {
    for (const char* sessions : {"0", "1"}) {
        SCOPED_TRACE(std::string("GRADING_RUNNER_SESSIONS=") + sessions);
        const ScopedEnv mode({{"GRADING_RUNNER_SESSIONS", sessions}});
        const std::string name = uniqueName("ghung");
        const std::string outcome = attempt("hang", with("name", name), 1.0);
        EXPECT_THAT(outcome, StartsWith("call failed"));
        EXPECT_EQ(alive(name), 0) << "the hung runner outlived its call";
        closeSessions();
    }
}

// In a session the runner lives on between calls, and so would a daemon it
// left: the grader finds it below the sandbox's init, reparented there, and
// fails the call that left it.
TEST_F(Sandbox, ADaemonLeftBySessionFailsItsCall) {
    const RunnerOutcome o = sessionCall("leave-daemon");
    ASSERT_FALSE(o.ok());
    EXPECT_THAT(o.message, HasSubstr("left 1 process running beside it once it had answered"));
}

// The runner's threads, read from outside the sandbox: the runner is the
// PID namespace init's first child.
TEST_F(Sandbox, AThreadLeftBySessionFailsItsCall) {
    const RunnerOutcome o = sessionCall("leave-thread");
    ASSERT_FALSE(o.ok());
    EXPECT_THAT(o.message, HasSubstr("left 1 host thread running once it had answered"));
}

TEST_F(Sandbox, HasNoNetwork) {
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(listener, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_EQ(listen(listener, 1), 0);
    socklen_t len = sizeof addr;
    getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
    EXPECT_THAT(attempt("connect", with("port", std::to_string(ntohs(addr.sin_port)))), StartsWith("connect failed"));
    close(listener);
}

TEST_F(Sandbox, AForkBombIsBoundedAndEndsWithItsCall) {
    const auto start = std::chrono::steady_clock::now();
    const std::string name = uniqueName("gbomb");
    const std::string bomb = attempt("fork-bomb", with("name", name), 60.0);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 60.0);
    ASSERT_THAT(bomb, MatchesRegex("forked [0-9]+")) << bomb;
    EXPECT_LT(std::stoi(bomb.substr(7)), 100000) << "nothing bounded the processes";
    std::cout << "fork bomb: " << bomb << "\n";
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(alive(name), 0) << "the bomb's children outlived the call";
    // The machine still forks: the bomb's children went with the sandbox.
    EXPECT_EQ(attempt("whoami").rfind("uid", 0), 0u);
}

TEST_F(Sandbox, FillingTheDiskStopsAtItsPrivateLimit) {
    const std::string fill = attempt("fill-disk", {}, 60.0);
    ASSERT_THAT(fill, MatchesRegex("wrote [0-9]+ bytes, then write failed: .*")) << fill;
    EXPECT_LE(std::stoll(fill.substr(6)), static_cast<long long>(SandboxLimits{}.tmpBytes));
}

TEST_F(Sandbox, CannotSignalTheGrader) {
    usr1 = 0;
    struct sigaction action {};
    action.sa_handler = countUsr1;
    struct sigaction old {};
    sigaction(SIGUSR1, &action, &old);
    const std::string sent = attempt("signal-pid", with("pid", std::to_string(getpid())));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    sigaction(SIGUSR1, &old, nullptr);
    EXPECT_EQ(usr1.load(), 0) << "the runner signalled the grader (" << sent << ")";
}

TEST_F(Sandbox, TheProtocolWorksInside) {
    RunnerCall call;
    call.runner = FAKE_RUNNER;
    call.subcommand = "ok";
    const RunnerOutcome ok = callRunner(call);
    ASSERT_TRUE(ok.ok()) << ok.message;
    EXPECT_EQ(ok.result.integer("levels").value(), 3);
    call.subcommand = "crash";
    const RunnerOutcome crash = callRunner(call);
    EXPECT_EQ(crash.process.signal, 11) << crash.message;
    call.subcommand = "forged-after-failure";
    EXPECT_THAT(callRunner(call).message, HasSubstr("answered 2 times"));
}

// As root each runner runs as a uid of its own, and RLIMIT_NPROC counts per
// uid: two runners sharing one (two grader processes whose searches start at
// the same place) would let one's fork bomb use up the other's processes.
TEST(SandboxUids, NoTwoLeasesShareAUidUntilOneIsGivenBack) {
    TempDir locks;
    std::optional<UidLease> first = leaseSandboxUid(locks.path(), 7);
    const UidLease second = leaseSandboxUid(locks.path(), 7);
    ASSERT_TRUE(first->locked() && second.locked());
    EXPECT_EQ(first->uid(), kSandboxFirstUid + 7);
    EXPECT_EQ(second.uid(), kSandboxFirstUid + 8);
    // Another grader process, starting at the same place, skips both.
    const pid_t child = fork();
    if (child == 0) _exit(leaseSandboxUid(locks.path(), 7).uid() - kSandboxFirstUid);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 9);
    first.reset();  // given back: the next search finds it free
    EXPECT_EQ(leaseSandboxUid(locks.path(), 7).uid(), kSandboxFirstUid + 7);
    // The range wraps; a folder that cannot hold locks leases nothing.
    const UidLease last = leaseSandboxUid(locks.path(), 2 * kSandboxUids - 1);
    EXPECT_EQ(last.uid(), kSandboxFirstUid + kSandboxUids - 1);
    EXPECT_EQ(leaseSandboxUid(locks.path(), kSandboxUids - 1).uid(), kSandboxFirstUid);
    EXPECT_FALSE(leaseSandboxUid(locks.file("missing"), 7).locked());
}

// As root, a sandboxed command holds its uid's lease for as long as it lives:
// a search starting at that very uid (another grader process's) passes it by.
TEST(SandboxUids, ARunnersUidIsLeasedUntilItsCommandIsGone) {
    if (geteuid() != 0) GTEST_SKIP() << "runners get uids of their own only when the grader is root";
    ProcessOptions options;
    std::optional<SandboxedCommand> command = sandboxCommand({kSandboxRunner}, FAKE_RUNNER, "", {}, options);
    const int uid = command->uid.uid();
    ASSERT_TRUE(command->uid.locked()) << "no lock folder for the sandbox's uids on this machine";
    EXPECT_THAT(command->argv, ::testing::Contains("--reuid=" + std::to_string(uid)));
    const std::string& locks = sandboxUidLockDir();
    const unsigned at = static_cast<unsigned>(uid - kSandboxFirstUid);
    EXPECT_NE(leaseSandboxUid(locks, at).uid(), uid);
    removeSandboxCgroup(command->cgroup);
    command.reset();
    EXPECT_EQ(leaseSandboxUid(locks, at).uid(), uid);
}

// No sandbox: a runner of submitted code is not started, the outcome says
// this machine cannot run it, and the message says how the instructor can
// choose otherwise.
TEST(SandboxMissing, SubmittedCodeIsNotRunWithoutItUnlessTurnedOff) {
    setenv("GRADING_BWRAP", "/nonexistent/bwrap", 1);
    setSandboxPolicy(SandboxPolicy::Required);
    RunnerCall call;
    call.runner = FAKE_RUNNER;
    call.subcommand = "ok";
    const RunnerOutcome refused = callRunner(call);
    EXPECT_FALSE(refused.ok());
    // This machine's lack, not the code's: the gates read NOT RUN, never FAIL.
    EXPECT_EQ(refused.status, RunnerOutcome::Status::NoSandbox);
    EXPECT_TRUE(refused.cannotRunHere());
    EXPECT_THAT(refused.message, HasSubstr("was not started: the sandbox cannot start"));
    EXPECT_THAT(refused.message, HasSubstr("set GRADING_SANDBOX=off to grade without a sandbox"));
    setenv("GRADING_SANDBOX", "off", 1);
    EXPECT_TRUE(callRunner(call).ok());
    unsetenv("GRADING_SANDBOX");
    setSandboxPolicy(SandboxPolicy::Preferred);
    EXPECT_TRUE(callRunner(call).ok()) << "the instructor's own runners run without a sandbox";
    unsetenv("GRADING_BWRAP");
    setSandboxPolicy(SandboxPolicy::Off);
}

}  // namespace
}  // namespace grading
