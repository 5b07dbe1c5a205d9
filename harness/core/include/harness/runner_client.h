#pragma once
// The grading side of the runner protocol. A runner is a small CUDA program
// (one per day, built with the instructor solution, the submission, the
// untouched stub or a planted bug):
//
//   <runner> <subcommand> --in INPUT
//
// INPUT is the request (a Record, protocol.h). The runner answers on file
// descriptor 3, a pipe the grader opens before anything of the runner runs:
// exactly one record, the result or its own failure report, after which it
// ends at once with _exit (no destructor or atexit handler of the submission
// runs after the answer). Exit status 0 goes with a result, and each kind of
// failure report with its own status (protocol.h, kFailureKinds). Before
// each launch it prints "at: <kernel and where>" on stderr, so a runner
// killed at its time limit still says which kernel it was in.
//
// The verdict is made here: a second answer on the channel, an answer that
// disagrees with the exit status, or no answer at all is a failure, never a
// pass.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/gpu_slots.h"
#include "harness/process.h"
#include "harness/protocol.h"
#include "harness/record.h"
#include "harness/sandbox.h"

namespace grading {

// The descriptor the runner answers on.
constexpr int kChannelFd = 3;

// The part of a call's limit that pays for a runner's process start and CUDA
// context (each day's kCallSeconds includes it). A call to a runner session
// already running does not pay it: its limit is the call's less this, but
// not under a quarter of this (nor over the call's own).
constexpr double kRunnerStartSeconds = 10.0;

// Under compute-sanitizer every runner limit (and every ctest TIMEOUT derived
// from one) grows by this factor.
constexpr double kSanitizerSlowdown = 20.0;

// Whether calls from this process run their runner in the sandbox
// (sandbox.h): Required for runners of submitted code (the driver sets it for
// the submission and stub suites, and each hostile file's test), Preferred otherwise.
void setSandboxPolicy(SandboxPolicy policy);

// A directory under $TMPDIR (or /tmp), removed with everything in it.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

struct RunnerCall {
    std::string runner;      // executable path
    std::string subcommand;  // e.g. "scale"
    Record input;            // the request
    double timeLimitSeconds = 60.0;
    std::string label;       // how messages name the call; default: the subcommand
    bool exclusiveGpu = false;  // a timed call: holds the GPU exclusively (gpu_slots.h)
    // An untimed call whose answer depends on nothing but its request and
    // the runner (a whole search that several gates judge apart):
    // where this process, or another process of this run (GRADING_ANSWER_CACHE,
    // answer_cache.h), had an answer from the same runner to the same request,
    // it is read back instead of asked again (one over 64 MiB is kept within
    // its process only). So is a hang (the runner
    // stopped at its stall or time limit) under the same limits, with its
    // message: asked again, it would hold a GPU slot, or the GPU exclusively, for
    // the same seconds to the same end. Any other failure is met afresh.
    bool answerShared = false;
    // > 0: a session's call is stopped once its runner's last breadcrumb
    // (runner_main.h) is this many seconds old, waits for GPU slots aside,
    // instead of at its time limit. For calls that leave one per level: a
    // level that takes seconds is a hang, and a deep search's limit (a
    // minute and more) spent waiting for it holds the GPU for nothing.
    double stallSeconds = 0.0;
};

struct RunnerOutcome {
    // NoDevice and NoSandbox: this machine cannot run the runner (no usable
    // GPU; no sandbox for submitted code), which says nothing of the code.
    enum class Status { Ok, NoDevice, NoSandbox, Failed };
    Status status = Status::Failed;
    Record result;
    protocol::DeviceInfo device;  // set when Ok
    std::string message;          // why it failed, or why it cannot run here
    ProcessResult process;

