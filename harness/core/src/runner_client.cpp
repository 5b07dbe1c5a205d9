#include "harness/runner_client.h"

#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "harness/answer_cache.h"
#include "harness/gpu_slots.h"
#include "harness/gpu_state.h"
#include "harness/sha256.h"
#include "harness/text.h"

namespace grading {
namespace {

using Clock = std::chrono::steady_clock;

RunnerCallTotals& totals() {
    static RunnerCallTotals t;
    return t;
}

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v == nullptr ? std::string() : std::string(v);
}

// How messages and traces name a call.
std::string labelOf(const RunnerCall& call) { return call.label.empty() ? call.subcommand : call.label; }

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> parts;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, sep)) {
        if (!part.empty()) parts.push_back(part);
    }
    return parts;
}

std::string linesWithPrefix(const std::string& text, const std::string& prefix) {
    std::istringstream in(text);
    std::string line;
    std::string joined;
    while (std::getline(in, line)) {
        if (line.compare(0, prefix.size(), prefix) == 0) {
            if (!joined.empty()) joined += "; ";
            joined += line.substr(prefix.size());
        }
    }
    return joined;
}

std::string tail(const std::string& text, size_t maxChars) {
    std::string t = text.size() > maxChars ? "..." + text.substr(text.size() - maxChars) : text;
    while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
    return t;
}

std::string formatSeconds(double s) {
    std::ostringstream out;
    out << s;
    return out.str();
}

// ctest with a resource spec gives each test its GPUs as
// CTEST_RESOURCE_GROUP_0_GPUS="id:1,slots:1"; the runner then sees only those.
std::string assignedGpus() {
    if (env("CTEST_RESOURCE_GROUP_COUNT").empty()) return {};
    std::string ids;
    for (const std::string& allocation : split(env("CTEST_RESOURCE_GROUP_0_GPUS"), ';')) {
        for (const std::string& field : split(allocation, ',')) {
            if (field.compare(0, 3, "id:") == 0) ids += (ids.empty() ? "" : ",") + field.substr(3);
        }
    }
    return ids;
}

// The first error compute-sanitizer printed: its "=========" lines after
// the banner, up to three.
std::string firstSanitizerError(const std::string& output) {
    std::istringstream in(output);
    std::string line;
    std::string found;
    int taken = 0;
    while (std::getline(in, line) && taken < 3) {
        const std::string marker = "========= ";
        if (line.compare(0, marker.size(), marker) != 0) continue;
        const std::string text = line.substr(marker.size());
        if (text.find("COMPUTE-SANITIZER") != std::string::npos || text.find_first_not_of(' ') == std::string::npos) {
            continue;
        }
        found += (found.empty() ? "" : " | ") + text.substr(text.find_first_not_of(' '));
        ++taken;
    }
    return found;
}

constexpr int kSanitizerFound = 86;

SandboxPolicy& policy() {
    static SandboxPolicy p = SandboxPolicy::Preferred;
    return p;
}

// The exit status the runner's own failure report goes with.
int exitFor(const std::string& kind) {
    if (kind == "bad-input") return runner_exit::kBadInput;
    if (kind == "cuda-error") return runner_exit::kCudaError;
    if (kind == "guard-violation") return runner_exit::kGuardViolation;
    if (kind == "contract-violation") return runner_exit::kContractViolation;
    if (kind == "no-device") return runner_exit::kNoDevice;
    return -1;
}

// What the channel carried: the records in order, or why it is not a
// sequence of records.
struct Channel {
    std::vector<Record> records;
    std::string problem;
};

Channel readChannel(const ProcessResult& p) {
    Channel c;
    size_t pos = 0;
    while (pos < p.channel.size()) {
        Expected<Record> r = Record::parseNext(p.channel, &pos);
        if (!r) {
            c.problem = r.error();
            break;
        }
        c.records.push_back(std::move(r).value());
    }
    if (p.channelOverflow) c.problem = "the answer was larger than the channel takes";
    return c;
}

// How a call is started: the command, its options, the sandbox's cgroup.
struct Launch {
    std::vector<std::string> argv;
    ProcessOptions options;
    std::string cgroup;
    bool sandboxed = false;
    std::string refused;  // why it must not start ("" when it may)
};

