// fails: none
// passes: msw.index msw.empty@two_phase
// A correct variant, written unlike the solution: the leftmost survivor is
// found with warp shuffles (each warp's minimum, then the first warp's over
// the block's warps), a block reports once, and the grid's last block to
// report clears the rest; par_get_section_diff reduces in the block and
// reports one atomicMin per block.
#include "msw.cuh"
#include "msw_math.h"

namespace {

constexpr unsigned long long kNone = ~0ull;
constexpr int kMaxWarps = 32;

__device__ unsigned long long gridFirst = kNone;
__device__ unsigned int blocksReported = 0;

__device__ unsigned long long warpMin(unsigned long long v) {
    for (int offset = 16; offset > 0; offset /= 2) v = min(v, __shfl_down_sync(0xffffffffu, v, offset));
    return v;
}

// The block's minimum of v, on every thread.
__device__ unsigned long long blockMin(unsigned long long v) {
    __shared__ unsigned long long perWarp[kMaxWarps];
    __shared__ unsigned long long result;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warpMin(v);
    if (lane == 0) perWarp[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const int warps = (blockDim.x + 31) / 32;
        unsigned long long w = lane < warps ? perWarp[lane] : kNone;
        w = warpMin(w);
        if (lane == 0) result = w;
    }
    __syncthreads();
    return result;
}

}  // namespace

__global__ void par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n) {
    const size_t c = msw::chunk_size(n);
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        const bool differs = (p1[i] ^ p2[i]) != 0;
        p2[i] = differs;
        if (differs) sig_out[i / c] = 1;
    }
}

__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    __shared__ bool last;
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    unsigned long long first = kNone;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        if (p[i] == 0) continue;
        if (first == kNone) first = i;
        else p[i] = 0;  // a thread's later indices are never the leftmost
    }
    const unsigned long long mine = blockMin(first);
    if (first != kNone && first != mine) p[first] = 0;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
        if (mine != kNone) atomicMin(&gridFirst, mine);
        __threadfence();
        last = atomicAdd(&blocksReported, 1u) + 1 == gridDim.x;
    }
    __syncthreads();
    if (!last) return;
    const unsigned long long keep = *static_cast<volatile unsigned long long*>(&gridFirst);
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
        if (i != keep && p[i] != 0) p[i] = 0;
    }
    __syncthreads();
    if (threadIdx.x == 0) {  // as found: the next launch starts afresh
        gridFirst = kNone;
        blocksReported = 0;
    }
}

__global__ void par_get_section_diff(uintmax_t* tree, uintmax_t* section, size_t n) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    unsigned long long first = kNone;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n && first == kNone; i += stride) {
        if (tree[i] != 0) first = i;
    }
    const unsigned long long block = blockMin(first);
    if (threadIdx.x == 0 && block != kNone) atomicMin(reinterpret_cast<unsigned long long*>(section), block);
}
