// Whether a runner starting perturbs another process's timed kernels: the
// measurement behind letting starts go on while a timed call holds the GPU
// (gpu_slots.h). Two roles, run by .ci/starts-beside-timing.sh:
//
//   starts_beside_timing start [--context]
//       starts as a runner's probe does (the wait style, cuInit, the device's
//       properties and PCI id), with --context also makes the CUDA context,
//       and exits; prints whether the primary context is active.
//   starts_beside_timing time [--runs N]
//       N timed runs of a 64 MiB write, each between its own pair of events,
//       then N/4 host-driven loops of 22 launches and 4-byte read-backs (a
//       course BFS's shape); prints one line each:
//         <what> <median us> <IQR % of the median> <p99 us>
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

__global__ void writeAll(float* out, size_t n, float value) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        out[i] = value;
    }
}

__global__ void tick(unsigned* counter) { atomicAdd(counter, 1u); }

void check(cudaError_t err, const char* what) {
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "starts_beside_timing: %s: %s\n", what, cudaGetErrorString(err));
    std::exit(1);
}

bool flag(int argc, char** argv, const char* name) {
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) return true;
    }
    return false;
}

int intArgument(int argc, char** argv, const char* name, int fallback) {
    for (int i = 2; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) return std::atoi(argv[i + 1]);
    }
    return fallback;
}

// Quantiles by nearest rank: enough for thousands of runs.
void printSummary(const char* what, std::vector<float> us) {
    std::sort(us.begin(), us.end());
    const auto at = [&](double q) { return us[static_cast<size_t>(q * (us.size() - 1) + 0.5)]; };
    std::printf("%s %.2f %.2f %.2f\n", what, at(0.5), 100.0 * (at(0.75) - at(0.25)) / at(0.5), at(0.99));
}

int startLikeAProbe(bool context) {
    check(cudaSetDeviceFlags(cudaDeviceScheduleYield), "cudaSetDeviceFlags");
    int devices = 0;
    check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    char busId[32] = {};
    check(cudaDeviceGetPCIBusId(busId, sizeof busId, 0), "cudaDeviceGetPCIBusId");
    if (context) check(cudaFree(nullptr), "cudaFree(nullptr)");
    unsigned flags = 0;
    int active = 0;
    cuDevicePrimaryCtxGetState(0, &flags, &active);
    std::printf("context %s\n", active ? "active" : "inactive");
    return 0;
}

int timeRuns(int runs) {
    const size_t words = size_t{16} << 20;  // 64 MiB
    float* out = nullptr;
    unsigned* counter = nullptr;
    unsigned* readBack = nullptr;
    check(cudaMalloc(&out, words * sizeof(float)), "cudaMalloc");
    check(cudaMalloc(&counter, sizeof(unsigned)), "cudaMalloc");
    check(cudaMallocHost(&readBack, sizeof(unsigned)), "cudaMallocHost");
    cudaEvent_t begin, end;
    check(cudaEventCreate(&begin), "cudaEventCreate");
    check(cudaEventCreate(&end), "cudaEventCreate");
    const int blocks = 1056, threads = 256;
    for (int i = 0; i < 50; ++i) writeAll<<<blocks, threads>>>(out, words, static_cast<float>(i));  // warm-up
    check(cudaDeviceSynchronize(), "warm-up");

    std::vector<float> kernel, loop;
    for (int r = 0; r < runs; ++r) {
        check(cudaEventRecord(begin), "cudaEventRecord");
        writeAll<<<blocks, threads>>>(out, words, static_cast<float>(r));
        check(cudaEventRecord(end), "cudaEventRecord");
        check(cudaEventSynchronize(end), "cudaEventSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, begin, end), "cudaEventElapsedTime");
        kernel.push_back(ms * 1000.0f);
    }
    for (int r = 0; r < std::max(1, runs / 4); ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int level = 0; level < 22; ++level) {
            tick<<<1, 1>>>(counter);
            check(cudaMemcpy(readBack, counter, sizeof(unsigned), cudaMemcpyDeviceToHost), "read-back");
        }
        loop.push_back(std::chrono::duration<float, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    printSummary("write_64MiB", kernel);
    printSummary("host_loop_22", loop);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const char* role = argc > 1 ? argv[1] : "";
    if (std::strcmp(role, "start") == 0) return startLikeAProbe(flag(argc, argv, "--context"));
    if (std::strcmp(role, "time") == 0) return timeRuns(intArgument(argc, argv, "--runs", 2000));
    std::fprintf(stderr, "usage: starts_beside_timing start [--context] | time [--runs N]\n");
    return 2;
}
