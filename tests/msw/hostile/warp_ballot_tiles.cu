// fails: none
// passes: msw.index msw.empty@two_phase
// A correct variant, written unlike the solution: warps walk the words in
// tiles of 32 consecutive words, and a ballot says which lanes hold a
// non-zero word, so the lowest set bit is the tile's first survivor; a warp
// stops looking once it has one. The grid's last block clears the others.
#include "msw.cuh"
#include "msw_math.h"

namespace {

constexpr unsigned long long kNone = ~0ull;

__device__ unsigned long long firstSeen = kNone;
__device__ unsigned int blocksDone = 0;

__device__ size_t warpCount() { return static_cast<size_t>(gridDim.x) * ((blockDim.x + 31) / 32); }
__device__ size_t warpIndex() { return static_cast<size_t>(blockIdx.x) * ((blockDim.x + 31) / 32) + threadIdx.x / 32; }

// The first non-zero index among this warp's tiles, on every lane, clearing
// every other non-zero word in those tiles.
__device__ unsigned long long warpFirstAndClear(uintmax_t* p, size_t n) {
    const unsigned lane = threadIdx.x % 32;
    unsigned long long first = kNone;
    for (size_t tile = warpIndex() * 32; tile < n; tile += warpCount() * 32) {
        const size_t i = tile + lane;
        const bool live = i < n && p[i] != 0;
        const unsigned ballot = __ballot_sync(0xffffffffu, live);
        if (ballot == 0) continue;
        const unsigned long long here = tile + static_cast<unsigned>(__ffs(ballot) - 1);
        if (first == kNone) first = here;
        if (live && i != first) p[i] = 0;
    }
    return first;
}

}  // namespace

__global__ void par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n) {
    const size_t c = msw::chunk_size(n);
    for (size_t tile = warpIndex() * 32; tile < n; tile += warpCount() * 32) {
        const size_t i = tile + threadIdx.x % 32;
        if (i >= n) continue;
        const bool differs = p1[i] != p2[i];
        p2[i] = differs ? 1 : 0;
        if (differs) sig_out[i / c] = 1;
    }
}

__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    __shared__ unsigned long long blockFirst;
    __shared__ bool last;
    if (threadIdx.x == 0) blockFirst = kNone;
    __syncthreads();
    // blockDim.x is a multiple of 32 in the course's launches; a partial warp
    // would still ballot correctly since every lane of it takes part.
    const unsigned long long warpFirst = warpFirstAndClear(p, n);
    if (threadIdx.x % 32 == 0 && warpFirst != kNone) atomicMin(&blockFirst, warpFirst);
    __syncthreads();
    if (threadIdx.x % 32 == 0 && warpFirst != kNone && warpFirst != blockFirst) p[warpFirst] = 0;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
        if (blockFirst != kNone) atomicMin(&firstSeen, blockFirst);
        __threadfence();
        last = atomicInc(&blocksDone, gridDim.x - 1) == gridDim.x - 1;  // wraps to 0 for the next launch
    }
    __syncthreads();
    if (!last) return;
    __shared__ unsigned long long keep;
    if (threadIdx.x == 0) keep = atomicExch(&firstSeen, kNone);
    __syncthreads();
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
        if (p[i] != 0 && i != keep) p[i] = 0;
    }
}

__global__ void par_get_section_diff(uintmax_t* tree, uintmax_t* section, size_t n) {
    for (size_t tile = warpIndex() * 32; tile < n; tile += warpCount() * 32) {
        const size_t i = tile + threadIdx.x % 32;
        const unsigned ballot = __ballot_sync(0xffffffffu, i < n && tree[i] != 0);
        if (ballot == 0) continue;
        if (threadIdx.x % 32 == 0) {
            atomicMin(reinterpret_cast<unsigned long long*>(section), tile + static_cast<unsigned>(__ffs(ballot) - 1));
        }
        return;  // the warp's later tiles hold only later indices
    }
}
