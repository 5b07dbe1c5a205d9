#include "harness/event_timer.h"

#include <vector>

#include "harness/cuda_check.h"
#include "harness/runner_main.h"

namespace grading {
namespace {

// Clears the L2 before each timed run, so no run starts with the last one's
// data already cached: the persisting lines reset once, then twice the L2's
// size written before every run. Enqueued on the run's stream ahead of its start event, so the
// clearing is never part of a time.
class L2Clear {
public:
    explicit L2Clear(cudaStream_t stream) : stream_(stream) {
        int device = 0;
        int l2Bytes = 0;
        CUDA_TRY(cudaGetDevice(&device));
        CUDA_TRY(cudaDeviceGetAttribute(&l2Bytes, cudaDevAttrL2CacheSize, device));
        bytes_ = 2 * static_cast<size_t>(l2Bytes);
        if (bytes_ > 0) CUDA_TRY(cudaMalloc(&scratch_, bytes_));
        // Made right after a checked warm-up, so an error here is this call's
        // own (no persisting L2 on this GPU or context) and can be dropped.
        if (cudaCtxResetPersistingL2Cache() != cudaSuccess) (void)cudaGetLastError();
    }
    ~L2Clear() {
        if (scratch_ != nullptr) cudaFree(scratch_);
    }
    L2Clear(const L2Clear&) = delete;
    L2Clear& operator=(const L2Clear&) = delete;

    void operator()() {
        if (scratch_ != nullptr) CUDA_TRY(cudaMemsetAsync(scratch_, ++fill_, bytes_, stream_));
    }

private:
    cudaStream_t stream_;
    void* scratch_ = nullptr;
    size_t bytes_ = 0;
    unsigned char fill_ = 0;
};

}  // namespace

TimingStats timeRuns(const std::function<void()>& run, const std::string& what, int warmupRuns, int timedRuns,
                     cudaStream_t stream, const TimedRunHooks& hooks) {
    const TimedSection measuring;  // the warm-ups too: they ramp the clocks the timed runs see
    for (int i = 0; i < warmupRuns; ++i) {
        run();
        if (hooks.afterWarmup) hooks.afterWarmup();
    }
    checkLaunch(what + " (warm-up)");

    std::vector<cudaEvent_t> events(2 * static_cast<size_t>(timedRuns));
    for (cudaEvent_t& e : events) CUDA_TRY(cudaEventCreate(&e));
    std::vector<float> samples(timedRuns);
    try {
        L2Clear clearL2(stream);
        for (int i = 0; i < timedRuns; ++i) {
            if (hooks.before) hooks.before(i);
            clearL2();
            CUDA_TRY(cudaEventRecord(events[2 * i], stream));
            run();
            CUDA_TRY(cudaEventRecord(events[2 * i + 1], stream));
            if (hooks.after) hooks.after(i);
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

TimingStats timeRuns(const std::function<void()>& run, const std::string& what, int warmupRuns,
                     int timedRuns, cudaStream_t stream, const std::function<void()>& afterEachRun) {
    TimedRunHooks hooks;
    if (afterEachRun) {
        hooks.afterWarmup = afterEachRun;
        hooks.after = [&afterEachRun](int) { afterEachRun(); };
    }
    return timeRuns(run, what, warmupRuns, timedRuns, stream, hooks);
}

}  // namespace grading
