// fails: none
// passes: msw.index msw.empty@two_phase
// A correct variant with CUB's block-level primitives: each block's first
// survivor and first flag come from cub::BlockReduce with cuda::minimum over the
// course's 256-thread blocks (msw.cu's launches), phase 1 reads p1 through
// cub::ThreadLoad's read-only cache, and the grid's last block to report
// clears every survivor but the grid's first, then leaves its own state as
// the launch found it.
#include <cub/block/block_reduce.cuh>
#include <cub/thread/thread_load.cuh>
#include <cuda/functional>

#include "msw.cuh"
#include "msw_math.h"

namespace {

constexpr int kThreads = 256;  // msw.cu launches every kernel with blocks of 256
constexpr unsigned long long kNone = ~0ull;
using BlockMin = cub::BlockReduce<unsigned long long, kThreads>;

__device__ unsigned long long firstOfGrid = kNone;
__device__ unsigned int blocksDone = 0;

// The block's minimum of v, on every thread.
__device__ unsigned long long blockMin(unsigned long long v) {
    __shared__ BlockMin::TempStorage storage;
    __shared__ unsigned long long result;
    if (blockDim.x != kThreads) __trap();  // BlockReduce is sized for the course's blocks
    const unsigned long long least = BlockMin(storage).Reduce(v, cuda::minimum<>{});
    if (threadIdx.x == 0) result = least;
    __syncthreads();
    return result;
}

__device__ size_t firstThread() { return static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ size_t gridThreads() { return static_cast<size_t>(gridDim.x) * blockDim.x; }

}  // namespace

__global__ void par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n) {
    const size_t chunk = msw::chunk_size(n);
    for (size_t i = firstThread(); i < n; i += gridThreads()) {
        const bool differs = cub::ThreadLoad<cub::LOAD_LDG>(p1 + i) != p2[i];
        p2[i] = differs ? 1 : 0;
        if (differs) sig_out[i / chunk] = 1;
    }
}

__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    __shared__ bool lastBlock;
    unsigned long long mine = kNone;
    for (size_t i = firstThread(); i < n; i += gridThreads()) {
        if (p[i] == 0) continue;
        if (mine == kNone) mine = i;
        else p[i] = 0;  // right of this thread's own first
    }
    const unsigned long long blockFirst = blockMin(mine);
    if (mine != kNone && mine != blockFirst) p[mine] = 0;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
        if (blockFirst != kNone) atomicMin(&firstOfGrid, blockFirst);
        __threadfence();
        lastBlock = atomicAdd(&blocksDone, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!lastBlock) return;
    const unsigned long long keep = atomicAdd(&firstOfGrid, 0ull);
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
        if (i != keep && p[i] != 0) p[i] = 0;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        firstOfGrid = kNone;
        blocksDone = 0;
    }
}

__global__ void par_get_section_diff(uintmax_t* tree, uintmax_t* section, size_t n) {
    unsigned long long first = kNone;
    for (size_t i = firstThread(); i < n && first == kNone; i += gridThreads()) {
        if (tree[i] != 0) first = i;
    }
    const unsigned long long blockFirst = blockMin(first);
    if (threadIdx.x == 0 && blockFirst != kNone) atomicMin(reinterpret_cast<unsigned long long*>(section), blockFirst);
}