// `tail` follows the runner's path: one-shot "<subcommand> --in <request>",
// or "--session". `request` is the host path of the request file, or "".
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
    options.inherit = {"PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_MODULE_LOADING"};
    options.environment["TMPDIR"] = dir.path();
    options.environment["HOME"] = dir.path();
    const std::string gpus = assignedGpus();
    if (!gpus.empty()) options.environment["CUDA_VISIBLE_DEVICES"] = gpus;
    if (l.sandboxed) {
        SandboxedCommand boxed = sandboxCommand(l.argv, call.runner, request, SandboxLimits{}, options);
        if (!sanitizer.empty() && !tool.empty()) {
            // A sanitizer named by path (not one under /usr) is bound in where it is.
            const auto end = std::find(boxed.argv.begin(), boxed.argv.end(), "--");
            boxed.argv.insert(end, {"--ro-bind", tool, tool});
        }
        l.argv = boxed.argv;
        l.cgroup = boxed.cgroup;
    }
    return l;
}

std::string gpuOf() {
    const std::string gpus = assignedGpus();
    const std::string visible = gpus.empty() ? env("CUDA_VISIBLE_DEVICES") : gpus;
    return visible.empty() ? "0" : split(visible, ',').front();
}

// The process's WholeGpuHold: its slots, and how deeply holds nest.
struct HeldGpu {
    std::unique_ptr<GpuSlot> slots;
    int depth = 0;
};
HeldGpu& heldGpu() {
    static HeldGpu held;
    return held;
}

// How a call uses the GPU: the probe that starts a runner runs no kernel.
GpuUse gpuUseOf(const RunnerCall& call) {
    if (call.exclusiveGpu) return GpuUse::Alone;
    return call.subcommand == protocol::Probe::kName ? GpuUse::Startup : GpuUse::Shared;
}

// Takes the call's GPU slots, counting the wait; none inside a hold, whose
// first call takes them all for it.
std::unique_ptr<GpuSlot> takeSlot(GpuUse use) {
    const bool inHold = heldGpu().depth > 0;
    if (inHold && heldGpu().slots) return nullptr;
    const auto start = Clock::now();
    auto slot = std::make_unique<GpuSlot>(gpuOf(), inHold ? GpuUse::Alone : use);
    totals().slotWaitSeconds += std::chrono::duration<double>(Clock::now() - start).count();
    if (!inHold) return slot;
    heldGpu().slots = std::move(slot);
    return nullptr;
}

// bwrap reports its child's death by signal as 128 + the signal.
void unwrapSandboxStatus(ProcessResult& p) {
    if (p.signal == 0 && p.exitCode > 128 && p.exitCode < 128 + 65) {
        p.signal = p.exitCode - 128;
        p.exitCode = -1;
    }
}

// A runner's answer taken as the call's result, which carries the device it
// ran on; else why it cannot be (the same for an answer read back, below).
std::string acceptAnswer(RunnerOutcome& o, Record answer) {
    Expected<protocol::DeviceInfo> device = protocol::decode<protocol::DeviceInfo>(answer);
    if (!device) return device.error();
    o.status = RunnerOutcome::Status::Ok;
    o.result = std::move(answer);
    o.device = std::move(device).value();
    return "";
}

