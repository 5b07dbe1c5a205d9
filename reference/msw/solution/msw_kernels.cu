// The reference kernels of the two-phase search (contracts in msw.cuh).
//
// naive_leftmost_prisoner keeps the course's name and signature but not its
// method: the course compared all n-choose-2 pairs (O(n^2) work). This one
// reads each element at most twice, O(n) work: every thread keeps its own
// first non-zero element, the block keeps its first, and the last block to
// finish clears every survivor but the grid's first. It works for any 1-D
// grid; the grid-wide answer lives in two device globals that the last block
// resets, so consecutive launches on one stream need no host-side reset.
#include "msw.cuh"
#include "msw_math.h"

namespace {

constexpr unsigned long long kNone = ~0ull;

__device__ unsigned long long leftmostFound = kNone;  // min over the blocks' first non-zero index
__device__ unsigned int leftmostBlocksDone = 0;

__device__ __forceinline__ size_t globalThread() {
    return static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ size_t threadCount() { return static_cast<size_t>(gridDim.x) * blockDim.x; }

}  // namespace

__global__ void par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n) {
    const size_t chunk = msw::chunk_size(n);
    for (size_t i = globalThread(); i < n; i += threadCount()) {
        const uintmax_t differs = p1[i] != p2[i] ? 1 : 0;
        p2[i] = differs;
        if (differs) sig_out[i / chunk] = 1;  // racing writers all store the same 1
    }
}

__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    __shared__ unsigned long long blockFirst;
    __shared__ unsigned long long winner;
    __shared__ bool lastBlock;
    if (threadIdx.x == 0) blockFirst = kNone;
    __syncthreads();

    // A thread's indices increase, so its first non-zero element is to the
    // left of all its others: those can go at once.
    unsigned long long mine = kNone;
    for (size_t i = globalThread(); i < n; i += threadCount()) {
        if (p[i] != 0) {
            if (mine == kNone) {
                mine = i;
            } else {
                p[i] = 0;
            }
        }
    }
    if (mine != kNone) atomicMin(&blockFirst, mine);
    __syncthreads();
    if (mine != kNone && mine != blockFirst) p[mine] = 0;
    __threadfence();  // this thread's clears reach the device before the block reports
    __syncthreads();

    if (threadIdx.x == 0) {
        if (blockFirst != kNone) atomicMin(&leftmostFound, blockFirst);
        __threadfence();
        lastBlock = atomicAdd(&leftmostBlocksDone, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!lastBlock) return;

    // Every block has reported: the grid's first is known. At most one
    // survivor per block remains besides it.
    if (threadIdx.x == 0) winner = atomicExch(&leftmostFound, kNone);  // read, and reset for the next launch
    __syncthreads();
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
        if (i != winner && p[i] != 0) p[i] = 0;
    }
    if (threadIdx.x == 0) leftmostBlocksDone = 0;
}

__global__ void par_get_section_diff(uintmax_t* tree, uintmax_t* section, size_t n) {
    // After the elimination one element is non-zero; atomicMin keeps the
    // answer right even if several were.
    for (size_t i = globalThread(); i < n; i += threadCount()) {
        if (tree[i] != 0) atomicMin(reinterpret_cast<unsigned long long*>(section), static_cast<unsigned long long>(i));
    }
}
