#pragma once
// What the days' Google Benchmark programs share: a pair of CUDA events that
// time one piece of work (the benchmark's manual time), and the check that a
// GPU is there at all (exit status 77, a skip, where none is). And the
// options of the harness's own measuring tools (harness/bench/), and the
// fixed loop they time the host's core with.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "harness/cuda_check.h"

namespace grading::bench {

class EventTimer {
public:
    EventTimer() {
        CUDA_TRY(cudaEventCreate(&start_));
        CUDA_TRY(cudaEventCreate(&stop_));
    }
    ~EventTimer() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }
    EventTimer(const EventTimer&) = delete;
    EventTimer& operator=(const EventTimer&) = delete;

    // Seconds between events recorded on the legacy default stream around `work`.
    template <typename F>
    double seconds(F&& work) {
        CUDA_TRY(cudaEventRecord(start_));
        work();
        CUDA_TRY(cudaEventRecord(stop_));
        CUDA_TRY(cudaEventSynchronize(stop_));
        float ms = 0;
        CUDA_TRY(cudaEventElapsedTime(&ms, start_, stop_));
        return ms * 1e-3;
    }

private:
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// 0 when a CUDA device can be used; otherwise says why, as `program`, and
// returns the status a skipped run exits with.
inline int requireDevice(const char* program) {
    int devices = 0;
    const cudaError_t probe = cudaGetDeviceCount(&devices);
    if (probe == cudaSuccess && devices > 0) return 0;
    std::fprintf(stderr, "%s: no usable CUDA device (%s)\n", program,
                 probe != cudaSuccess ? cudaGetErrorString(probe) : "0 devices");
    return 77;
}

// "--name value" among the arguments after the first (the tool's mode), or
// `fallback` where it is not given.
inline double numberOption(int argc, char** argv, const char* name, double fallback) {
    for (int i = 2; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) return std::atof(argv[i + 1]);
    }
    return fallback;
}

// Whether "--name" is among the arguments after the first.
inline bool hasFlag(int argc, char** argv, const char* name) {
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) return true;
    }
    return false;
}

// A fixed amount of arithmetic, nothing else: its time, in us, is the
// core's speed.
inline float cpuLoopMicros(int iterations) {
    static volatile double sink = 0;
    const auto from = std::chrono::steady_clock::now();
    double x = 1.0;
    for (int i = 0; i < iterations; ++i) x = x * 1.0000001 + 1e-9;
    sink = sink + x;
    return std::chrono::duration<float, std::micro>(std::chrono::steady_clock::now() - from).count();
}

}  // namespace grading::bench
