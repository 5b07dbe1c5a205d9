#pragma once
// What the parts of the runner client share: runner_client.cpp (the call as
// asked: answers shared, traced, timed calls' GPU state), runner_process.cpp
// (a runner's process, one-shot calls), runner_session.cpp (a runner serving
// many calls), runner_slots.cpp (the GPU slots a call takes) and
// runner_verdict.cpp (what the runner answered, judged).
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/gpu_slots.h"
#include "harness/process.h"
#include "harness/record.h"
#include "harness/runner_client.h"
#include "harness/sandbox.h"

namespace grading::detail {

using Clock = std::chrono::steady_clock;

RunnerCallTotals& totals();

// The variable's value, or "" when it is not set.
std::string env(const char* name);

// The non-empty parts of `text` between `sep`s.
std::vector<std::string> split(const std::string& text, char sep);

std::string formatSeconds(double s);

// How messages and traces name a call.
std::string labelOf(const RunnerCall& call);

// compute-sanitizer's exit status when it found an error.
constexpr int kSanitizerFound = 86;

// ---- the runner's process (runner_process.cpp)

// How a call is started: the command, its options, the sandbox's cgroup and uid.
struct Launch {
    std::vector<std::string> argv;
    ProcessOptions options;
    std::string cgroup;
    UidLease uid;  // held until the cgroup is removed
    bool sandboxed = false;
    std::string refused;  // why it must not start here, no sandbox ("" when it may)

    // The call's outcome when it must not start: this machine cannot run it.
    std::optional<RunnerOutcome> refusal() const {
        if (refused.empty()) return std::nullopt;
        RunnerOutcome o;
        o.status = RunnerOutcome::Status::NoSandbox;
        o.message = refused;
        return o;
    }
};

// `tail` follows the runner's path: one-shot "<subcommand> --in <request>",
// or "--session". `request` is the host path of the request file, or "".
Launch prepare(const RunnerCall& call, const std::string& sanitizer, const TempDir& dir,
               const std::vector<std::string>& tail, const std::string& request);

// bwrap reports its child's death by signal as 128 + the signal.
void unwrapSandboxStatus(ProcessResult& p);

// The request as sent: a timed call says so (in a session the runner then
// asks for the GPU exclusively only around what it measures), and so does
// a call run under compute-sanitizer (runner_main.cpp).
Record withCallKind(const RunnerCall& call, bool session, bool sanitized = false);

// A call in a process of its own, under `sanitizer` unless that is "".
RunnerOutcome callOnce(const RunnerCall& call, const std::string& sanitizer);

// ---- sessions (runner_session.cpp)

// Whether calls go to runner sessions (GRADING_RUNNER_SESSIONS).
bool sessionsOn();

RunnerOutcome sessionCall(const RunnerCall& call);

// ---- GPU slots (runner_slots.cpp)

// The GPUs ctest assigned this test ("" when it assigned none).
std::string assignedGpus();

// The GPU this process's runners use, as the slot files name it.
std::string gpuOf();

// How a call uses the GPU: the probe that starts a runner runs no kernel.
GpuUse gpuUseOf(const RunnerCall& call);

// Takes the call's GPU slots, counting the wait; none inside an
// ExclusiveGpuScope, whose first call takes them all for it.
std::unique_ptr<GpuSlot> takeSlot(GpuUse use);

// A timed call holds the GPU exclusively (in a session, while its runner
// measures), and so does every call inside an ExclusiveGpuScope.
bool holdsGpuExclusively(const RunnerCall& call);

// One call made, how long it took, and how much of that it held the GPU
// exclusively (runnerCallTotals).
void countCall(double seconds, double exclusiveSeconds);

// A session call's hold on the GPU: one shared slot, lent to timed calls
// waiting for the GPU when the runner offers it, and every slot while a
// timed call's runner measures (it asks, protocol.h), or none of its own
// inside an ExclusiveGpuScope; with the time held exclusively and the time spent
// waiting for slots after the call began.
class CallGpu {
public:
    explicit CallGpu(const RunnerCall& call);

    // Whether the runner may lend its slot (protocol.h, kLendsField).
    bool lends() const { return lends_; }

    // The runner asked for the GPU as `use` (kGpuExclusive or kGpuShared), or
    // lent it (kGpuLend): empty once it has it, else why the call fails.
    std::string ask(const std::string& use);

    Clock::duration waited() const { return waited_; }
    double exclusiveSeconds(Clock::time_point end) const;

private:
    std::string lend();
    Clock::time_point takeAgain(GpuUse use);

    static constexpr int kMaxRequests = 64;
    const bool measures_;  // a timed call: its runner asks around what it measures
    const bool inScope_;   // the process holds every slot already
    const bool lends_;     // a shared slot of its own, which it may lend
    std::unique_ptr<GpuSlot> slot_;
    bool measuring_ = false;  // between the runner's "exclusive" and its "shared"
    int requests_ = 0;
    Clock::duration waited_{};
    Clock::duration exclusive_{};
    std::optional<Clock::time_point> exclusiveSince_;
};

// ---- the verdict (runner_verdict.cpp)

// What the channel carried: the records in order, or why it is not a
// sequence of records.
struct Channel {
    std::vector<Record> records;
    std::string problem;
};

// The one-shot runner's channel, read as records.
Channel readChannel(const ProcessResult& p);

// A runner's answer taken as the call's result, which carries the device it
// ran on; else why it cannot be (the same for an answer read back).
std::string acceptAnswer(RunnerOutcome& o, Record answer);

// The verdict on one call from what the runner did: `ended` says whether the
// process is over (a one-shot call, or a session that ended); a session that
// answered and lives on has nothing more to say.
RunnerOutcome judge(const RunnerCall& call, const std::string& sanitizer, double limitSeconds, ProcessResult p,
                    Channel channel, bool ended, bool stalled = false);

}  // namespace grading::detail
