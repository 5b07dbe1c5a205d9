// The runners' system-call filter from outside (syscall_filter.h): a runner
// that makes a process, runs another program or makes memory executable
// fails its call, and the message names the call; what the filter leaves to
// a runner (threads, the protocol, libraries mapped by the loader) still
// works. Run on the filtered stand-in runner, in the sandbox and out of it:
// the filter holds in both. No GPU.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/syscall.h>

#include <string>

#include "harness/runner_client.h"
#include "harness/sandbox.h"
#include "harness/syscall_filter.h"

namespace grading {
namespace {

using ::testing::HasSubstr;

class SyscallFilter : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override {
        if (GetParam() && !sandboxUnavailable().empty()) {
            GTEST_SKIP() << "no sandbox on this machine: " << sandboxUnavailable();
        }
        setSandboxPolicy(GetParam() ? SandboxPolicy::Required : SandboxPolicy::Off);
    }
    void TearDown() override { setSandboxPolicy(SandboxPolicy::Off); }

    static RunnerOutcome attempt(const std::string& what, const char* runner = FAKE_RUNNER_FILTERED) {
        RunnerCall call;
        call.runner = runner;
        call.subcommand = what;
        call.timeLimitSeconds = 20.0;
        return callRunner(call);
    }
    // The call fails, the runner killed by SIGSYS, and the message names `called`.
    static void expectStopped(const std::string& what, const std::string& called) {
        const RunnerOutcome o = attempt(what);
        ASSERT_FALSE(o.ok()) << what << " got through: " << o.result.text("outcome").value();
        EXPECT_EQ(o.process.signal, SIGSYS) << what;
        EXPECT_THAT(o.message, HasSubstr("was stopped by the sandbox's system-call filter: it called " + called))
            << what;
    }
    static std::string outcome(const std::string& what) {
        const RunnerOutcome o = attempt(what);
        return o.ok() ? o.result.text("outcome").value() : "call failed: " + o.message;
    }
};

TEST_P(SyscallFilter, LeavesThreadsAndTheProtocolWorking) {
    EXPECT_TRUE(attempt("ok").ok()) << attempt("ok").message;
    EXPECT_EQ(outcome("make-thread"), "a thread ran");  // glibc's clone3 answered ENOSYS, then clone
}

TEST_P(SyscallFilter, AForkFailsTheCallNamingIt) {
    expectStopped("fork", "clone without CLONE_THREAD (a new process: a runner makes threads only)");
}

TEST_P(SyscallFilter, BlockingSigsysDoesNotLetAForkThrough) {
    expectStopped("fork-with-sigsys-blocked", "something the filter refuses with SIGSYS blocked");
}

TEST_P(SyscallFilter, AnExecFailsTheCallNamingIt) {
    expectStopped("exec", "execve (a runner runs no other program)");
}

TEST_P(SyscallFilter, MemoryMadeExecutableFailsTheCallNamingIt) {
    expectStopped("exec-memory", "mmap of anonymous memory with PROT_EXEC");
    expectStopped("mprotect-exec", "mprotect with PROT_EXEC");
}

TEST_P(SyscallFilter, AHandlerOfTheRunnersOwnCannotHideARefusal) {
    expectStopped("own-sigsys-handler", "something the filter refuses with SIGSYS blocked, or set a SIGSYS handler "
                                        "of its own");
}

// What grading.md says the filter leaves open: the loader's way of mapping a
// library (a file, executable), which the CUDA runtime uses to open the driver.
TEST_P(SyscallFilter, LeavesFilesMappedExecutable) {
    EXPECT_EQ(outcome("map-file-exec"), "file mapped executable");
}

// The plain stand-in runner installs no filter: the same call forks, which
// shows the refusals above are the filter's.
TEST_P(SyscallFilter, IsWhatRefusesThem) {
    const RunnerOutcome o = attempt("fork", FAKE_RUNNER);
    ASSERT_TRUE(o.ok()) << o.message;
    EXPECT_EQ(o.result.text("outcome").value(), "forked");
}

INSTANTIATE_TEST_SUITE_P(InAndOutOfTheSandbox, SyscallFilter, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "Sandboxed" : "Unsandboxed"; });

TEST(SyscallFilterProgram, IsBuilt) {
    std::string why;
    const std::string& program = runnerSyscallFilter(&why);
    EXPECT_EQ(why, "");
    EXPECT_FALSE(program.empty());
    EXPECT_EQ(program.size() % 8, 0u) << "a BPF program is whole 8-byte instructions";
}

// The handler's names and the filter's rules are two lists: each call the
// filter traps must have its name, so a refusal never reads "system call N".
TEST(SyscallFilterProgram, NamesEveryCallItTraps) {
    const std::vector<int> trapped = trappedSyscalls();
    EXPECT_GE(trapped.size(), 10u);
    for (const int call : trapped) EXPECT_NE(refusedCallDescription(call), nullptr) << "system call " << call;
    EXPECT_EQ(refusedCallDescription(SYS_read), nullptr);
}

}  // namespace
}  // namespace grading
