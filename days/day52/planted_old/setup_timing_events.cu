// Planted bug (day 52) in the setup: the dependency events are created with
// plain cudaEventCreate, so they carry timestamps. Everything still runs
// right, only slower to wait on; cudaEventElapsedTime now succeeds on them.
// Must fail 52.no_timing with "expected cudaErrorInvalidResourceHandle, got
// cudaSuccess".
#include "forkjoin.h"
#include "harness/cuda_check.h"

namespace day52 {

void createDiamond(Diamond& d) {
    for (cudaStream_t& s : d.s) s = nullptr;
    d.fork = nullptr;
    for (cudaEvent_t& e : d.branchDone) e = nullptr;

    for (cudaStream_t& s : d.s) CUDA_TRY(cudaStreamCreate(&s));
    CUDA_TRY(cudaEventCreate(&d.fork));  // the flag is missing
    for (cudaEvent_t& e : d.branchDone) CUDA_TRY(cudaEventCreate(&e));
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
