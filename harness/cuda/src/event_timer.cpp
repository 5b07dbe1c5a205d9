#include "harness/event_timer.h"

#include <vector>

#include "harness/cuda_check.h"

namespace grading {

TimingStats timeRuns(const std::function<void()>& run, const std::string& what, int warmupRuns,
                     int timedRuns, cudaStream_t stream) {
    for (int i = 0; i < warmupRuns; ++i) run();
    checkLaunch(what + " (warm-up)");

    std::vector<cudaEvent_t> events(2 * static_cast<size_t>(timedRuns));
    for (cudaEvent_t& e : events) CUDA_TRY(cudaEventCreate(&e));
    std::vector<float> samples(timedRuns);
    try {
        for (int i = 0; i < timedRuns; ++i) {
            CUDA_TRY(cudaEventRecord(events[2 * i], stream));
            run();
            CUDA_TRY(cudaEventRecord(events[2 * i + 1], stream));
        }
        CUDA_TRY(cudaEventSynchronize(events.back()));
        checkLaunch(what + " (timed)");
        for (int i = 0; i < timedRuns; ++i) {
            CUDA_TRY(cudaEventElapsedTime(&samples[i], events[2 * i], events[2 * i + 1]));
        }
    } catch (...) {
        for (cudaEvent_t e : events) cudaEventDestroy(e);
        throw;
    }
    for (cudaEvent_t e : events) CUDA_TRY(cudaEventDestroy(e));
    return summarize(samples);
}

}  // namespace grading
