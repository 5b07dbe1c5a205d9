// Planted bugs (day 52) in the student's enqueueDiamond, one per build:
//  PLANT_RECORD_BEFORE_UPSTREAM  the course's broken order: the fork is
//                                recorded before the upstream launch, so it
//                                stands for nothing and the branches race the
//                                upstream. Must fail 52.stress on every run.
//  PLANT_JOIN_FORGETS_BRANCH     the join waits for branches 0..2 only (an
//                                off-by-one in the loop bound). Must fail
//                                52.stress in every run that holds branch 3.
//  PLANT_ALL_ON_STREAM0          the branch launches name s[0]: the events
//                                are all there, the answer is right, nothing
//                                overlaps. Must fail 52.overlap (>= 24 SMs)
//                                and pass 52.diamond and 52.stress.
#include "forkjoin.h"
#include "harness/cuda_check.h"
#include "nvtx_range.h"

namespace day52 {

void enqueueDiamond(const Diamond& d) {
    {
        NvtxRange range("upstream");
#if defined(PLANT_RECORD_BEFORE_UPSTREAM)
        CUDA_TRY(cudaEventRecord(d.fork, d.s[0]));  // too early: s[0] holds nothing yet
        grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters);
#else
        grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters);
        CUDA_TRY(cudaEventRecord(d.fork, d.s[0]));
#endif
    }
    {
        NvtxRange range("fork");
        for (int j = 0; j < kBranches; ++j) {
            CUDA_TRY(cudaStreamWaitEvent(d.s[1 + j], d.fork, 0));
#if defined(PLANT_ALL_ON_STREAM0)
            const cudaStream_t branchStream = d.s[0];
#else
            const cudaStream_t branchStream = d.s[1 + j];
#endif
            grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, branchStream>>>(d.d_mid, d.d_branch[j], kA, kBranchB[j],
                                                                          kElems, kIters);
            CUDA_TRY(cudaEventRecord(d.branchDone[j], d.s[1 + j]));
        }
    }
    {
        NvtxRange range("join");
#if defined(PLANT_JOIN_FORGETS_BRANCH)
        for (int j = 0; j < kBranches - 1; ++j) CUDA_TRY(cudaStreamWaitEvent(d.s[0], d.branchDone[j], 0));
#else
        for (int j = 0; j < kBranches; ++j) CUDA_TRY(cudaStreamWaitEvent(d.s[0], d.branchDone[j], 0));
#endif
        sumFour<<<kSumBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_branch[0], d.d_branch[1], d.d_branch[2],
                                                             d.d_branch[3], d.d_out, kElems);
    }
}

}  // namespace day52

#if !defined(PLANT_RECORD_BEFORE_UPSTREAM) && !defined(PLANT_JOIN_FORGETS_BRANCH) && !defined(PLANT_ALL_ON_STREAM0)
#error "define the bug to plant"
#endif
