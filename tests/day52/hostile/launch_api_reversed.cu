// fails: none
// passes: 52.diamond 52.stress 52.overlap
// A correct variant, written unlike the solution: every launch through
// cudaLaunchKernel, the branches queued last to first and the join's waits
// likewise (a wait stands for the event's latest record at the time it is
// queued, so each is queued after its branch's record).
#include "forkjoin.h"
#include "harness/cuda_check.h"

namespace day52 {
namespace {

void launchGrind(cudaStream_t s, const float* in, float* out, float b) {
    float a = kA;
    size_t n = kElems;
    int iters = kIters;
    void* args[] = {&in, &out, &a, &b, &n, &iters};
    CUDA_TRY(cudaLaunchKernel(reinterpret_cast<const void*>(&grindFma), dim3(kGrindBlocks), dim3(kThreadsPerBlock),
                              args, 0, s));
}

}  // namespace

void enqueueDiamond(const Diamond& d) {
    launchGrind(d.s[0], d.d_in, d.d_mid, kUpstreamB);
    CUDA_TRY(cudaEventRecord(d.fork, d.s[0]));
    for (int j = kBranches - 1; j >= 0; --j) {
        CUDA_TRY(cudaStreamWaitEvent(d.s[1 + j], d.fork, 0));
        launchGrind(d.s[1 + j], d.d_mid, d.d_branch[j], kBranchB[j]);
        CUDA_TRY(cudaEventRecord(d.branchDone[j], d.s[1 + j]));
    }
    for (int j = kBranches - 1; j >= 0; --j) CUDA_TRY(cudaStreamWaitEvent(d.s[0], d.branchDone[j], 0));
    const float* b0 = d.d_branch[0];
    const float* b1 = d.d_branch[1];
    const float* b2 = d.d_branch[2];
    const float* b3 = d.d_branch[3];
    float* out = d.d_out;
    size_t n = kElems;
    void* args[] = {&b0, &b1, &b2, &b3, &out, &n};
    CUDA_TRY(cudaLaunchKernel(reinterpret_cast<const void*>(&sumFour), dim3(kSumBlocks), dim3(kThreadsPerBlock), args, 0,
                              d.s[0]));
}

}  // namespace day52
