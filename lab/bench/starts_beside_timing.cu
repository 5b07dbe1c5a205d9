// Whether a runner starting perturbs another process's timed kernels. On the
// H200 these two did not move, and starts waited for nothing for a while;
// day 52's diamond of concurrent branches did (to half speed), so starts
// wait for timed calls again (gpu_slots.h). Two roles, run by
// lab/scripts/starts-beside-timing.sh:
//
//   starts_beside_timing start [--context]
//       starts as a runner's probe does (the wait style, cuInit, the device's
//       properties and PCI id), with --context also makes the CUDA context,
//       and exits; prints whether the primary context is active.
//   starts_beside_timing time [--runs N]
//       times, as a timed gate does (grading::timeRuns: warm-ups, the L2
//       cleared before each run, a pair of events each), N runs of a 64 MiB
//       write, then N/4 host-driven loops of 22 launches and 4-byte
//       read-backs (a course BFS's shape); prints one line each:
//         <what> <median us> <IQR % of the median> <max us>
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

#include "harness/bench.h"
#include "harness/cuda_check.h"
#include "harness/event_timer.h"

namespace {

using grading::bench::hasFlag;
using grading::bench::numberOption;

__global__ void writeAll(float* out, size_t n, float value) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        out[i] = value;
    }
}

__global__ void tick(unsigned* counter) { atomicAdd(counter, 1u); }

void print(const char* what, const grading::TimingStats& t) {
    std::printf("%s %.2f %.2f %.2f\n", what, t.medianMs * 1000, 100 * t.relativeSpread(), t.maxMs * 1000);
}

void startLikeAProbe(bool context) {
    CUDA_TRY(cudaSetDeviceFlags(cudaDeviceScheduleYield));
    int devices = 0;
    CUDA_TRY(cudaGetDeviceCount(&devices));
    cudaDeviceProp prop{};
    CUDA_TRY(cudaGetDeviceProperties(&prop, 0));
    char busId[32] = {};
    CUDA_TRY(cudaDeviceGetPCIBusId(busId, sizeof busId, 0));
    if (context) CUDA_TRY(cudaFree(nullptr));
    unsigned flags = 0;
    int active = 0;
    cuDevicePrimaryCtxGetState(0, &flags, &active);
    std::printf("context %s\n", active ? "active" : "inactive");
}

void timeBoth(int runs) {
    const size_t words = size_t{16} << 20;  // 64 MiB
    float* out = nullptr;
    unsigned* counter = nullptr;
    unsigned* readBack = nullptr;
    CUDA_TRY(cudaMalloc(&out, words * sizeof(float)));
    CUDA_TRY(cudaMalloc(&counter, sizeof(unsigned)));
    CUDA_TRY(cudaMallocHost(&readBack, sizeof(unsigned)));
    float value = 0;
    print("write_64MiB", grading::timeRuns([&] { writeAll<<<1056, 256>>>(out, words, ++value); }, "the 64 MiB write",
                                           50, runs));
    print("host_loop_22", grading::timeRuns(
                              [&] {
                                  for (int level = 0; level < 22; ++level) {
                                      tick<<<1, 1>>>(counter);
                                      CUDA_TRY(cudaMemcpy(readBack, counter, sizeof(unsigned), cudaMemcpyDeviceToHost));
                                  }
                              },
                              "the host-driven loop", 5, std::max(1, runs / 4)));
}

}  // namespace

int main(int argc, char** argv) {
    const std::string role = argc > 1 ? argv[1] : "";
    try {
        if (role == "start") {
            startLikeAProbe(hasFlag(argc, argv, "--context"));
            return 0;
        }
        if (role == "time") {
            timeBoth(static_cast<int>(numberOption(argc, argv, "--runs", 2000)));
            return 0;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "starts_beside_timing: %s\n", e.what());
        return 1;
    }
    std::fprintf(stderr, "usage: starts_beside_timing start [--context] | time [--runs N]\n");
    return 2;
}
