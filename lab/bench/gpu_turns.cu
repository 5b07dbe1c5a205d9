// How many host-paced turns one GPU serves when processes share it: the
// cost model behind the suite's and a class's times (docs/performance.md,
// "Sharing one GPU"). One process, one CUDA context, for --seconds: a loop of
// 1-thread kernels submitted in one of three patterns, printing one line
//   <mode> <launches> <seconds>
// for lab/scripts/gpu-turns.sh, which starts N of these at once and sums them.
//
//   gpu_turns sync  --seconds S             launch, wait, launch, wait, ...
//   gpu_turns burst --seconds S --launches K   K launches back to back, one wait
//   gpu_turns paced --seconds S --launches K --gap-us G
//                                           K launches G us apart, one wait
//
// "paced" is launches with host work between them and no wait, as the
// course's host code makes between its read-backs: it tells whether a
// shared GPU charges per launch or per wait. All processes start their loops at --start-at (a
// CLOCK_REALTIME second), so their windows overlap.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <thread>

#include "harness/bench.h"

namespace {

using grading::bench::numberOption;

__global__ void tick(unsigned* counter) { atomicAdd(counter, 1u); }

void check(cudaError_t err, const char* what) {
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "gpu_turns: %s: %s\n", what, cudaGetErrorString(err));
    std::exit(1);
}

void spinFor(std::chrono::nanoseconds d) {
    const auto until = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < until) {
    }
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode != "sync" && mode != "burst" && mode != "paced") {
        std::fprintf(stderr,
                     "usage: gpu_turns sync|burst|paced [--seconds S] [--launches K] [--gap-us G] [--start-at T]\n");
        return 2;
    }
    const double seconds = numberOption(argc, argv, "--seconds", 3);
    const int launches = mode == "sync" ? 1 : static_cast<int>(numberOption(argc, argv, "--launches", 8));
    const auto gap = std::chrono::nanoseconds(static_cast<long long>(numberOption(argc, argv, "--gap-us", 20) * 1000));
    const double startAt = numberOption(argc, argv, "--start-at", 0);

    // The runner's waiting style outside timed calls: yield the core.
    check(cudaSetDeviceFlags(cudaDeviceScheduleYield), "cudaSetDeviceFlags");
    unsigned* counter = nullptr;
    check(cudaMalloc(&counter, sizeof(unsigned)), "cudaMalloc");
    tick<<<1, 1>>>(counter);  // the context and the module, before the window
    check(cudaDeviceSynchronize(), "warm-up");

    if (startAt > 0) {
        timespec now{};
        clock_gettime(CLOCK_REALTIME, &now);
        const double wait = startAt - (now.tv_sec + now.tv_nsec * 1e-9);
        if (wait > 0) std::this_thread::sleep_for(std::chrono::duration<double>(wait));
    }
    long long rounds = 0;
    const auto begin = std::chrono::steady_clock::now();
    const auto end = begin + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        for (int k = 0; k < launches; ++k) {
            if (mode == "paced" && k > 0) spinFor(gap);
            tick<<<1, 1>>>(counter);
        }
        check(cudaDeviceSynchronize(), "a round");
        ++rounds;
    }
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    unsigned done = 0;
    check(cudaMemcpy(&done, counter, sizeof done, cudaMemcpyDeviceToHost), "reading the count");
    if (done != 1 + rounds * launches) {
        std::fprintf(stderr, "gpu_turns: the device counted %u launches, the host made %lld\n", done,
                     1 + rounds * launches);
        return 1;
    }
    std::printf("%s %lld %.4f\n", mode.c_str(), rounds * launches, took);
    return 0;
}
