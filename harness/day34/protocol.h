#pragma once
// The day 34 runner protocol: what the grader sends each subcommand and what
// comes back, declared once for both sides (harness/protocol.h). Every grid
// travels whole, row-major, n * n floats: the initial grid is an input like
// any other, so it changes from call to call and nothing names the case.
#include <cstdint>
#include <string>
#include <vector>

#include "harness/protocol.h"

namespace day34::protocol {

using grading::protocol::Entries;
using grading::protocol::Finite;
using grading::protocol::OneOf;
using grading::protocol::Within;

// Limits the requests' fields carry (checked where a request is decoded).
constexpr int32_t kMaxSide = 8192;  // 256 MiB a buffer; 34.stencil grades it (cases.h: kLargestSide)
constexpr int32_t kMaxSteps = 100000;
constexpr size_t kMaxSweep = 8;  // r values (stability) or copy intervals (policy) a call takes
inline const OneOf kKernels{{"global", "tiled", "fast"}};  // "fast": the instructor's, reference runner only

// `steps` checked steps of one kernel from `init`, the course's ping-pong:
// both buffers set by resetPingPong, the output's interior poisoned before
// every launch (its ring stays), errors, guard words and the input checked
// after every launch (the input against a copy kept on the device, so only
// a changed cell comes back). One answer serves 34.stencil and 34.ring. A
// seeded grid travels as its key: `init` empty, the runner makes
// seededGrid(n, initKey) on the device (keyed_grid.h), as the grader does
// on the host.
struct StepRequest {
    int32_t n = 0;
    std::vector<float> init;
    uint64_t initKey = 0;  // where init is empty
    std::string kernel;  // global | tiled | fast (the instructor's, reference runner only)
    int32_t steps = 0;
    float r = 0.0f;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("n", s.n, Within<int32_t>{3, kMaxSide});
        field("init", s.init);
        field("init_key", s.initKey);
        field("kernel", s.kernel, kKernels);
        field("steps", s.steps, Within<int32_t>{1, kMaxSteps});
        field("r", s.r, Finite{});
    }
};

struct StepResult {
    std::vector<float> grid;          // the newest buffer: after `steps` steps
    std::vector<float> previousRing;  // the other buffer's ring, after steps - 1 (gates.h: ringCell order)

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("grid", s.grid);
        field("previous_ring", s.previousRing);
    }
};

// `steps` steps from `init` at each r in turn, both buffers refilled with
// poison and reset before each; checked after every launch.
struct StabilityRequest {
    int32_t n = 0;
    std::vector<float> init;
    std::string kernel;
    int32_t steps = 0;
    std::vector<float> r;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("n", s.n, Within<int32_t>{3, kMaxSide});
        field("init", s.init);
        field("kernel", s.kernel, kKernels);
        field("steps", s.steps, Within<int32_t>{1, kMaxSteps});
        field("r", s.r, Entries{1, kMaxSweep}, Finite{});
    }
};

struct StabilityResult {
    std::vector<float> finals;  // the final grid of each r, back to back

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("finals", s.finals);
    }
};

// The course's runSteps loop (`steps`, even, at r) once discarded, then once
// per entry of copyEvery (0: never copied back), each from a fresh reset.
struct PolicyRequest {
    int32_t n = 0;
    std::vector<float> init;
    std::string kernel;
    int32_t steps = 0;
    float r = 0.0f;
    std::vector<int32_t> copyEvery;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("n", s.n, Within<int32_t>{3, kMaxSide});
        field("init", s.init);
        field("kernel", s.kernel, kKernels);
        field("steps", s.steps, Within<int32_t>{1, kMaxSteps});
        field("r", s.r, Finite{});
        field("copy_every", s.copyEvery, Entries{1, kMaxSweep});
    }
};

struct PolicyResult {
    std::vector<float> loopMs;     // per entry of copyEvery: the events around the whole loop
    std::vector<float> finals;     // per entry of copyEvery: the final grid, back to back
    std::vector<float> snapshots;  // per entry with copyEvery > 0: the host copy the loop left

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("loop_ms", s.loopMs);
        field("finals", s.finals);
        field("snapshots", s.snapshots);
    }
};