// The verdict on one call from what the runner did: `ended` says whether the
// process is over (a one-shot call, or a session that ended); a session that
// answered and lives on has nothing more to say.
RunnerOutcome judge(const RunnerCall& call, const std::string& sanitizer, double limitSeconds, ProcessResult p,
                    const Channel& channel, bool ended, bool stalled = false) {
    RunnerOutcome o;
    const std::string label = labelOf(call);
    const std::string who = "the runner for `" + label + "`";
    const std::string where = lastBreadcrumb(p.err);
    const std::string lastSeen = where.empty() ? "" : " (it was in " + where + ")";
    if (!ended) p.exitCode = runner_exit::kOk;  // a live session: only its answer counts

    if (!p.started) {
        o.message = who + " could not start: " + p.startError;
    } else if (p.timedOut && stalled) {
        o.message = who + " made no progress for " + formatSeconds(call.stallSeconds) + " s" + lastSeen +
                    ", so it was stopped before its " + formatSeconds(limitSeconds) + " s limit";
    } else if (p.timedOut) {
        o.message = who + " did not finish in " + formatSeconds(limitSeconds) + " s" + lastSeen;
    } else if (!sanitizer.empty() && p.exitCode == kSanitizerFound) {
        o.message = "compute-sanitizer (" + sanitizer + ") found an error in `" + label + "`" + lastSeen + ": " +
                    firstSanitizerError(p.out + "\n" + p.err);
    } else if (channel.records.size() > 1) {
        o.message = who + " answered " + std::to_string(channel.records.size()) +
                    " times: something other than the runner wrote to its channel (submitted code writing "
                    "after, or before, the runner's own answer)";
    } else if (!channel.problem.empty()) {
        o.message = who + " sent a broken answer" + lastSeen + ": " + channel.problem;
    } else if (p.signal != 0) {
        o.message = who + " was " + describeEnd(p) + lastSeen + "; stderr: " + tail(p.err, 600);
    } else if (channel.records.empty()) {
        const std::string errors = linesWithPrefix(p.err, "error: ");
        o.message = p.exitCode == runner_exit::kOk
                        ? who + " exited with status 0 without a complete result" + lastSeen +
                              "; a submission that calls exit() ends the runner like this"
                        : who + " failed (" + describeEnd(p) + ") without an answer" + lastSeen + ": " +
                              (errors.empty() ? "stderr: " + tail(p.err, 600) : errors);
    } else if (Expected<protocol::Failure> failure = protocol::decode<protocol::Failure>(channel.records.front());
               failure) {
        if (failure->kind == "no-device" && p.exitCode == runner_exit::kNoDevice) {
            o.status = RunnerOutcome::Status::NoDevice;
            o.message = "no usable CUDA device: " + failure->message;
        } else {
            o.message = who + " failed (" + describeEnd(p) + "): " + failure->message;
            if (exitFor(failure->kind) != p.exitCode) {
                o.message += " [and it exited with " + describeEnd(p) + ", not the status of a " + failure->kind + "]";
            }
        }
    } else if (p.exitCode != runner_exit::kOk) {
        o.message = who + " sent a result and then " + describeEnd(p) + lastSeen +
                    ": a result counts only from a runner that ends with status 0";
    } else if (const std::string missing = acceptAnswer(o, channel.records.front()); !missing.empty()) {
        o.message = who + " sent a result without the device it ran on: " + missing;
    }
    o.process = std::move(p);
    return o;
}

// A timed call holds the whole GPU (in a session, while its runner
// measures), and so does every call inside a hold.
bool holdsGpuAlone(const RunnerCall& call) { return call.exclusiveGpu || heldGpu().depth > 0; }

// One call made, how long it took, and how much of that it held the GPU
// alone (runnerCallTotals).
void countCall(double seconds, double aloneSeconds) {
    ++totals().calls;
    totals().callSeconds += seconds;
    totals().exclusiveCallSeconds += aloneSeconds;
}

// The request as sent: a timed call says so, and the runner waits for the
// GPU by spinning during it (runner_main.cpp); in a session it also asks for
// the GPU alone only around what it measures.
Record withCallKind(const RunnerCall& call, bool session) {
    Record request = call.input;
    if (call.exclusiveGpu) request.putInt(protocol::kTimedCallField, 1);
    if (call.exclusiveGpu && session) request.putInt(protocol::kTimedSectionsField, 1);
    return request;
}

RunnerOutcome callOnce(const RunnerCall& call, const std::string& sanitizer) {
    // A private folder for this call alone: the request, and the runner's
    // TMPDIR and HOME; removed with whatever the runner left in it.
    TempDir dir;
    if (!withCallKind(call, false).save(dir.file("request.rec"))) {
        RunnerOutcome o;
        o.message = "cannot write the runner's request in " + dir.path();
        return o;
    }
    // Readable by the sandbox's uid, which is not ours (the folder stays ours).
    chmod(dir.file("request.rec").c_str(), 0644);
    Launch l = prepare(call, sanitizer, dir, {call.subcommand, "--in", dir.file("request.rec")}, dir.file("request.rec"));
    if (!l.refused.empty()) {
        RunnerOutcome o;
        o.message = l.refused;
        return o;
    }
    const auto slot = takeSlot(gpuUseOf(call));
    ProcessResult p = runProcess(l.argv, l.options);
    countCall(p.seconds, holdsGpuAlone(call) ? p.seconds : 0.0);
    ++totals().processesStarted;
    removeSandboxCgroup(l.cgroup);
    if (l.sandboxed) unwrapSandboxStatus(p);
    const Channel channel = readChannel(p);
    return judge(call, sanitizer, l.options.timeLimitSeconds, std::move(p), channel, true);
}

// ---- sessions: one runner process serves the calls of a grading process,
// each request and answer a frame (record.h). A failure ends the session; the
// next call starts another, so every call keeps its own verdict.

struct Session {
    Child child;
    std::unique_ptr<TempDir> dir;
    std::string cgroup;
    bool sandboxed = false;
    std::string channel;  // bytes read from fd 3 and not yet taken
};

