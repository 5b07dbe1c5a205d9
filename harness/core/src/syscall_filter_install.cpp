// The runner's side of its system-call filter (syscall_filter.h): read the
// grader's program, install it with a handler that names a refused call.
// Runs from .preinit_array, before libc's constructors: raw system calls,
// no allocation.
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "harness/protocol.h"
#include "harness/syscall_filter.h"

namespace grading {
namespace {

void writeAll(const char* text) {
    for (size_t left = std::strlen(text); left > 0;) {
        const ssize_t n = write(STDERR_FILENO, text, left);
        if (n <= 0) return;
        text += n;
        left -= static_cast<size_t>(n);
    }
}

// Signal-safe: the number in decimal, in `out` (at least 24 bytes).
const char* decimal(long value, char* out) {
    char digits[24];
    int n = 0;
    unsigned long v = value < 0 ? 0ul - static_cast<unsigned long>(value) : static_cast<unsigned long>(value);
    do {
        digits[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    int i = 0;
    if (value < 0) out[i++] = '-';
    while (n > 0) out[i++] = digits[--n];
    out[i] = '\0';
    return out;
}

// One line on stderr, then the signal's default action (SA_RESETHAND):
// the runner dies of SIGSYS, which is how the grader knows the filter ended it.
void onRefusedCall(int, siginfo_t* info, void*) {
    char number[24];
    const char* what = refusedCallDescription(info->si_syscall);
    writeAll(kRefusedCallPrefix);
    writeAll(what != nullptr ? what : "system call ");
    if (what == nullptr) writeAll(decimal(info->si_syscall, number));
    writeAll("\n");
    syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGSYS);
    _exit(128 + SIGSYS);  // not reached: the signal is fatal now
}

[[noreturn]] void cannotInstall(const char* what) {
    char number[24];
    writeAll("error: the runner cannot install the grader's system-call filter: ");
    writeAll(what);
    writeAll(" (errno ");
    writeAll(decimal(errno, number));
    writeAll(")\n");
    _exit(protocol::kBadInput.exitCode);
}

bool named(char** envp) {
    const size_t length = std::strlen(kSyscallFilterVariable);
    for (char** e = envp; e != nullptr && *e != nullptr; ++e) {
        if (std::strncmp(*e, kSyscallFilterVariable, length) == 0 && (*e)[length] == '=') return true;
    }
    return false;
}

}  // namespace

const char* refusedCallDescription(long call) {
    switch (call) {
#ifdef SYS_fork
        case SYS_fork: return "fork (a new process: a runner makes threads only)";
#endif
#ifdef SYS_vfork
        case SYS_vfork: return "vfork (a new process: a runner makes threads only)";
#endif
        case SYS_clone: return "clone without CLONE_THREAD (a new process: a runner makes threads only)";
        case SYS_execve: return "execve (a runner runs no other program)";
        case SYS_execveat: return "execveat (a runner runs no other program)";
        case SYS_ptrace: return "ptrace";
        case SYS_process_vm_readv: return "process_vm_readv (another process's memory)";
        case SYS_process_vm_writev: return "process_vm_writev (another process's memory)";
        case SYS_mmap: return "mmap of anonymous memory with PROT_EXEC (code made at run time)";
        case SYS_mprotect: return "mprotect with PROT_EXEC (memory made executable after start)";
        case SYS_pkey_mprotect: return "pkey_mprotect with PROT_EXEC (memory made executable after start)";
        case SYS_shmat: return "shmat with SHM_EXEC (memory made executable after start)";
        case SYS_personality: return "personality with READ_IMPLIES_EXEC (memory made executable after start)";
        case SYS_seccomp: return "seccomp (a filter of the runner's own)";
        case SYS_prctl: return "prctl(PR_SET_SECCOMP) (a filter of the runner's own)";
        default: return nullptr;
    }
}

void installGradersSyscallFilter(int, char**, char** envp) {
    if (!named(envp)) return;  // started by hand, not by the grader
    alignas(sock_filter) static unsigned char program[1 << 16];
    size_t size = 0;
    for (ssize_t n; (n = read(kSyscallFilterFd, program + size, sizeof program - size)) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) cannotInstall("reading it");
        size += static_cast<size_t>(n);
        if (size == sizeof program) cannotInstall("it is larger than 64 KiB");
    }
    close(kSyscallFilterFd);
    if (size == 0 || size % sizeof(sock_filter) != 0) cannotInstall("it is not a BPF program");

    struct sigaction onSigsys {};
    onSigsys.sa_sigaction = onRefusedCall;
    onSigsys.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
    if (sigaction(SIGSYS, &onSigsys, nullptr) != 0) cannotInstall("sigaction(SIGSYS)");
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) cannotInstall("prctl(PR_SET_NO_NEW_PRIVS)");
    const sock_fprog filter{static_cast<unsigned short>(size / sizeof(sock_filter)),
                            reinterpret_cast<sock_filter*>(program)};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &filter) != 0) cannotInstall("seccomp");
}

}  // namespace grading
