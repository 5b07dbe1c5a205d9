#pragma once
// The day 52 runner protocol: what the grader sends each subcommand and what
// comes back, declared once for both sides (harness/protocol.h). Inputs
// travel as keys (inputs.h): the runner builds d_in from each, the grader
// builds the same array for its reference. Nothing expected is sent.
#include <cstdint>
#include <string>
#include <vector>

#include "harness/protocol.h"

namespace day52::protocol {

using grading::protocol::Entries;
using grading::protocol::OneOf;
using grading::protocol::Within;

// Which buffer a logged launch wrote (LaunchesResult::target).
constexpr int32_t kTargetMid = 0;     // d_mid
constexpr int32_t kTargetBranch0 = 1; // d_branch[j] is 1 + j
constexpr int32_t kTargetOut = 5;     // d_out
constexpr int32_t kTargetOther = -1;  // none of the diamond's buffers

// Limits the requests' fields carry (checked where a request is decoded).
constexpr size_t kMaxRuns = 64;  // diamonds a call runs, each on buffers of its own
constexpr int32_t kMaxClockedRuns = 4096;
constexpr double kMaxHoldMs = 1000.0;
constexpr int32_t kLastBranch = kTargetOut - kTargetBranch0 - 1;

// One fresh diamond (streams, events, buffers) per key, one after another.
struct RunsRequest {
    std::vector<uint64_t> inputKeys;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("input_keys", s.inputKeys, Entries{1, kMaxRuns});
    }
};

struct RunsResult {
    std::vector<float> out;             // kElems per run, back to back
    // The kernels' launch log (grading_hooks.h): each run's first 64
    // launches, in the order they started.
    std::vector<int32_t> launchRun;     // per launch: its run
    std::vector<int32_t> launchKernel;  // kLoggedGrindFma or kLoggedSumFour
    std::vector<int32_t> launchTarget;  // kTarget*
    std::vector<int64_t> launchBlocks;
    std::vector<int64_t> launchThreads; // per block
    std::vector<int64_t> launchElements;  // the n it was given
    // Per run, the streams that still had work once s[0] was done, bit k
    // for s[k] (0: none): the diamond must end on s[0].
    std::vector<int32_t> leftRunning;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("out", s.out);
        field("left_running", s.leftRunning);
        field("launch_run", s.launchRun);
        field("launch_kernel", s.launchKernel);
        field("launch_target", s.launchTarget);
        field("launch_blocks", s.launchBlocks);
        field("launch_threads", s.launchThreads);
        field("launch_elements", s.launchElements);
    }
};

// Submitted diamonds under adversarial timing: run r on a fresh diamond with
// input inputKeys[r], d_mid zeroed and the other outputs poisoned, the
// upstream held upstreamHoldMs and branch heldBranch[r] held branchHoldMs.
struct StressRequest {
    std::vector<uint64_t> inputKeys;
    std::vector<int32_t> heldBranch;
    double upstreamHoldMs = 0.0;
    double branchHoldMs = 0.0;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("input_keys", s.inputKeys, Entries{1, kMaxRuns});
        field("held_branch", s.heldBranch, Within<int32_t>{0, kLastBranch});
        field("upstream_hold_ms", s.upstreamHoldMs, Within<double>{0.0, kMaxHoldMs});
        field("branch_hold_ms", s.branchHoldMs, Within<double>{0.0, kMaxHoldMs});
    }
};

struct StressResult {
    std::vector<float> out;    // kElems per run, back to back
    std::vector<float> runMs;  // per run, host clock: the run, its waits and its checks
    std::vector<int32_t> leftRunning;  // as RunsResult's

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("out", s.out);
        field("left_running", s.leftRunning);
        field("run_ms", s.runMs);
    }
};

// cudaEventElapsedTime(fork, branchDone[j]) for each j after both were
// recorded and reached, the error slot cleared after each. Error names,
// comma separated, one per probe.
struct NoTimingResult {
    std::string elapsedErrors;   // what cudaEventElapsedTime returned
    std::string slotCleared;     // what the clearing cudaGetLastError() returned
    std::string slotAfterClear;  // what a second cudaGetLastError() returned

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("elapsed_errors", s.elapsedErrors);
        field("slot_cleared", s.slotCleared);
        field("slot_after_clear", s.slotAfterClear);
    }
};