std::map<std::string, std::unique_ptr<Session>>& sessions() {
    static std::map<std::string, std::unique_ptr<Session>> open;
    return open;
}

// The session's end: a runner that is ending by itself (it answered with a
// failure, or closed its channel) is given a moment to, so its own status is
// the one reported; one that is not is killed.
int waitStatus(Session& s, bool kill) {
    int status = 0;
    bool reaped = false;
    for (int i = 0; !kill && i < 400 && !reaped; ++i) {
        const pid_t r = waitpid(s.child.pid, &status, WNOHANG);
        if (r == s.child.pid) reaped = true;
        else usleep(5000);
    }
    const int killed = stopChild(s.child);  // and anything it left behind in its group
    removeSandboxCgroup(s.cgroup);
    return reaped ? status : killed;
}

// The process result of an ended session from its wait status.
void fillEnd(ProcessResult& p, int status, bool sandboxed) {
    if (WIFEXITED(status)) p.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) p.signal = WTERMSIG(status);
    if (sandboxed) unwrapSandboxStatus(p);
}

// Reads what is ready on the session's descriptors within `waitMs`, with
// runProcess's bounds; false when the channel closed (the runner ended) or
// overflowed. A closed stdout or stderr is dropped, so poll does not spin on it.
// `sending`: part of the request is still to be written, so room in the
// runner's stdin also ends the wait, not only output.
bool pump(Session& s, ProcessResult& p, int waitMs, bool sending = false) {
    static const ProcessOptions bounds;
    int* const fds[3] = {&s.child.channel, &s.child.err, &s.child.out};
    pollfd polled[4];
    for (int i = 0; i < 3; ++i) polled[i] = {*fds[i], POLLIN, 0};
    polled[3] = {sending ? s.child.input : -1, POLLOUT, 0};
    if (poll(polled, 4, waitMs) <= 0) return true;
    char buffer[65536];
    bool open = true;
    for (int i = 0; i < 3; ++i) {
        if (*fds[i] < 0 || (polled[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
        const ssize_t n = read(*fds[i], buffer, sizeof buffer);
        if (n > 0 && i == 0) {
            s.channel.append(buffer, static_cast<size_t>(n));
            if (s.channel.size() > bounds.channelCap) {
                p.channelOverflow = true;
                open = false;
            }
        } else if (n > 0) {
            appendCapped(i == 1 ? &p.err : &p.out, buffer, static_cast<size_t>(n), bounds.outputCap, &p.truncated);
        } else if (n == 0 || errno != EINTR) {
            if (i == 0) {
                open = false;
            } else {
                close(*fds[i]);
                *fds[i] = -1;
            }
        }
    }
    return open;
}

// A session call's hold on the GPU: one shared slot, lent to timed calls
// waiting for the GPU when the runner offers it, and every slot while a
// timed call's runner measures (it asks, protocol.h), or none of its own
// inside a WholeGpuHold; with the time held alone and the time spent
// waiting for slots after the call began.
class CallGpu {
public:
    explicit CallGpu(const RunnerCall& call)
        : measures_(call.exclusiveGpu),
          inHold_(heldGpu().depth > 0),
          lends_(!inHold_ && (measures_ || gpuUseOf(call) == GpuUse::Shared)),
          slot_(takeSlot(measures_ ? GpuUse::Shared : gpuUseOf(call))) {
        if (inHold_) aloneSince_ = Clock::now();
    }

    // Whether the runner may lend its slot (protocol.h, kLendsField).
    bool lends() const { return lends_; }

    // The runner asked for the GPU as `use` (kGpuAlone or kGpuShared), or
    // lent it (kGpuLend): empty once it has it, else why the call fails.
    std::string ask(const std::string& use) {
        if (use == protocol::kGpuLend) return lend();
        const bool alone = use == protocol::kGpuAlone;
        const std::string asked = "it asked for the GPU \"" + use.substr(0, 40) + "\"";
        if (!measures_) return asked + " in a call that measures nothing";
        if ((!alone && use != protocol::kGpuShared) || alone == measuring_) {
            return asked + (measuring_ ? " while it had it alone" : " while it shared it");
        }
        // Each request drains the GPU for everyone; a call measures in one
        // section (two requests), a few at most.
        if (++requests_ > kMaxRequests) {
            return "it asked for the GPU alone or back more than " + std::to_string(kMaxRequests) + " times in one call";
        }
        measuring_ = alone;
        if (inHold_) return {};
        if (aloneSince_) alone_ += Clock::now() - *aloneSince_;
        aloneSince_.reset();
        const Clock::time_point got = takeAgain(alone ? GpuUse::Alone : GpuUse::Shared);
        if (alone) aloneSince_ = got;
        return {};
    }

    Clock::duration waited() const { return waited_; }
    double aloneSeconds(Clock::time_point end) const {
        return std::chrono::duration<double>(alone_ + (aloneSince_ ? end - *aloneSince_ : Clock::duration{})).count();
    }

private:
    // The runner has no GPU work under way: a timed call queued for the GPU
    // gets this slot now, and the call goes on once it has measured, instead
    // of the timed call waiting for the whole of this one.
    std::string lend() {
        if (!lends_) return "it lent the GPU in a call that was not asked to";
        if (measuring_) return "it lent the GPU while it had it alone";
        if (!slot_ || !slot_->aloneWanted()) return {};
        takeAgain(GpuUse::Shared);
        ++totals().slotsLent;
        return {};
    }

    // Gives the slot back and takes the GPU again as `use`, the wait counted
    // as waited; returns when it had it.
    Clock::time_point takeAgain(GpuUse use) {
        const auto start = Clock::now();
        slot_.reset();
        slot_ = takeSlot(use);
        const auto got = Clock::now();
        waited_ += got - start;
        return got;
    }

    static constexpr int kMaxRequests = 64;
    const bool measures_;  // a timed call: its runner asks around what it measures
    const bool inHold_;    // the process holds every slot already
    const bool lends_;     // a shared slot of its own, which it may lend
    std::unique_ptr<GpuSlot> slot_;
    bool measuring_ = false;  // between the runner's "alone" and its "shared"
    int requests_ = 0;
    Clock::duration waited_{};
    Clock::duration alone_{};
    std::optional<Clock::time_point> aloneSince_;
};

RunnerOutcome sessionCall(const RunnerCall& call) {
    const std::string key = call.runner;
    auto& slot = sessions()[key];
    ProcessResult p;
    p.started = true;
    // A session that wrote while nobody asked is over, and so is this call,
    // whether or not the writer is still alive; one that just ended restarts.
    if (slot) {
        const bool alive = pump(*slot, p, 0);
        if (!slot->channel.empty()) {
            Channel unasked;
            unasked.problem = "it answered before it was asked (" + std::to_string(slot->channel.size()) +
                              " bytes on its channel between calls): something other than the runner wrote there";
            waitStatus(*slot, true);
            slot.reset();
            return judge(call, "", call.timeLimitSeconds, p, unasked, true);
        }
        if (!alive) {
            waitStatus(*slot, true);
            slot.reset();
        }
    }
    // A session already running has its process and CUDA context: its call
    // gets the limit less their allowance, so a hang ends that much sooner.
    const double limit =
        slot ? std::max(call.timeLimitSeconds - kRunnerStartSeconds, std::min(call.timeLimitSeconds, kRunnerStartSeconds / 4))
             : call.timeLimitSeconds;
    if (!slot) {
        auto s = std::make_unique<Session>();
        s->dir = std::make_unique<TempDir>();
        Launch l = prepare(call, "", *s->dir, {"--session"}, "");
        if (!l.refused.empty()) {
            RunnerOutcome o;
            o.message = l.refused;
            return o;
        }
        s->child = startChild(l.argv, l.options, true);
        s->cgroup = l.cgroup;
        s->sandboxed = l.sandboxed;
        if (!s->child.started()) {
            removeSandboxCgroup(s->cgroup);
            p.started = false;
            p.startError = s->child.startError;
            return judge(call, "", limit, p, {}, true);
        }
        slot = std::move(s);
        ++totals().processesStarted;
    }
    Session& s = *slot;

    CallGpu gpu(call);
    Record request = withCallKind(call, true);
    request.putText("grading_subcommand", call.subcommand);
    if (gpu.lends()) request.putInt(protocol::kLendsField, 1);
    std::string outgoing = toFrame(request.serialize());
    // A runner that closed its stdin (or died) while the request is written
    // makes write() fail with EPIPE, a failure of this call, instead of a
    // SIGPIPE that would end the grading process.
    static const bool brokenPipesIgnored = signal(SIGPIPE, SIG_IGN) != SIG_ERR;
    (void)brokenPipesIgnored;
    const auto start = Clock::now();
    const auto deadline = [&] {  // waiting for slots mid-call is not the runner's time
        return start + gpu.waited() +
               std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit));
    };
    const auto msLeft = [&] {
        return std::max(0, static_cast<int>(std::ceil(
                               std::chrono::duration<double, std::milli>(deadline() - Clock::now()).count())));
    };
    // Progress (RunnerCall::stallSeconds): the runner's stderr growing, once
    // it has left a breadcrumb in this call. Times are the runner's own, as
    // the deadline's are: its waits for slots left out.
    const auto runnerNow = [&] { return Clock::now() - gpu.waited(); };
    Clock::time_point progressAt = start;
    size_t errSeen = 0;
    bool crumbSeen = false;
    const auto stalled = [&] {
        if (p.err.size() != errSeen) {
            errSeen = p.err.size();
            crumbSeen = crumbSeen || !lastBreadcrumb(p.err).empty();
            progressAt = runnerNow();
        }
        // Output past the cap is not seen growing: then only the limit holds.
        return call.stallSeconds > 0.0 && crumbSeen && !p.truncated &&
               runnerNow() - progressAt > std::chrono::duration<double>(call.stallSeconds);
    };
    bool open = true;
    bool stopped = false;  // stalled: a timeout (below), named as a stall
    size_t sent = 0;
    std::string payload;
    std::string misuse;  // a request for the GPU this call cannot make
    FrameStatus status = FrameStatus::Incomplete;
    while (open && Clock::now() < deadline() && !(stopped = stalled())) {
        // The input is non-blocking: write what fits, then wait for room or output.
        while (sent < outgoing.size()) {
            const ssize_t n = write(s.child.input, outgoing.data() + sent, outgoing.size() - sent);
            if (n > 0) {
                sent += static_cast<size_t>(n);
            } else {
                if (n < 0 && errno != EINTR && errno != EAGAIN) open = false;  // it stopped reading
                break;
            }
        }
        open = pump(s, p, std::min(msLeft(), 50), open && sent < outgoing.size()) && open;
        status = takeFrame(s.channel, &payload);
        if (status == FrameStatus::Incomplete) continue;
        const Expected<Record> frame = Record::parse(payload);
        const std::string use = status == FrameStatus::Complete && frame ? protocol::gpuUseAsked(frame.value()) : "";
        if (use.empty()) break;  // the answer, or a broken frame
        misuse = gpu.ask(use);
        if (!misuse.empty()) break;
        outgoing.erase(0, sent);
        sent = 0;
        outgoing += protocol::gpuUseFrame(protocol::kGpuGo);
        status = FrameStatus::Incomplete;
    }
    const auto end = Clock::now();
    p.seconds = std::chrono::duration<double>(end - start - gpu.waited()).count();
    countCall(p.seconds, gpu.aloneSeconds(end));

    Channel channel;
    if (!misuse.empty()) {
        channel.problem = misuse;
        status = FrameStatus::Malformed;
    } else if (status == FrameStatus::Complete) {
        Expected<Record> answer = Record::parse(payload);
        if (answer) channel.records.push_back(std::move(answer).value());
        else channel.problem = answer.error();
    } else if (status == FrameStatus::Malformed) {
        channel.problem = "its channel carried something other than a framed answer: something other than the "
                          "runner wrote there";
    } else if (p.channelOverflow) {
        channel.problem = "the answer was larger than the channel takes";
    }
    const bool answered = status == FrameStatus::Complete && channel.problem.empty();
    const bool failure = answered && protocol::decode<protocol::Failure>(channel.records.front()).ok();
    if (answered && !failure) {
        // A second answer already waiting is a failure of this call (a later
        // one fails the next call, or the close).
        pump(s, p, 1);
        if (!s.channel.empty()) channel.records.push_back(Record{});
        if (channel.records.size() == 1) return judge(call, "", limit, p, channel, false);
    }
    // The session is over: its report, a timeout, a crash, an early exit.
    if (!answered && status == FrameStatus::Incomplete && open) {
        p.timedOut = true;
    } else if (failure || !open) {
        // Give a runner that reported a failure a moment to end by itself.
        for (int i = 0; i < 100 && pump(s, p, 20);) ++i;
        if (!s.channel.empty()) channel.records.push_back(Record{});
    }
    const int st = waitStatus(s, p.timedOut);
    if (!p.timedOut) fillEnd(p, st, s.sandboxed);
    slot.reset();
    return judge(call, "", limit, p, channel, true, stopped);
}

bool sessionsOn() {
    const std::string v = env("GRADING_RUNNER_SESSIONS");
    return v != "0" && v != "off";
}

}  // namespace

