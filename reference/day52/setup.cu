// Day 52 course setup: the five streams and the dependency events.
//
// The streams are non-blocking: the legacy default stream (where the
// runner's own copies and fills go) never orders them implicitly, so the
// exercise's claim holds for them: nothing orders work on different streams
// except events. The events are created with cudaEventDisableTiming: they
// only order work, and the flag is the documented fast path for
// cudaStreamWaitEvent. The price: cudaEventElapsedTime refuses them.
#include "forkjoin.h"
#include "harness/cuda_check.h"

namespace day52 {

void createDiamond(Diamond& d) {
    for (cudaStream_t& s : d.s) s = nullptr;
    d.fork = nullptr;
    for (cudaEvent_t& e : d.branchDone) e = nullptr;

    for (cudaStream_t& s : d.s) CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_TRY(cudaEventCreateWithFlags(&d.fork, cudaEventDisableTiming));
    for (cudaEvent_t& e : d.branchDone) CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
}

cudaError_t destroyDiamond(Diamond& d) {
    cudaError_t first = cudaSuccess;
    const auto keep = [&first](cudaError_t e) {
        if (first == cudaSuccess) first = e;
    };
    if (d.fork != nullptr) keep(cudaEventDestroy(d.fork));
    d.fork = nullptr;
    for (cudaEvent_t& e : d.branchDone) {
        if (e != nullptr) keep(cudaEventDestroy(e));
        e = nullptr;
    }
    for (cudaStream_t& s : d.s) {
        if (s != nullptr) keep(cudaStreamDestroy(s));
        s = nullptr;
    }
    return first;
}

}  // namespace day52
