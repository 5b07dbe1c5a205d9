#pragma once
// What the days' Google Benchmark programs share: a pair of CUDA events that
// time one piece of work (the benchmark's manual time), and the check that a
// GPU is there at all (exit status 77, a skip, where none is).
#include <cuda_runtime.h>

#include <cstdio>

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

}  // namespace grading::bench
