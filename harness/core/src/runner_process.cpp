// A runner's process: how it is started (sandbox, sanitizer, environment),
// and a call made in a process of its own.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "harness/device_memory_ledger.h"
#include "harness/syscall_filter.h"
#include "runner_client_internal.h"

namespace grading {
namespace {

SandboxPolicy& policy() {
    static SandboxPolicy p = SandboxPolicy::Preferred;
    return p;
}

}  // namespace

void setSandboxPolicy(SandboxPolicy p) { policy() = p; }

TempDir::TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/grading-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("cannot create a temporary directory from " + pattern);
    }
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

namespace detail {

Launch prepare(const RunnerCall& call, const std::string& sanitizer, const TempDir& dir,
               const std::vector<std::string>& tail, const std::string& request) {
    Launch l;
    const std::string label = labelOf(call);
    // Submitted code runs in the sandbox; the instructor's own may run without.
    const std::string& unavailable = sandboxUnavailable();
    l.sandboxed = unavailable.empty() && policy() != SandboxPolicy::Off;
    if (!l.sandboxed && !sandboxTurnedOff() && policy() == SandboxPolicy::Required) {
        l.refused = "the runner for `" + label + "` was not started: the sandbox cannot start (" + unavailable +
                    "), and submitted code is not run without it; set GRADING_SANDBOX=off to grade without a "
                    "sandbox, which gives the submission the grader's rights";
        return l;
    }
    if (!l.sandboxed && !sandboxTurnedOff() && policy() != SandboxPolicy::Off) {
        static bool told = false;
        if (!told) std::fprintf(stderr, "note: runners of the instructor's code run unsandboxed: %s\n", unavailable.c_str());
        told = true;
    }
    const std::string tool = env("GRADING_COMPUTE_SANITIZER");
    if (!sanitizer.empty()) {
        l.argv = tool.empty() ? std::vector<std::string>{"/usr/bin/env", "compute-sanitizer"} : std::vector<std::string>{tool};
        l.argv.insert(l.argv.end(), {"--tool", sanitizer, "--error-exitcode", std::to_string(kSanitizerFound),
                                     "--print-limit", "3"});
        // GRADING_SANITIZER_FLAGS: more of compute-sanitizer's own, e.g. "--leak-check full".
        for (const std::string& flag : split(env("GRADING_SANITIZER_FLAGS"), ' ')) l.argv.push_back(flag);
    }
    l.argv.push_back(l.sandboxed ? kSandboxRunner : call.runner);
    for (const std::string& t : tail) {
        l.argv.push_back(l.sandboxed && t == request && !request.empty() ? kSandboxRequest : t);
    }

    ProcessOptions& options = l.options;
    options.timeLimitSeconds = call.timeLimitSeconds * (sanitizer.empty() ? 1.0 : kSanitizerSlowdown);
    options.channel = true;
    // Only what CUDA needs: nothing of the grader's (its seed, its mode, its
    // paths) reaches submitted code.
    options.cleanEnvironment = true;
    // The memory bound too: the runner's checked allocations keep to the
    // grader's (device_memory_ledger.h).
    options.inherit = {"PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_MODULE_LOADING",
                       kDeviceMemoryBoundVariable};
    options.environment["TMPDIR"] = dir.path();
    options.environment["HOME"] = dir.path();
    const std::string gpus = assignedGpus();
    if (!gpus.empty()) options.environment["CUDA_VISIBLE_DEVICES"] = gpus;
    // Every runner under the system-call filter (syscall_filter.h), but one
    // under compute-sanitizer: the sanitizer's own code in the process is the
    // instructor's tool, and what it needs of the kernel is not ours to judge.
    if (sanitizer.empty()) {
        std::string why;
        const std::string& filter = runnerSyscallFilter(&why);
        if (!why.empty()) {
            l.refused = "the runner for `" + label + "` was not started: the grader cannot build its system-call "
                        "filter (" + why + ")";
            return l;
        }
        options.bytesOnFd4 = filter;
        options.environment[kSyscallFilterVariable] = std::to_string(kSyscallFilterFd);
    }
    if (l.sandboxed) {
        SandboxedCommand boxed = sandboxCommand(l.argv, call.runner, request, SandboxLimits{}, options);
        if (!sanitizer.empty() && !tool.empty()) {
            // A sanitizer named by path (not one under /usr) is bound in where it is.
            const auto end = std::find(boxed.argv.begin(), boxed.argv.end(), "--");
            boxed.argv.insert(end, {"--ro-bind", tool, tool});
        }
        l.argv = boxed.argv;
        l.cgroup = boxed.cgroup;
        l.uid = std::move(boxed.uid);
    }
    return l;
}

void unwrapSandboxStatus(ProcessResult& p) {
    if (p.signal == 0 && p.exitCode > 128 && p.exitCode < 128 + 65) {
        p.signal = p.exitCode - 128;
        p.exitCode = -1;
    }
}

Record withCallKind(const RunnerCall& call, bool session, bool sanitized) {
    Record request = call.input;
    if (call.exclusiveGpu) request.putInt(protocol::kTimedCallField, 1);
    if (call.exclusiveGpu && session) request.putInt(protocol::kTimedSectionsField, 1);
    if (sanitized) request.putInt(protocol::kSanitizedCallField, 1);
    return request;
}

RunnerOutcome callOnce(const RunnerCall& call, const std::string& sanitizer) {
    // A private folder for this call alone: the request, and the runner's
    // TMPDIR and HOME; removed with whatever the runner left in it.
    TempDir dir;
    if (!withCallKind(call, false, !sanitizer.empty()).save(dir.file("request.rec"))) {
        RunnerOutcome o;
        o.message = "cannot write the runner's request in " + dir.path();
        return o;
    }
    // Readable by the sandbox's uid, which is not ours (the folder stays ours).
    chmod(dir.file("request.rec").c_str(), 0644);
    Launch l = prepare(call, sanitizer, dir, {call.subcommand, "--in", dir.file("request.rec")}, dir.file("request.rec"));
    if (std::optional<RunnerOutcome> refused = l.refusal()) return *refused;
    const auto slot = takeSlot(gpuUseOf(call));
    ProcessResult p = runProcess(l.argv, l.options);
    countCall(p.seconds, holdsGpuExclusively(call) ? p.seconds : 0.0);
    ++totals().processesStarted;
    removeSandboxCgroup(l.cgroup);
    if (l.sandboxed) unwrapSandboxStatus(p);
    Channel channel = readChannel(p);
    return judge(call, sanitizer, l.options.timeLimitSeconds, std::move(p), std::move(channel), true);
}

}  // namespace detail
}  // namespace grading
