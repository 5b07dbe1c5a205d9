// fails: none
// passes: 52.diamond 52.stress 52.overlap
// A correct variant, written unlike the solution: every call captures its
// own diamond into a CUDA graph (the fork and join as the graph's edges),
// launches it on s[0] and lets it go. Nothing is kept between calls, so
// fresh buffers each call are no trouble.
#include "forkjoin.h"
#include "harness/cuda_check.h"

namespace day52 {

void enqueueDiamond(const Diamond& d) {
    cudaGraph_t graph = nullptr;
    CUDA_TRY(cudaStreamBeginCapture(d.s[0], cudaStreamCaptureModeThreadLocal));
    grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters);
    CUDA_TRY(cudaEventRecord(d.fork, d.s[0]));
    for (int j = 0; j < kBranches; ++j) {
        cudaStream_t s = d.s[1 + j];
        CUDA_TRY(cudaStreamWaitEvent(s, d.fork, 0));
        grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, s>>>(d.d_mid, d.d_branch[j], kA, kBranchB[j], kElems, kIters);
        CUDA_TRY(cudaEventRecord(d.branchDone[j], s));
        CUDA_TRY(cudaStreamWaitEvent(d.s[0], d.branchDone[j], 0));
    }
    sumFour<<<kSumBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_branch[0], d.d_branch[1], d.d_branch[2], d.d_branch[3],
                                                         d.d_out, kElems);
    CUDA_TRY(cudaStreamEndCapture(d.s[0], &graph));
    cudaGraphExec_t exec = nullptr;
    CUDA_TRY(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_TRY(cudaGraphLaunch(exec, d.s[0]));
    // Destroying a launched graph is allowed: the launch finishes first.
    CUDA_TRY(cudaGraphExecDestroy(exec));
    CUDA_TRY(cudaGraphDestroy(graph));
}

}  // namespace day52
