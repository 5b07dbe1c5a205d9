// fails: none
// passes: 52.diamond 52.stress 52.overlap
// A correct variant that queues the diamond from a table of steps, each a
// std::function run in order: the upstream and its fork, then every
// branch's wait before any branch's launch, then the launches and their
// records, then the join. Order between streams comes from the events alone,
// so queuing the waits early changes nothing. The std::function and
// std::vector instantiations are the file's own once sealed.
#include <functional>
#include <vector>

#include "forkjoin.h"
#include "harness/cuda_check.h"
#include "nvtx_range.h"

namespace day52 {

void enqueueDiamond(const Diamond& d) {
    std::vector<std::function<void()>> steps;
    steps.emplace_back([&d] {
        grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters);
        CUDA_TRY(cudaEventRecord(d.fork, d.s[0]));
    });
    for (int j = 0; j < kBranches; ++j) {
        steps.emplace_back([&d, j] { CUDA_TRY(cudaStreamWaitEvent(d.s[1 + j], d.fork, 0)); });
    }
    for (int j = 0; j < kBranches; ++j) {
        steps.emplace_back([&d, j] {
            grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[1 + j]>>>(d.d_mid, d.d_branch[j], kA, kBranchB[j],
                                                                        kElems, kIters);
            CUDA_TRY(cudaEventRecord(d.branchDone[j], d.s[1 + j]));
        });
    }
    steps.emplace_back([&d] {
        for (const cudaEvent_t branchDone : d.branchDone) CUDA_TRY(cudaStreamWaitEvent(d.s[0], branchDone, 0));
        sumFour<<<kSumBlocks, kThreadsPerBlock, 0, d.s[0]>>>(d.d_branch[0], d.d_branch[1], d.d_branch[2],
                                                             d.d_branch[3], d.d_out, kElems);
    });
    NvtxRange range("diamond");
    for (const std::function<void()>& step : steps) step();
}

}  // namespace day52
