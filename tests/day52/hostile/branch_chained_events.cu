// fails: none
// passes: 52.diamond 52.stress 52.overlap
// A correct variant, written unlike the solution: each branch waits for the
// fork as soon as it is recorded, the branches launch in one loop and the
// join's four waits in another, each through a small helper; the join's
// dependency on all four branches is stated once per branch.
#include "forkjoin.h"
#include "harness/cuda_check.h"

namespace day52 {
namespace {

void after(cudaStream_t waiter, cudaEvent_t done) { CUDA_TRY(cudaStreamWaitEvent(waiter, done, 0)); }

void mark(cudaEvent_t e, cudaStream_t s) { CUDA_TRY(cudaEventRecord(e, s)); }

}  // namespace

void enqueueDiamond(const Diamond& d) {
    cudaStream_t upstream = d.s[0];
    grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, upstream>>>(d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters);
    mark(d.fork, upstream);
    for (int j = 0; j < kBranches; ++j) after(d.s[1 + j], d.fork);
    for (int j = 0; j < kBranches; ++j) {
        grindFma<<<kGrindBlocks, kThreadsPerBlock, 0, d.s[1 + j]>>>(d.d_mid, d.d_branch[j], kA, kBranchB[j], kElems,
                                                                    kIters);
        mark(d.branchDone[j], d.s[1 + j]);
    }
    for (const cudaEvent_t done : d.branchDone) after(upstream, done);
    sumFour<<<kSumBlocks, kThreadsPerBlock, 0, upstream>>>(d.d_branch[0], d.d_branch[1], d.d_branch[2], d.d_branch[3],
                                                           d.d_out, kElems);
}

}  // namespace day52
