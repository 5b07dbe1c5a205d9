// Which part of a host round trip moves from one moment to the next (issue
// 13's host-driven figures; docs/performance.md, "The host's round trip"). For
// SECONDS (default 20), in windows of 100 ms: round trips of a one-warp
// kernel's launch, a 4-byte copy into pinned memory and a stream wait, as
// the runner's probe makes them (host_round_trip.h) but each split into the
// launch call, the copy call and the wait (their medians); then a fixed
// arithmetic loop on the CPU alone; then the GPU's SM clock and throttle
// reasons as the grader reads them (gpu_state.h), which core ran the window
// and the machine's steal ticks. One tab-separated line a window, stamped
// with the wall clock. With "cpu CORE" it runs only the arithmetic loop, on
// that core, a window's median a line: several on other cores beside a
// round-trip trace show whether the cores slow down together. Not a test.
//   <build>/lab/round_trip_parts [SECONDS [cpu CORE]]
#include <cuda_runtime.h>
#include <sched.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "harness/bench.h"
#include "harness/gpu_state.h"
#include "harness/timing_stats.h"

namespace {

using Clock = std::chrono::steady_clock;

float microseconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<float, std::micro>(to - from).count();
}

float median(const std::vector<float>& v) { return v.empty() ? 0.0f : grading::summarize(v).medianMs; }

double wallSeconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

long long stealTicks() {
    std::ifstream stat("/proc/stat");
    std::string cpu;
    long long field[8] = {};
    stat >> cpu;
    for (long long& f : field) stat >> f;
    return field[7];
}

__global__ void bump(int* count) {
    if (threadIdx.x == 0) *count += 1;
}

struct RoundTripParts {
    float launchCall, copyCall, wait;
};

RoundTripParts roundTrip(int* device, int* host, cudaStream_t stream) {
    const auto a = Clock::now();
    bump<<<1, 32, 0, stream>>>(device);
    const auto b = Clock::now();
    cudaMemcpyAsync(host, device, sizeof(int), cudaMemcpyDeviceToHost, stream);
    const auto c = Clock::now();
    cudaStreamSynchronize(stream);
    return {microseconds(a, b), microseconds(b, c), microseconds(c, Clock::now())};
}

// Calls measureWindow(wall clock at its start) once per 100 ms window.
template <typename MeasureWindow>
void forEachWindow(double seconds, MeasureWindow measureWindow) {
    for (const auto start = Clock::now(); microseconds(start, Clock::now()) < seconds * 1e6;) {
        measureWindow(wallSeconds());
    }
}

bool inWindow(Clock::time_point windowStart) { return microseconds(windowStart, Clock::now()) < 100000; }

constexpr int kShortCpuLoop = 20000;    // many a window: a median per window
constexpr int kLongCpuLoop = 200000;    // once a window, after its round trips

}  // namespace

int main(int argc, char** argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 20;
    if (argc > 3 && std::string(argv[2]) == "cpu") {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(std::atoi(argv[3]), &one);
        sched_setaffinity(0, sizeof(one), &one);
        std::printf("wall_s\tcpu_loop_us\tcore\n");
        forEachWindow(seconds, [](double at) {
            std::vector<float> loops;
            for (const auto window = Clock::now(); inWindow(window);) {
                loops.push_back(grading::bench::cpuLoopMicros(kShortCpuLoop));
            }
            std::printf("%.2f\t%.1f\t%d\n", at, median(loops), sched_getcpu());
        });
        return 0;
    }
    cudaSetDeviceFlags(cudaDeviceScheduleSpin);  // as a runner's timed call waits
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    int* device = nullptr;
    int* host = nullptr;
    if (cudaMalloc(&device, sizeof(int)) != cudaSuccess || cudaHostAlloc(&host, sizeof(int), 0) != cudaSuccess) {
        std::fprintf(stderr, "no CUDA device to measure\n");
        return 1;
    }
    cudaMemset(device, 0, sizeof(int));
    for (int i = 0; i < 2000; ++i) roundTrip(device, host, stream);  // warm-up

    std::printf("wall_s\tround_trip_us\tlaunch_call_us\tcopy_call_us\twait_us\tcpu_loop_us\tsm_mhz\tthrottled\t"
                "core\tsteal_ticks\n");
    forEachWindow(seconds, [&](double at) {
        std::vector<float> whole, launch, copy, wait;
        const long long stealBefore = stealTicks();
        for (const auto window = Clock::now(); inWindow(window);) {
            const RoundTripParts parts = roundTrip(device, host, stream);
            whole.push_back(parts.launchCall + parts.copyCall + parts.wait);
            launch.push_back(parts.launchCall);
            copy.push_back(parts.copyCall);
            wait.push_back(parts.wait);
        }
        const float cpuLoop = grading::bench::cpuLoopMicros(kLongCpuLoop);
        const std::optional<grading::GpuState> gpu = grading::readGpuState("0");
        std::printf("%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.0f\t%u\t%s\t%d\t%lld\n", at, median(whole), median(launch),
                    median(copy), median(wait), cpuLoop, gpu ? gpu->smClockMHz : 0u,
                    gpu ? gpu->throttleText().c_str() : "no NVML", sched_getcpu(), stealTicks() - stealBefore);
    });
    return 0;
}