// One shape (kShapeDiamond: the submission's enqueueDiamond; kShapeSerial:
// the course's enqueueSerial), warmed up on warmupKey's input and timed per
// run with events, each timed run in buffers of its own: run 0 grinds
// timedKey's input (inputs.h); run r > 0 an input the runner makes on the
// device from timedKey and r, its output checked there against the course's
// enqueueSerial of the same input. The serial shape is timed by the course
// runner, which links no student code.
constexpr const char* kShapeDiamond = "diamond";
constexpr const char* kShapeSerial = "serial";
inline const OneOf kShapes{{kShapeDiamond, kShapeSerial}};
// The function a shape runs, as messages name it.
inline const char* enqueueOf(const std::string& shape) {
    return shape == kShapeDiamond ? "enqueueDiamond" : "enqueueSerial";
}
struct TimingRequest {
    std::string shape = kShapeDiamond;
    uint64_t warmupKey = 0;
    uint64_t timedKey = 0;
    int32_t warmups = 0;
    int32_t runs = 0;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("shape", s.shape, kShapes);
        field("warmup_key", s.warmupKey);
        field("timed_key", s.timedKey);
        field("warmups", s.warmups, Within<int32_t>{0, 100});
        field("runs", s.runs, Within<int32_t>{1, static_cast<int32_t>(kMaxRuns)});
    }
};

struct TimingResult {
    std::vector<float> ms;  // per timed run
    std::vector<float> out;  // timed run 0's output, on timedKey's input: graded like any other
    // Per timed run, the first index where its output is not the course's
    // enqueueSerial of its input; -1 where it is (run 0: -1).
    std::vector<int64_t> runFirstDifference;
    // One more untimed run with its kernels' start and end on the GPU's
    // timer: the upstream, branches 0-3 and the join, each start then each
    // end, ns (an observation for the report's timeline).
    std::vector<uint64_t> timelineNs;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("ms", s.ms);
        field("out", s.out);
        field("run_first_difference", s.runFirstDifference);
        field("timeline_ns", s.timelineNs);
    }
};

// 52.overlap's measure, timed by the grader's clock around the call: no
// time comes back. `runs` runs of one shape back to back in one rig, each
// bracketed as a timed run is (no run overlaps the next), each on its own
// input, made on the device from `key` and the run (multiples of 2^-14 in
// [-512, 512), as inputs.h draws them). The answer proves every run: the
// sum of the squares of its d_out.
struct ClockedRequest {
    std::string shape = kShapeDiamond;
    uint64_t key = 0;
    int32_t runs = 0;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("shape", s.shape, kShapes);
        field("key", s.key);
        field("runs", s.runs, Within<int32_t>{1, kMaxClockedRuns});
    }
};

struct ClockedResult {
    std::vector<double> proofs;  // per run

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("proofs", s.proofs);
    }
};

// The course's broken order once, on a warmed-up device, d_mid zeroed first.
struct BrokenRequest {
    uint64_t inputKey = 0;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("input_key", s.inputKey);
    }
};

struct BrokenResult {
    std::vector<float> out;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("out", s.out);
    }
};

struct Diamond {
    static constexpr const char* kName = "diamond";
    using Request = RunsRequest;
    using Result = RunsResult;
};
struct Serial {
    static constexpr const char* kName = "serial";
    using Request = RunsRequest;
    using Result = RunsResult;
};
struct Stress {
    static constexpr const char* kName = "stress";
    using Request = StressRequest;
    using Result = StressResult;
};
struct NoTiming {
    static constexpr const char* kName = "no-timing";
    using Request = grading::protocol::Empty;
    using Result = NoTimingResult;
};
struct Timing {
    static constexpr const char* kName = "timing";
    using Request = TimingRequest;
    using Result = TimingResult;
};
struct Clocked {
    static constexpr const char* kName = "clocked";
    using Request = ClockedRequest;
    using Result = ClockedResult;
};
struct Broken {
    static constexpr const char* kName = "broken";
    using Request = BrokenRequest;
    using Result = BrokenResult;
};

}  // namespace day52::protocol
