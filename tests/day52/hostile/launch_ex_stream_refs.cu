// fails: none
// passes: 52.diamond 52.stress 52.overlap
// A correct variant through libcu++ and the extended launch API: the five
// streams as cuda::stream_ref, every launch a cudaLaunchKernelEx with its own
// cudaLaunchConfig_t, events recorded with cudaEventRecordWithFlags, and the
// checks through a pointer to grading::cudaTry (an out-of-line copy of the
// course's check in this file).
#include <cuda/std/array>
#include <cuda/stream_ref>

#include "forkjoin.h"
#include "harness/cuda_check.h"

namespace day52 {
namespace {

void (*volatile const check)(cudaError_t, const char*, const char*, int) = &grading::cudaTry;
#define CHECK(call) check((call), #call, __FILE__, __LINE__)

cudaLaunchConfig_t on(cuda::stream_ref stream, int blocks) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(kThreadsPerBlock);
    config.stream = stream.get();
    return config;
}

}  // namespace

void enqueueDiamond(const Diamond& d) {
    const cuda::stream_ref trunk(d.s[0]);
    cuda::std::array<cuda::stream_ref, kBranches> branch = {cuda::stream_ref(d.s[1]), cuda::stream_ref(d.s[2]),
                                                            cuda::stream_ref(d.s[3]), cuda::stream_ref(d.s[4])};
    cudaLaunchConfig_t config = on(trunk, kGrindBlocks);
    CHECK(cudaLaunchKernelEx(&config, grindFma, d.d_in, d.d_mid, kA, kUpstreamB, kElems, kIters));
    CHECK(cudaEventRecordWithFlags(d.fork, trunk.get(), cudaEventRecordDefault));
    for (int j = 0; j < kBranches; ++j) {
        CHECK(cudaStreamWaitEvent(branch[j].get(), d.fork, cudaEventWaitDefault));
        config = on(branch[j], kGrindBlocks);
        CHECK(cudaLaunchKernelEx(&config, grindFma, static_cast<const float*>(d.d_mid), d.d_branch[j], kA,
                                 kBranchB[j], kElems, kIters));
        CHECK(cudaEventRecordWithFlags(d.branchDone[j], branch[j].get(), cudaEventRecordDefault));
    }
    for (int j = 0; j < kBranches; ++j) CHECK(cudaStreamWaitEvent(trunk.get(), d.branchDone[j], cudaEventWaitDefault));
    config = on(trunk, kSumBlocks);
    CHECK(cudaLaunchKernelEx(&config, sumFour, static_cast<const float*>(d.d_branch[0]),
                             static_cast<const float*>(d.d_branch[1]), static_cast<const float*>(d.d_branch[2]),
                             static_cast<const float*>(d.d_branch[3]), d.d_out, kElems));
}

}  // namespace day52
