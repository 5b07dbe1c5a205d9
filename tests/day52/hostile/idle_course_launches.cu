// fails: 52.diamond
// expect: grindFma into d_mid was given 0 elements, want kElems \(1048576\): each launch of the diamond does its whole buffer's work
// Hostile submission: launches the course's kernels in the course's shapes
// on the right streams, but given no elements, so the launch log shows the
// diamond the gate wants, while kernels of its own (the same arithmetic, any
// shape) do the work. The log records the elements each launch was given.
#include "forkjoin.h"
#include "harness/cuda_check.h"

namespace day52 {
namespace {

__global__ void ownGrind(const float* in, float* out, float a, float b, size_t n, int iters) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<size_t>(blockDim.x)) {
        float x = in[i];
        for (int k = 0; k < iters; ++k) x = fmaf(a, x, b);
        out[i] = x;
    }
}

__global__ void ownSum(const float* b0, const float* b1, const float* b2, const float* b3, float* out, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = b0[i] + b1[i] + b2[i] + b3[i];
}

// The course's kernel in the course's shape, for the log, then the work.
void grind(cudaStream_t s, const float* in, float* out, float b) {
    grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, s>>>(in, out, kA, b, 0, kIters);
    ownGrind<<<1024, 256, 0, s>>>(in, out, kA, b, kElems, kIters);
}

}  // namespace

void enqueueDiamond(const Diamond& d) {
    grind(d.s[0], d.d_in, d.d_mid, kUpstreamB);
    CUDA_TRY(cudaEventRecord(d.fork, d.s[0]));
    for (int j = 0; j < kBranches; ++j) {
        CUDA_TRY(cudaStreamWaitEvent(d.s[1 + j], d.fork, 0));
        grind(d.s[1 + j], d.d_mid, d.d_branch[j], kBranchB[j]);
        CUDA_TRY(cudaEventRecord(d.branchDone[j], d.s[1 + j]));
    }
    for (int j = 0; j < kBranches; ++j) CUDA_TRY(cudaStreamWaitEvent(d.s[0], d.branchDone[j], 0));
    sumFour<<<kSumBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_branch[0], d.d_branch[1], d.d_branch[2], d.d_branch[3],
                                                         d.d_out, 0);
    ownSum<<<kSumBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_branch[0], d.d_branch[1], d.d_branch[2], d.d_branch[3],
                                                        d.d_out, kElems);
}

}  // namespace day52