void setSandboxPolicy(SandboxPolicy p) { policy() = p; }

const RunnerCallTotals& runnerCallTotals() { return totals(); }

std::string closeSessions() {
    std::string problems;
    for (auto& [runner, s] : sessions()) {
        if (!s) continue;
        // Its stdin closed, a runner ends; whatever it writes before that
        // came after its last answer.
        close(s->child.input);
        s->child.input = -1;
        ProcessResult p;
        for (int i = 0; i < 250 && pump(*s, p, 20); ++i) {
        }
        if (!s->channel.empty()) {
            problems += "the runner " + runner + " wrote " + std::to_string(s->channel.size()) +
                        " bytes to its channel after its last answer: something other than the runner wrote there\n";
        }
        waitStatus(*s, false);
    }
    sessions().clear();
    return problems;
}

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

std::string lastBreadcrumb(const std::string& stderrText) {
    const std::string marker = "at: ";
    size_t pos = stderrText.rfind("\n" + marker);
    if (pos == std::string::npos) {
        if (stderrText.compare(0, marker.size(), marker) != 0) return {};
        pos = 0;
    } else {
        pos += 1;
    }
    const size_t end = stderrText.find('\n', pos);
    return stderrText.substr(pos + marker.size(),
                             end == std::string::npos ? std::string::npos : end - pos - marker.size());
}