// One step of each kernel `kernels` names, timed: the warm-ups, then
// timedRuns runs each between its own events, every run reading the first
// buffer and writing the second (the course's design). kernels: "course"
// (copyGrid, heatStepGlobal, heatStepTiled) or "course_and_fast" (and the
// instructor's fast stencil where the runner has it).
constexpr const char* kTimeCourse = "course";
constexpr const char* kTimeCourseAndFast = "course_and_fast";
struct TimingRequest {
    int32_t n = 0;
    std::vector<float> init;
    float r = 0.0f;
    int32_t warmups = 0;
    int32_t timedRuns = 0;
    std::string kernels = kTimeCourse;
    uint64_t key = 0;   // the later timed runs' grids are made from it (TimingResult)

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("n", s.n, Within<int32_t>{3, kMaxSide});
        field("init", s.init);
        field("key", s.key);
        field("r", s.r, Finite{});
        field("warmups", s.warmups, Within<int32_t>{0, 100});
        field("timed_runs", s.timedRuns, Within<int32_t>{1, 100});
        field("kernels", s.kernels, OneOf{{kTimeCourse, kTimeCourseAndFast}});
    }
};

// Each timed run reads and writes buffers of its own. Run 0 reads `init`;
// *Out is its output, graded in full. Run i > 0 reads a grid the runner
// makes on the device from the request's key (keyed_grid.h, timedRunKey),
// and its output is checked there against the course's answer to that grid
// (heatStepGlobal's step, within kTimedRunTolerance; the copy's, the grid
// itself): *RunDiff is the first cell that is not, per run, -1 where none.
struct TimingResult {
    std::vector<float> copyMs, globalMs, tiledMs;     // one sample per timed run
    std::vector<float> copyOut, globalOut, tiledOut;  // timed run 0's output buffer, whole
    std::vector<float> fastMs, fastOut;               // the same for heatStepFast; empty where not asked or absent
    std::vector<int64_t> copyRunDiff, globalRunDiff, tiledRunDiff, fastRunDiff;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("copy_run_diff", s.copyRunDiff);
        field("global_run_diff", s.globalRunDiff);
        field("tiled_run_diff", s.tiledRunDiff);
        field("fast_run_diff", s.fastRunDiff);
        field("copy_ms", s.copyMs);
        field("global_ms", s.globalMs);
        field("tiled_ms", s.tiledMs);
        field("copy_out", s.copyOut);
        field("global_out", s.globalOut);
        field("tiled_out", s.tiledOut);
        field("fast_ms", s.fastMs);
        field("fast_out", s.fastOut);
    }
};

// A speed gate's measure, timed by the grader's clock around the call: no
// time comes back. `steps` chained steps of one kernel, the course's
// ping-pong with nothing between launches, from a grid the runner makes on
// the device from `key` (every cell, the ring too, uniform in [-1, 1)), so
// no two calls' inputs are alike and only the key crosses the pipe. The
// answer proves the steps were done: the last grid's energy (its sum of
// squares) and how many of its cells are not finite.
struct ClockedRequest {
    int32_t n = 0;
    uint64_t key = 0;
    std::string kernel;  // global | tiled | fast (the instructor's, reference runner only)
    int32_t steps = 0;
    float r = 0.0f;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("n", s.n, Within<int32_t>{3, kMaxSide});
        field("key", s.key);
        field("kernel", s.kernel, kKernels);
        field("steps", s.steps, Within<int32_t>{1, kMaxSteps});
        field("r", s.r, Finite{});
    }
};

struct ClockedResult {
    double energy = 0.0;
    int64_t nonFinite = 0;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("energy", s.energy);
        field("non_finite", s.nonFinite);
    }
};

struct Step {
    static constexpr const char* kName = "step";
    using Request = StepRequest;
    using Result = StepResult;
};
struct Stability {
    static constexpr const char* kName = "stability";
    using Request = StabilityRequest;
    using Result = StabilityResult;
};
struct Policy {
    static constexpr const char* kName = "policy";
    using Request = PolicyRequest;
    using Result = PolicyResult;
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

}  // namespace day34::protocol
