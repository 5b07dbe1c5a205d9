#pragma once
// The system-call filter every runner the grader starts runs under: a
// seccomp BPF program the grader builds (libseccomp) and hands the runner on
// a pipe at kSyscallFilterFd; the runner installs it before any code but the
// dynamic loader's and its own runs (a .preinit_array entry: the seal keeps
// submitted objects out of that section and out of IFUNC resolvers, the only
// code that runs earlier). A filter cannot be lifted, only added to, so what
// it refuses holds for everything the runner later runs:
//   - a process other than a thread (fork, vfork, clone without
//     CLONE_THREAD; clone3 answers ENOSYS, so libc makes threads by clone);
//   - exec, ptrace, reading or writing another process's memory;
//   - memory made executable: an anonymous mapping, mprotect, shmat, or the
//     READ_IMPLIES_EXEC personality;
//   - another filter (seccomp, prctl) and a new SIGSYS handler.
// A refused call raises SIGSYS; the runner's handler names the call on
// stderr ("syscall-refused: ...") and the runner dies of the signal, which
// the grader reports as the filter's (runner_verdict.cpp).
// Left open, on purpose: a file mapped executable (the loader maps the CUDA
// driver that way when the first CUDA call opens it). grading.md says what
// that leaves reachable.
#include <string>
#include <vector>

namespace grading {

// The runner's descriptor for the filter; the environment variable that
// tells a runner to read it (a runner started by hand runs without one).
constexpr int kSyscallFilterFd = 4;
constexpr const char* kSyscallFilterVariable = "GRADING_SYSCALL_FILTER_FD";
// How the runner's SIGSYS handler starts its line on stderr.
constexpr const char* kRefusedCallPrefix = "syscall-refused: ";

// The filter as a BPF program (struct sock_filter[]), built once per
// process; "" with *why set when libseccomp cannot build it.
const std::string& runnerSyscallFilter(std::string* why);

// The calls the filter traps, by number: the SIGSYS handler names each.
std::vector<int> trappedSyscalls();

// What a refused call is, for the SIGSYS handler's line: "fork (a new
// process: a runner makes threads only)"; nullptr for a call the filter lets through.
const char* refusedCallDescription(long syscallNumber);

// The runner's side: reads the program from kSyscallFilterFd when the
// environment names it, installs it and the SIGSYS handler. For a
// .preinit_array entry (GRADING_INSTALL_SYSCALL_FILTER below); it ends the
// process (exit 2, a message on stderr) when the filter was given and could
// not be installed.
void installGradersSyscallFilter(int argc, char** argv, char** envp);

}  // namespace grading

// In a runner's main file: the filter goes in before any constructor runs.
#define GRADING_INSTALL_SYSCALL_FILTER()                                                                      \
    __attribute__((section(".preinit_array"), used)) static void (*const grading_preinit_syscall_filter)( \
        int, char**, char**) = &grading::installGradersSyscallFilter
