// How long a killed process's kernel keeps the GPU (lab/scripts/kill-teardown.sh):
// a runner killed at its time limit gives its GPU slot back once the grader
// has reaped the sandbox's outer process and waited for the processes below
// it; a kernel outliving that would share the GPU with the next timed call.
//   kill_teardown spin SECONDS   launch one kernel that spins for SECONDS,
//                                print "launched", wait on it
//   kill_teardown probe SECONDS  for SECONDS, time a 100 us kernel over and
//                                over; print "<ms since start> <us it took>"
//                                for each, the start as CLOCK_REALTIME seconds first
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace {

__global__ void spinCycles(long long cycles, int* sink) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (sink != nullptr) *sink = 1;
}

long long cyclesPerSecond() {
    int khz = 0;
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
    return static_cast<long long>(khz) * 1000;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3 || (std::strcmp(argv[1], "spin") != 0 && std::strcmp(argv[1], "probe") != 0)) {
        std::fprintf(stderr, "kill_teardown spin SECONDS | probe SECONDS\n");
        return 2;
    }
    const double seconds = std::atof(argv[2]);
    int* sink = nullptr;
    if (cudaMalloc(&sink, sizeof(int)) != cudaSuccess) {
        std::printf("no context: %s\n", cudaGetErrorName(cudaGetLastError()));
        return 1;
    }
    const long long perSecond = cyclesPerSecond();
    if (std::strcmp(argv[1], "spin") == 0) {
        spinCycles<<<1, 1>>>(static_cast<long long>(seconds * perSecond), sink);
        std::printf("launched\n");
        std::fflush(stdout);
        std::printf("wait: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        return 0;
    }
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    std::printf("start %ld.%09ld\n", static_cast<long>(now.tv_sec), now.tv_nsec);
    const auto start = std::chrono::steady_clock::now();
    const auto since = [&](std::chrono::steady_clock::time_point t) {
        return std::chrono::duration<double>(t - start).count();
    };
    while (since(std::chrono::steady_clock::now()) < seconds) {
        const auto before = std::chrono::steady_clock::now();
        spinCycles<<<1, 1>>>(perSecond / 10000, sink);  // 100 us
        const cudaError_t e = cudaDeviceSynchronize();
        const auto after = std::chrono::steady_clock::now();
        if (e != cudaSuccess) {
            std::printf("error %s\n", cudaGetErrorName(e));
            return 1;
        }
        std::printf("%.1f %.0f\n", since(before) * 1e3, (since(after) - since(before)) * 1e6);
    }
    return 0;
}
