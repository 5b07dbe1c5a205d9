// Planted bugs (day 34) in the ping-pong setup, one per build:
//  PLANT_ONE_BUFFER        uploads the initial grid into the first buffer only.
//                          The kernels never write the ring, so the second
//                          buffer's ring keeps whatever the allocation held
//                          (the runner's guard pattern) and every other step
//                          reads a wrong wall. Must fail 34.ring, naming the
//                          cell of the grid one step before the last.
//  PLANT_COPY_BACK_WRITES  the copy-back has its arguments the wrong way round:
//                          it uploads the (stale) host snapshot over the live
//                          device grid instead of downloading it. Must fail
//                          34.copy_policy: never-copied and copied runs differ.
#include <utility>

#include "harness/cuda_check.h"
#include "heat_pingpong.h"

#if !defined(PLANT_ONE_BUFFER) && !defined(PLANT_COPY_BACK_WRITES)
#error "define the bug to plant"
#endif

namespace day34 {
namespace {

struct EventPair {
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    EventPair() {
        CUDA_TRY(cudaEventCreate(&start));
        try {
            CUDA_TRY(cudaEventCreate(&stop));
        } catch (...) {
            cudaEventDestroy(start);
            throw;
        }
    }
    ~EventPair() {
        cudaEventDestroy(stop);
        cudaEventDestroy(start);
    }
    EventPair(const EventPair&) = delete;
    EventPair& operator=(const EventPair&) = delete;
};

}  // namespace

void resetPingPong(float* a, float* b, const float* hostInit, size_t cells) {
    const size_t bytes = cells * sizeof(float);
    CUDA_TRY(cudaMemcpy(a, hostInit, bytes, cudaMemcpyHostToDevice));
#if defined(PLANT_ONE_BUFFER)
    (void)b;  // "the kernel writes b anyway"
#else
    CUDA_TRY(cudaMemcpy(b, hostInit, bytes, cudaMemcpyHostToDevice));
#endif
}

float runSteps(StepLauncher launch, float* a, float* b, int n, float r, int steps, int copyEvery,
               float* hostSnapshot) {
    const size_t bytes = static_cast<size_t>(n) * static_cast<size_t>(n) * sizeof(float);
    EventPair events;
    float* cur = a;
    float* next = b;
    CUDA_TRY(cudaEventRecord(events.start));
    for (int step = 1; step <= steps; ++step) {
        launch(cur, next, n, r);
        std::swap(cur, next);
        if (copyEvery > 0 && step % copyEvery == 0) {
#if defined(PLANT_COPY_BACK_WRITES)
            CUDA_TRY(cudaMemcpy(cur, hostSnapshot, bytes, cudaMemcpyHostToDevice));
#else
            CUDA_TRY(cudaMemcpy(hostSnapshot, cur, bytes, cudaMemcpyDeviceToHost));
#endif
        }
    }
    CUDA_TRY(cudaEventRecord(events.stop));
    CUDA_TRY(cudaEventSynchronize(events.stop));
    float ms = 0.0f;
    CUDA_TRY(cudaEventElapsedTime(&ms, events.start, events.stop));
    return ms;
}

}  // namespace day34
