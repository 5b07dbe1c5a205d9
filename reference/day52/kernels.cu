// Day 52 course code: the two kernels, the serial version, the broken order,
// and the grading hooks (grading_hooks.h). The student's file launches these.
#include "forkjoin.h"
#include "grading_hooks.h"
#include "harness/cuda_check.h"
#include "nvtx_range.h"

namespace day52 {
namespace {

// Zero-initialised: nothing is held until the stress gate asks, nothing
// timed until the report asks.
__constant__ GrindHold c_hold;
__device__ LaunchLog g_launchLog;
__constant__ TimedOutputs c_timed;
__device__ Timeline g_timeline;

__device__ __forceinline__ unsigned long long globalTimerNs() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Holds the calling thread when its launch's output buffer is in the table.
__device__ void holdIfAsked(const float* out) {
    unsigned long long ns = 0;
    for (int k = 0; k < kMaxHeldOutputs; ++k) {
        if (c_hold.out[k] == out) ns = c_hold.ns[k];
    }
    if (ns == 0) return;
    // Bounded as well, so a timer that did not advance could not hang the
    // launch: each sleep lasts about a microsecond, the bound allows 4x that.
    const unsigned long long maxSleeps = 4 * (ns / 1000) + 1000;
    const unsigned long long start = globalTimerNs();
    for (unsigned long long k = 0; k < maxSleeps && globalTimerNs() - start < ns; ++k) __nanosleep(1000);
}

// One entry per launch, written by its first thread.
__device__ void logLaunch(const float* out, int kernel, size_t n) {
    if ((threadIdx.x | threadIdx.y | threadIdx.z | blockIdx.x | blockIdx.y | blockIdx.z) != 0) return;
    const unsigned int slot = atomicAdd(&g_launchLog.count, 1u);
    if (slot >= static_cast<unsigned int>(kMaxLoggedLaunches)) return;
    LoggedLaunch& e = g_launchLog.at[slot];
    e.out = out;
    e.kernel = kernel;
    e.blocks = static_cast<uint64_t>(gridDim.x) * gridDim.y * gridDim.z;
    e.threadsPerBlock = static_cast<uint64_t>(blockDim.x) * blockDim.y * blockDim.z;
    e.elements = n;
}

// The timeline's slot for a launch writing `out`, or -1: the same for every
// thread of a launch.
__device__ int timedSlot(const float* out) {
    for (int k = 0; k < kMaxTimedOutputs; ++k) {
        if (c_timed.out[k] != nullptr && c_timed.out[k] == out) return k;
    }
    return -1;
}

__device__ void markBlockStart(const float* out) {
    if ((threadIdx.x | threadIdx.y | threadIdx.z) != 0) return;
    const int k = timedSlot(out);
    if (k >= 0) atomicMin(&g_timeline.startNs[k], globalTimerNs());
}

// Every thread of the block calls it (the barrier), at the kernel's end.
__device__ void markBlockEnd(const float* out) {
    const int k = timedSlot(out);
    if (k < 0) return;
    __syncthreads();
    if ((threadIdx.x | threadIdx.y | threadIdx.z) == 0) atomicMax(&g_timeline.endNs[k], globalTimerNs());
}

}  // namespace

__global__ void grindFma(const float* __restrict__ in, float* __restrict__ out, float a, float b,
                         size_t n, int iters) {
    logLaunch(out, kLoggedGrindFma, n);
    markBlockStart(out);
    holdIfAsked(out);
    // Consecutive threads take consecutive elements: every load and store of
    // a warp is one contiguous 128-byte run.
    const size_t stride = gridDim.x * static_cast<size_t>(blockDim.x);
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
        float x = in[i];
        for (int k = 0; k < iters; ++k) x = fmaf(a, x, b);  // one rounding per step, as std::fmaf
        out[i] = x;
    }
    markBlockEnd(out);
}

__global__ void sumFour(const float* __restrict__ b0, const float* __restrict__ b1,
                        const float* __restrict__ b2, const float* __restrict__ b3,
                        float* __restrict__ out, size_t n) {
    logLaunch(out, kLoggedSumFour, n);
    markBlockStart(out);
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = b0[i] + b1[i] + b2[i] + b3[i];  // left to right, like the host reference
    markBlockEnd(out);
}

void setGrindHold(const GrindHold& hold) { CUDA_TRY(cudaMemcpyToSymbol(c_hold, &hold, sizeof(hold))); }

void clearGrindHold() { setGrindHold(GrindHold{}); }

GrindHold readGrindHold() {
    GrindHold hold{};
    CUDA_TRY(cudaMemcpyFromSymbol(&hold, c_hold, sizeof(hold)));
    return hold;
}

void watchTimeline(const TimedOutputs& outputs) {
    Timeline empty{};
    for (unsigned long long& s : empty.startNs) s = ~0ull;
    CUDA_TRY(cudaMemcpyToSymbol(g_timeline, &empty, sizeof(empty)));
    CUDA_TRY(cudaMemcpyToSymbol(c_timed, &outputs, sizeof(outputs)));
}

void stopTimeline() { watchTimeline(TimedOutputs{}); }

Timeline readTimeline() {
    Timeline t{};
    CUDA_TRY(cudaMemcpyFromSymbol(&t, g_timeline, sizeof(t)));
    return t;
}

void clearLaunchLog() {
    const unsigned int zero = 0;
    CUDA_TRY(cudaMemcpyToSymbol(g_launchLog, &zero, sizeof(zero)));  // count is the first member
}

LaunchLog readLaunchLog() {
    LaunchLog log{};
    CUDA_TRY(cudaMemcpyFromSymbol(&log, g_launchLog, sizeof(log)));
    return log;
}

void enqueueSerial(const Diamond& d) {
    NvtxRange range("serial");
    grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters);
    for (int j = 0; j < kBranches; ++j) {
        grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_mid, d.d_branch[j], kA, kBranchB[j], kElems,
                                                                kIters);
    }
    sumFour<<<kSumBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_branch[0], d.d_branch[1], d.d_branch[2],
                                                         d.d_branch[3], d.d_out, kElems);
}

void enqueueBroken(const Diamond& d, cudaEvent_t forkTooEarly) {
    NvtxRange range("broken-order");
    // Recorded while s[0] holds nothing of this diamond: waiting on it waits
    // for nothing, and no call below reports an error.
    CUDA_TRY(cudaEventRecord(forkTooEarly, d.s[0]));
    grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters);
    for (int j = 0; j < kBranches; ++j) {
        CUDA_TRY(cudaStreamWaitEvent(d.s[1 + j], forkTooEarly, 0));
        grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[1 + j]>>>(d.d_mid, d.d_branch[j], kA, kBranchB[j],
                                                                    kElems, kIters);
        CUDA_TRY(cudaEventRecord(d.branchDone[j], d.s[1 + j]));
    }
    for (int j = 0; j < kBranches; ++j) CUDA_TRY(cudaStreamWaitEvent(d.s[0], d.branchDone[j], 0));
    sumFour<<<kSumBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_branch[0], d.d_branch[1], d.d_branch[2],
                                                         d.d_branch[3], d.d_out, kElems);
}

}  // namespace day52
