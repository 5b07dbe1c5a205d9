// fails: none
// passes: msw.index msw.empty@two_phase
// A correct variant, written unlike the solution: every thread owns one
// contiguous range of words instead of a grid stride, marks each chunk once
// per run of differing words, keeps the first survivor of its range, and
// reports it straight to a grid-wide minimum (no block step); the last
// thread to report clears every other survivor.
#include "msw.cuh"
#include "msw_math.h"

namespace {

constexpr unsigned long long kNone = ~0ull;

__device__ unsigned long long leftmost = kNone;
__device__ unsigned long long threadsReported = 0;

struct Range {
    size_t begin, end;
};

// Thread t of T owns [t * ceil(n / T), (t + 1) * ceil(n / T)) clipped to n.
__device__ Range myRange(size_t n) {
    const size_t threads = static_cast<size_t>(gridDim.x) * blockDim.x;
    const size_t t = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t per = (n + threads - 1) / threads;
    const size_t begin = min(n, t * per);
    return {begin, min(n, begin + per)};
}

}  // namespace

__global__ void par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n) {
    const size_t c = msw::chunk_size(n);
    const Range r = myRange(n);
    size_t marked = ~size_t{0};
    for (size_t i = r.begin; i < r.end; ++i) {
        const uintmax_t differs = p1[i] == p2[i] ? 0 : 1;
        p2[i] = differs;
        if (differs && i / c != marked) {
            marked = i / c;
            sig_out[marked] = 1;
        }
    }
}

__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    const Range r = myRange(n);
    unsigned long long first = kNone;
    for (size_t i = r.begin; i < r.end; ++i) {
        if (p[i] == 0) continue;
        if (first == kNone) first = i;
        else p[i] = 0;
    }
    if (first != kNone) atomicMin(&leftmost, first);
    __threadfence();
    const unsigned long long threads = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    if (atomicAdd(&threadsReported, 1ull) + 1 != threads) return;
    // The last thread to report: every range has its one survivor at most.
    const unsigned long long keep = atomicExch(&leftmost, kNone);
    const size_t per = (n + threads - 1) / threads;
    for (size_t start = 0; start < n; start += per) {
        for (size_t i = start; i < min(n, start + per); ++i) {
            if (p[i] != 0) {
                if (i != keep) p[i] = 0;
                break;  // the range's only survivor
            }
        }
    }
    threadsReported = 0;
}

__global__ void par_get_section_diff(uintmax_t* tree, uintmax_t* section, size_t n) {
    const Range r = myRange(n);
    for (size_t i = r.begin; i < r.end; ++i) {
        if (tree[i] != 0) {
            atomicMin(reinterpret_cast<unsigned long long*>(section), static_cast<unsigned long long>(i));
            return;
        }
    }
}
