#pragma once
// Times work with CUDA events: warm-up runs first (lazy module loading makes
// each kernel's first launch pay its own load), then each timed run between
// its own pair of events, so we get a distribution and not only a mean, with
// the L2 cleared before each (a run never starts on the last one's cached
// data).
#include <cuda_runtime.h>

#include <functional>
#include <string>

#include "harness/timing_stats.h"

namespace grading {

// What a runner enqueues around each timed run, on the run's stream and
// outside its events, so that no run can skip its work unseen: `before`
// gives run i its own input or fresh poison (ahead of the L2 clear and the
// start event), `after` keeps or checks what run i wrote (after its stop
// event); `afterWarmup` follows each warm-up. Any may be empty.
struct TimedRunHooks {
    std::function<void(int run)> before;
    std::function<void(int run)> after;
    std::function<void()> afterWarmup;
};

// `run` enqueues one repetition on `stream` (it may synchronize inside, as
// work that reads a count back between launches must). Throws CudaError
// naming `what`. In a runner the warm-ups and timed runs are one
// TimedSection (runner_main.h).
TimingStats timeRuns(const std::function<void()>& run, const std::string& what, int warmupRuns, int timedRuns,
                     cudaStream_t stream, const TimedRunHooks& hooks);

// `afterEachRun`, if given, is called on the host after each repetition,
// warm-ups included, outside what is timed: a runner whose runs synchronize
// leaves a breadcrumb there, so a grader watching for stalls
// (RunnerCall::stallSeconds) sees it going.
TimingStats timeRuns(const std::function<void()>& run, const std::string& what, int warmupRuns,
                     int timedRuns, cudaStream_t stream = nullptr, const std::function<void()>& afterEachRun = {});

}  // namespace grading
