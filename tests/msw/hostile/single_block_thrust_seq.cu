// fails: none
// passes: msw.index msw.empty@two_phase
// A correct variant that keeps no state of its own between launches: the
// prisoner works in block 0 alone (its inputs are the chunk marks and one
// chunk's flags, at most a few thousand words), each thread over a
// contiguous range it searches with thrust::find_if(thrust::seq); the
// block's first survivor is a shared word; and phase 2 finds each thread's
// first flag the same way before one atomicMin.
#include <thrust/execution_policy.h>
#include <thrust/find.h>

#include "msw.cuh"
#include "msw_math.h"

namespace {

constexpr unsigned long long kNone = ~0ull;

struct NonZero {
    __device__ bool operator()(uintmax_t word) const { return word != 0; }
};

// This thread's share [begin, end) of n words split into `parts` contiguous ranges.
struct Range {
    size_t begin, end;
};
__device__ Range shareOf(size_t n, size_t part, size_t parts) {
    const size_t each = (n + parts - 1) / parts;
    const size_t begin = part * each < n ? part * each : n;
    return {begin, begin + each < n ? begin + each : n};
}

// The first non-zero index of [begin, end), or kNone.
__device__ unsigned long long firstNonZero(const uintmax_t* p, Range r) {
    const uintmax_t* found = thrust::find_if(thrust::seq, p + r.begin, p + r.end, NonZero{});
    return found == p + r.end ? kNone : static_cast<unsigned long long>(found - p);
}

}  // namespace

__global__ void par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n) {
    const size_t chunk = msw::chunk_size(n);
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        p2[i] = p1[i] != p2[i] ? 1 : 0;
        if (p2[i] != 0) sig_out[i / chunk] = 1;
    }
}

__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    if (blockIdx.x != 0) return;
    __shared__ unsigned long long first;
    if (threadIdx.x == 0) first = kNone;
    __syncthreads();
    const Range mine = shareOf(n, threadIdx.x, blockDim.x);
    const unsigned long long own = firstNonZero(p, mine);
    if (own != kNone) atomicMin(&first, own);
    __syncthreads();
    for (size_t i = own == kNone ? mine.end : own; i < mine.end; ++i) {
        if (i != first && p[i] != 0) p[i] = 0;
    }
}

__global__ void par_get_section_diff(uintmax_t* tree, uintmax_t* section, size_t n) {
    const size_t part = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const unsigned long long own = firstNonZero(tree, shareOf(n, part, static_cast<size_t>(gridDim.x) * blockDim.x));
    if (own != kNone) atomicMin(reinterpret_cast<unsigned long long*>(section), own);
}