namespace {

RunnerOutcome dispatch(const RunnerCall& call) {
    // GRADING_SANITIZER=memcheck[,racecheck,...]: one run under each tool,
    // the first report fails the call.
    const std::vector<std::string> tools = split(env("GRADING_SANITIZER"), ',');
    // Under a sanitizer every call is a process of its own: compute-sanitizer
    // reports at the end of the process.
    if (tools.empty() && sessionsOn()) return sessionCall(call);
    if (tools.empty() || call.subcommand == protocol::Probe::kName) return callOnce(call, "");
    RunnerOutcome outcome;
    for (const std::string& tool : tools) {
        outcome = callOnce(call, tool);
        if (!outcome.ok()) break;
    }
    return outcome;
}

}  // namespace

// The slots are taken by the hold's first call that asks a runner, so a
// hold whose calls are all read back (answerShared) waits for no one.
WholeGpuHold::WholeGpuHold() { ++heldGpu().depth; }

WholeGpuHold::~WholeGpuHold() {
    if (--heldGpu().depth == 0) heldGpu().slots.reset();
}

namespace {

// GRADING_CALL_TRACE=<file>: one line per runner call appended there (the
// call's label, ms from asking to the verdict, ms the runner took to answer,
// answer bytes, ms of those it held the GPU alone, when it was asked in ms
// since the epoch, the runner, and "ok" or the first 80 characters of why it
// failed): where a report's, a case's or a student's time goes, call by call
// (GRADING_TRACE sums them per case).
void traceCall(const RunnerCall& call, const std::string& label, const RunnerOutcome& o, double seconds,
               double aloneSeconds) {
    const char* path = std::getenv("GRADING_CALL_TRACE");
    if (path == nullptr || *path == '\0') return;
    size_t bytes = 0;
    for (const auto& [name, field] : o.result.fields()) bytes += field.bytes.size();
    const auto askedAt = std::chrono::system_clock::now() - std::chrono::duration<double>(seconds);
    std::ofstream out(path, std::ios::app);
    out << label << "\t" << std::lround(seconds * 1000.0) << "\t"
        << std::lround(o.process.seconds * 1000.0) << "\t" << bytes << "\t"
        << std::lround(aloneSeconds * 1000.0) << "\t"
        << std::chrono::duration_cast<std::chrono::milliseconds>(askedAt.time_since_epoch()).count() << "\t"
        << call.runner << "\t" << (o.ok() ? "ok" : tsvField(o.message.substr(0, 80))) << "\n";
}

RunnerOutcome tracedDispatch(const RunnerCall& call) {
    const auto start = Clock::now();
    const double aloneBefore = totals().exclusiveCallSeconds;
    RunnerOutcome o = dispatch(call);
    traceCall(call, labelOf(call), o, std::chrono::duration<double>(Clock::now() - start).count(),
              totals().exclusiveCallSeconds - aloneBefore);
    return o;
}

bool& answersShared() {
    static bool on = true;
    return on;
}

// What names a runner's answer to a request: the runner (its path, which is
// one student's, and its contents), the sanitizers it runs under, the
// subcommand and the request's bytes. Empty where the runner cannot be read:
// then nothing is shared.
std::string sharedAnswerKey(const RunnerCall& call) {
    static std::map<std::string, std::string> runnerContents;  // a runner does not change during a run
    auto [known, fresh] = runnerContents.try_emplace(call.runner);
    if (fresh) known->second = sha256File(call.runner);
    if (known->second.empty()) return "";
    const std::string request = call.input.serialize();
    return "runner answer\t" + call.runner + "\t" + known->second + "\t" + env("GRADING_SANITIZER") + "\t" +
           call.subcommand + "\t" + contentKey(request.data(), request.size());
}

// The bytes another process of this run kept under `key`, if any.
std::optional<std::string> keptBytes(const std::string& key) {
    std::string bytes;
    const bool kept = loadAnswer(key, [&bytes](size_t count) -> void* {
        bytes.resize(count);
        return bytes.data();
    });
    if (!kept) return std::nullopt;
    return bytes;
}

// The answer another process of this run kept for this call, if any.
std::optional<RunnerOutcome> sharedAnswer(const RunnerCall& call, const std::string& key) {
    const std::optional<std::string> bytes = keptBytes(key);
    if (!bytes) return std::nullopt;
    Expected<Record> answer = Record::parse(*bytes);
    RunnerOutcome o;
    if (!answer || !acceptAnswer(o, std::move(answer).value()).empty()) return std::nullopt;
    o.process.started = true;
    o.process.exitCode = runner_exit::kOk;  // as the runner that answered it ended
    ++totals().answersReused;
    traceCall(call, labelOf(call) + " (answer reused)", o, 0.0, 0.0);
    return o;
}

// The hang another process of this run met asking the same runner the same
// request under the same limits, if any: its message, as the call would
// end again.
std::optional<RunnerOutcome> sharedHang(const RunnerCall& call, const std::string& hangKey) {
    std::optional<std::string> message = keptBytes(hangKey);
    if (!message || message->empty()) return std::nullopt;
    RunnerOutcome o;
    o.status = RunnerOutcome::Status::Failed;
    o.message = std::move(*message);
    o.process.started = true;
    o.process.timedOut = true;
    ++totals().answersReused;
    traceCall(call, labelOf(call) + " (hang reused)", o, 0.0, 0.0);
    return o;
}

// The call made: a timed one with the GPU's state read before and after it,
// and made once more when the GPU throttled meanwhile.
RunnerOutcome ask(const RunnerCall& call) {
    if (!call.exclusiveGpu) return tracedDispatch(call);
    GpuStateLog& log = timedCallGpuLog();
    RunnerOutcome outcome;
    for (int attempt = 0; attempt < 2; ++attempt) {
        const std::optional<GpuState> before = readGpuState(gpuOf());
        outcome = tracedDispatch(call);
        const std::optional<GpuState> after = readGpuState(gpuOf());
        // The runner's own figure (its process holds the submission): kept
        // only as a time, context for the reader, never for a verdict.
        if (outcome.ok() && outcome.device.hostRoundTripUs.value_or(0.0) > 0.0) {
            log.hostRoundTripsUs.push_back(static_cast<float>(*outcome.device.hostRoundTripUs));
        }
        for (const auto& s : {before, after}) {
            if (s) log.readings.push_back(*s);
        }
        const bool throttled = (before && before->throttled()) || (after && after->throttled());
        if (!outcome.ok() || !throttled || attempt == 1) break;
        ++log.remeasured;
    }
    return outcome;
}

}  // namespace

void shareRunnerAnswers(bool on) { answersShared() = on; }

RunnerOutcome callRunner(const RunnerCall& call) {
    const std::string key = call.answerShared && answersShared() ? sharedAnswerKey(call) : "";
    if (key.empty()) return ask(call);
    if (std::optional<RunnerOutcome> kept = sharedAnswer(call, key)) return std::move(*kept);
    const std::string hangKey = key + "\thang within " + formatSeconds(call.timeLimitSeconds) + " s, stall " +
                                formatSeconds(call.stallSeconds) + " s";
    if (std::optional<RunnerOutcome> hung = sharedHang(call, hangKey)) return std::move(*hung);
    RunnerOutcome o = ask(call);
    if (o.ok()) {
        const std::string bytes = o.result.serialize();
        keepAnswer(key, bytes.data(), bytes.size());
    } else if (o.process.timedOut) {
        keepAnswer(hangKey, o.message.data(), o.message.size());
    }
    return o;
}

}  // namespace grading