    bool ok() const { return status == Status::Ok; }
    bool noDevice() const { return status == Status::NoDevice; }
    bool cannotRunHere() const { return status == Status::NoDevice || status == Status::NoSandbox; }
};

RunnerOutcome callRunner(const RunnerCall& call);

// Whether this process shares answers (RunnerCall::answerShared; on unless
// turned off): a planted bug's test asks afresh on each attempt.
void shareRunnerAnswers(bool on);

// Holds the GPU exclusively for every runner call this process makes while
// it lives (a report, a timed case, a deep search): the calls already
// running elsewhere are waited for once, by the first call that asks a
// runner (none for answers read back), instead of before each of its calls,
// and no other call starts in between. Nested scopes share the outer one.
class ExclusiveGpuScope {
public:
    ExclusiveGpuScope();
    ~ExclusiveGpuScope();
    ExclusiveGpuScope(const ExclusiveGpuScope&) = delete;
    ExclusiveGpuScope& operator=(const ExclusiveGpuScope&) = delete;
};

// One of the timed turns (gpu_slots.h) of the GPU this process's calls use,
// held until it is destroyed; waits for one first.
std::unique_ptr<TimedTurn> takeTimedTurn();

// The device memory a runner's session may hold: GRADING_RUNNER_GPU_MEMORY_GIB
// (default 16; 0: no bound). A session that holds more, read during and
// after each call, is ended and that call failed: on a GPU without MPS's
// per-client limit nothing else stops a runner from taking the memory the
// runners graded beside it need (docs/performance.md).
uint64_t runnerMemoryBound();
// Whether a failure's message says its runner was so ended: a fact of the
// runner's process (what it allocates, whatever the input), not of an input.
bool endedForDeviceMemory(const std::string& message);
// How a session's memory is read: gpu_state.h's deviceMemoryBelow(the
// session's process) unless a test sets another reader; nullptr restores it.
void setRunnerMemoryReader(std::function<std::optional<uint64_t>(int pid)> reader);

// Where this process's runner calls spent their time, summed since it
// started: what GRADING_TRACE (driver.cpp) writes per case.
struct RunnerCallTotals {
    int calls = 0;
    int processesStarted = 0;      // one-shot calls and session (re)starts
    double slotWaitSeconds = 0.0;  // waiting for GPU slots (gpu_slots.h)
    double callSeconds = 0.0;      // from the request sent to the answer read
    double exclusiveCallSeconds = 0.0;  // the part of callSeconds that held the GPU exclusively (measurements, scopes)
    int answersReused = 0;  // calls answered, or a hang met, by another process's call (RunnerCall::answerShared)
    int slotsLent = 0;  // times a runner lent its shared slot to a timed call waiting (protocol.h, kLendsField)
    int retriedAlone = 0;  // calls asked again holding the GPU alone after failing for a resource a neighbour may hold
    int failedAlone = 0;   // those of them that failed alone too: the code's own failure
};
const RunnerCallTotals& runnerCallTotals();

// A typed call: the request encoded, the result decoded. `problem` is the
// one message for every way there is nothing to grade: the runner's failure,
// or a result without a field the protocol names.
template <class Sub>
struct Reply {
    RunnerOutcome outcome;
    typename Sub::Result result{};
    std::string problem;
    bool ok() const { return problem.empty(); }
    bool noDevice() const { return outcome.noDevice(); }
    bool cannotRunHere() const { return outcome.cannotRunHere(); }
    const protocol::DeviceInfo& device() const { return outcome.device; }
    // The call's length by the grader's clock: from the request sent to the
    // answer read, waits for GPU slots aside (one-shot calls: the process's
    // whole life). A time the runner reports is the runner's word; this is not.
    double seconds() const { return outcome.process.seconds; }
};

// How a day's call helper asks: afresh, or with its answer shared
// (RunnerCall::answerShared). A gate's timed call is shared where the day's
// report asks the same call after it and reads back the runs the gate graded.
enum class Answer { Fresh, Shared };

struct CallOptions {
    double timeLimitSeconds = 60.0;
    std::string label;
    bool exclusiveGpu = false;
    bool answerShared = false;  // RunnerCall::answerShared
    double stallSeconds = 0.0;  // RunnerCall::stallSeconds
};

template <class Sub>
Reply<Sub> call(const std::string& runner, const typename Sub::Request& request, const CallOptions& options) {
    RunnerCall c;
    c.runner = runner;
    c.subcommand = Sub::kName;
    c.input = protocol::encode(request);
    c.timeLimitSeconds = options.timeLimitSeconds;
    c.label = options.label;
    c.exclusiveGpu = options.exclusiveGpu;
    c.answerShared = options.answerShared;
    c.stallSeconds = options.stallSeconds;
    Reply<Sub> reply;
    reply.outcome = callRunner(c);
    if (!reply.outcome.ok()) {
        reply.problem = reply.outcome.message;
        return reply;
    }
    Expected<typename Sub::Result> result = protocol::decode<typename Sub::Result>(reply.outcome.result);
    if (!result) {
        reply.problem = "the runner's result is incomplete: " + result.error();
    } else {
        reply.result = std::move(result).value();
    }
    return reply;
}

// A call asked fast first (its checks queued on the device and read once)
// and, where that fails, again strictly (each check waited for where it is
// made), for the message that names where it failed. The verdict is the
// fast call's: a strict call that passes leaves its failure as it was. A
// machine that cannot run it is not asked again, nor, with
// Hangs::NamedAlready, a call that ran out of time: its breadcrumbs already
// name where, and asking again would wait out the hang twice.
enum class Hangs { AskedAgain, NamedAlready };
template <class Sub>
Reply<Sub> askAgainStrictly(const std::function<Reply<Sub>(bool strict)>& ask, Hangs hangs = Hangs::AskedAgain) {
    Reply<Sub> fast = ask(false);
    if (fast.ok() || fast.cannotRunHere()) return fast;
    if (hangs == Hangs::NamedAlready && fast.outcome.process.timedOut) return fast;
    Reply<Sub> strict = ask(true);
    return strict.ok() ? fast : strict;
}

// Runner sessions: by default a grading process keeps one runner process per
// runner and sends it every call (frames on its stdin, answers on fd 3), so
// the calls share one CUDA context; a failure ends the session and the next
// call starts another. GRADING_RUNNER_SESSIONS=0 gives every call a process
// of its own, as does a sanitizer. closeSessions() ends them all and says
// what, if anything, a runner wrote after its last answer.
std::string closeSessions();
// The same for one runner's session, if it has one: its process ends before
// the next test's calls (a test process that grades several submissions).
std::string closeSession(const std::string& runner);

// The last "at: ..." line a runner printed, or "" if none.
std::string lastBreadcrumb(const std::string& stderrText);

}  // namespace grading
