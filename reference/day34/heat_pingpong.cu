// The course's ping-pong: both buffers initialised, kernels swap roles each
// step, and the grid visits the host only as often as the policy says.
#include <utility>

#include "harness/cuda_check.h"
#include "heat_pingpong.h"

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
    CUDA_TRY(cudaMemcpy(b, hostInit, bytes, cudaMemcpyHostToDevice));
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
            CUDA_TRY(cudaMemcpy(hostSnapshot, cur, bytes, cudaMemcpyDeviceToHost));
        }
    }
    CUDA_TRY(cudaEventRecord(events.stop));
    CUDA_TRY(cudaEventSynchronize(events.stop));
    float ms = 0.0f;
    CUDA_TRY(cudaEventElapsedTime(&ms, events.start, events.stop));
    return ms;
}

}  // namespace day34
