// Day 52 instructor solution: the fork-join diamond. Each call only queues work;
// the order between streams comes from the two event calls, not from the
// order of the calls in this function.
#include "forkjoin.h"
#include "harness/cuda_check.h"
#include "nvtx_range.h"

namespace day52 {

void enqueueDiamond(const Diamond& d) {
    {
        NvtxRange range("upstream");
        grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters);
        // After the launch: the event stands for "s[0] has done the upstream".
        CUDA_TRY(cudaEventRecord(d.fork, d.s[0]));
    }
    {
        NvtxRange range("fork");
        for (int j = 0; j < kBranches; ++j) {
            CUDA_TRY(cudaStreamWaitEvent(d.s[1 + j], d.fork, 0));
            grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[1 + j]>>>(d.d_mid, d.d_branch[j], kA, kBranchB[j],
                                                                        kElems, kIters);
            CUDA_TRY(cudaEventRecord(d.branchDone[j], d.s[1 + j]));
        }
    }
    {
        NvtxRange range("join");
        for (int j = 0; j < kBranches; ++j) CUDA_TRY(cudaStreamWaitEvent(d.s[0], d.branchDone[j], 0));
        sumFour<<<kSumBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_branch[0], d.d_branch[1], d.d_branch[2],
                                                             d.d_branch[3], d.d_out, kElems);
    }
}

}  // namespace day52
