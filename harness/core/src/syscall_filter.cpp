// The grader's side of the runner's system-call filter: the program, built
// with libseccomp (syscall_filter.h says what it refuses and why).
#include "harness/syscall_filter.h"

#include <errno.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace grading {
namespace {

struct Rule {
    int syscall;
    uint32_t action;
    std::vector<scmp_arg_cmp> args;
};

// Every argument test is "these bits set" (or clear), so a call the filter
// means to refuse cannot slip by with other flags beside them.
std::vector<Rule> rules() {
    const auto bitsSet = [](unsigned arg, scmp_datum_t bits) { return scmp_arg_cmp{arg, SCMP_CMP_MASKED_EQ, bits, bits}; };
    return {
        {SCMP_SYS(fork), SCMP_ACT_TRAP, {}},
        {SCMP_SYS(vfork), SCMP_ACT_TRAP, {}},
        {SCMP_SYS(clone), SCMP_ACT_TRAP, {scmp_arg_cmp{0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0}}},
        // Its flags sit in memory a filter cannot read: libc falls back to clone.
        {SCMP_SYS(clone3), SCMP_ACT_ERRNO(ENOSYS), {}},
        {SCMP_SYS(execve), SCMP_ACT_TRAP, {}},
        {SCMP_SYS(execveat), SCMP_ACT_TRAP, {}},
        {SCMP_SYS(ptrace), SCMP_ACT_TRAP, {}},
        {SCMP_SYS(process_vm_readv), SCMP_ACT_TRAP, {}},
        {SCMP_SYS(process_vm_writev), SCMP_ACT_TRAP, {}},
        {SCMP_SYS(mmap), SCMP_ACT_TRAP, {bitsSet(2, PROT_EXEC), bitsSet(3, MAP_ANONYMOUS)}},
        {SCMP_SYS(mprotect), SCMP_ACT_TRAP, {bitsSet(2, PROT_EXEC)}},
        {SCMP_SYS(pkey_mprotect), SCMP_ACT_TRAP, {bitsSet(2, PROT_EXEC)}},
        {SCMP_SYS(shmat), SCMP_ACT_TRAP, {bitsSet(2, SHM_EXEC)}},
        // READ_IMPLIES_EXEC set, and not the query personality(0xffffffff).
        {SCMP_SYS(personality), SCMP_ACT_TRAP,
         {scmp_arg_cmp{0, SCMP_CMP_MASKED_EQ, READ_IMPLIES_EXEC | 0x80000000u, READ_IMPLIES_EXEC}}},
        {SCMP_SYS(seccomp), SCMP_ACT_TRAP, {}},
        {SCMP_SYS(prctl), SCMP_ACT_TRAP, {scmp_arg_cmp{0, SCMP_CMP_EQ, PR_SET_SECCOMP, 0}}},
        // A handler of the runner's own would hide the refusals: a new one ends the process.
        {SCMP_SYS(rt_sigaction), SCMP_ACT_KILL_PROCESS,
         {scmp_arg_cmp{0, SCMP_CMP_EQ, SIGSYS, 0}, scmp_arg_cmp{1, SCMP_CMP_NE, 0, 0}}},
    };
}

std::string build(std::string* why) {
    const std::unique_ptr<void, void (*)(scmp_filter_ctx)> filter(seccomp_init(SCMP_ACT_ALLOW), seccomp_release);
    if (filter == nullptr) {
        *why = "libseccomp cannot make a filter (seccomp_init)";
        return {};
    }
    for (const Rule& r : rules()) {
        const int rc = seccomp_rule_add_array(filter.get(), r.action, r.syscall, static_cast<unsigned>(r.args.size()),
                                              r.args.empty() ? nullptr : r.args.data());
        if (rc != 0) {
            *why = "libseccomp refused the rule for system call " + std::to_string(r.syscall) + " (" +
                   std::to_string(rc) + ")";
            return {};
        }
    }
    // libseccomp 2.5 exports to a descriptor only.
    const std::unique_ptr<FILE, int (*)(FILE*)> file(std::tmpfile(), std::fclose);
    if (file == nullptr || seccomp_export_bpf(filter.get(), fileno(file.get())) != 0) {
        *why = "libseccomp cannot export the filter";
        return {};
    }
    std::string program;
    std::rewind(file.get());
    char chunk[4096];
    for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, file.get())) > 0;) program.append(chunk, n);
    if (program.empty()) *why = "libseccomp exported an empty filter";
    return program;
}

}  // namespace

std::vector<int> trappedSyscalls() {
    std::vector<int> trapped;
    for (const Rule& r : rules()) {
        if (r.action == SCMP_ACT_TRAP) trapped.push_back(r.syscall);
    }
    return trapped;
}

const std::string& runnerSyscallFilter(std::string* why) {
    static std::string problem;
    static const std::string program = build(&problem);
    if (why != nullptr) *why = problem;
    return program;
}

}  // namespace grading
