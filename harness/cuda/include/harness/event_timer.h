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

// `run` enqueues one repetition on `stream` (it may synchronize inside, as a
// level-synchronous BFS must). Throws CudaError naming `what`. In a runner
// the warm-ups and timed runs are one TimedSection (runner_main.h).
// `afterEachRun`, if given, is called on the host after each repetition,
// outside what is timed: a runner whose runs synchronize leaves a breadcrumb
// there, so a grader watching for stalls (RunnerCall::stallSeconds) sees it
// going.
TimingStats timeRuns(const std::function<void()>& run, const std::string& what, int warmupRuns,
                     int timedRuns, cudaStream_t stream = nullptr, const std::function<void()>& afterEachRun = {});

}  // namespace grading
