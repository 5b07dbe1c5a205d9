#pragma once
// Grading hooks in the course's kernels, not part of the lesson; plain C++ so
// the grader reads the same constants. Neither changes the arithmetic.
//
// The hold: 52.stress makes the timing adversarial. It asks grindFma to hold
// every thread of a launch for a while before it starts, chosen by the
// launch's output buffer. A held upstream means a branch that was not made
// to wait reads the zeroed middle buffer; a held branch means a join that
// was not made to wait reads that branch's poisoned buffer.
//
// The launch log: thread 0 of block 0 of every grindFma and sumFour launch
// appends its output buffer, its shape and the elements it was given, so
// 52.diamond can hold the diamond to the course's launch shape, which no
// output shows (grindFma grid-strides: any grid gives the same answer), and
// a course launch given no work does not pass for the diamond's.
//
// The timeline: a launch writing a watched buffer marks when its first block
// started and its last block ended (the GPU's global timer, ns), so the
// report can draw the diamond's kernels side by side, and the serial run's.
#include <cstdint>

namespace day52 {

constexpr int kMaxHeldOutputs = 5;

struct GrindHold {
    const float* out[kMaxHeldOutputs];       // a launch writing here is held...
    unsigned long long ns[kMaxHeldOutputs];  // ...this many nanoseconds (0: not held)
};

// Installs the table for later launches (a copy on the legacy default
// stream: the caller waits for it before launching on other streams).
// Throws grading::CudaError.
void setGrindHold(const GrindHold& hold);
// No launch is held.
void clearGrindHold();
// The table as it is now (the runner checks nothing changed it). Throws grading::CudaError.
GrindHold readGrindHold();

constexpr int kLoggedGrindFma = 0;
constexpr int kLoggedSumFour = 1;
constexpr int kMaxLoggedLaunches = 64;

struct LoggedLaunch {
    const float* out;
    int32_t kernel;           // kLoggedGrindFma or kLoggedSumFour
    uint64_t blocks;          // gridDim.x * gridDim.y * gridDim.z
    uint64_t threadsPerBlock; // blockDim.x * blockDim.y * blockDim.z
    uint64_t elements;        // the n it was given
};

struct LaunchLog {
    uint32_t count;  // launches seen; only the first kMaxLoggedLaunches are kept
    LoggedLaunch at[kMaxLoggedLaunches];
};

constexpr int kMaxTimedOutputs = 6;  // the upstream, four branches, the join

struct TimedOutputs {
    const float* out[kMaxTimedOutputs];  // nullptr: unused
};

struct Timeline {
    unsigned long long startNs[kMaxTimedOutputs];  // ~0: never started
    unsigned long long endNs[kMaxTimedOutputs];    // 0: never ended
};

// Watches these buffers from the next launch on, the timeline emptied
// (legacy default stream, like setGrindHold). Throws grading::CudaError.
void watchTimeline(const TimedOutputs& outputs);
// Watches nothing.
void stopTimeline();
// The timeline as the launches left it; call once they are done. Throws grading::CudaError.
Timeline readTimeline();

// Empties the log (legacy default stream, like setGrindHold). Throws grading::CudaError.
void clearLaunchLog();
// The log as the launches left it; call once they are done. Throws grading::CudaError.
LaunchLog readLaunchLog();

}  // namespace day52
