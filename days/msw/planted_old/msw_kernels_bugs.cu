// Planted bugs (msw) in the kernels of the two-phase search, one per build:
//  PLANT_LAST_MISMATCH     the elimination keeps the RIGHTMOST non-zero element,
//                          so both phases pick the last mark and the search
//                          returns the last mismatch. Single mismatches still
//                          come out right; several must fail msw.index.
//  PLANT_CHUNK_FLOOR_SQRT  chunks of floor(sqrt(n)) words, without the + 1
//                          (paired with the host unit built with the same
//                          define, msw_host_bugs.cpp): k chunks of k words cover
//                          only k * k <= n words, so a mismatch in the tail is
//                          marked where nobody looks. Must fail msw.index for
//                          n = k^2 + j with 1 <= j <= k (for larger j the mark
//                          lands past the scratch block and the guard words
//                          catch it instead).
// The other kernels are plain and correct for any grid.
#include "msw.cuh"
#include "msw_math.h"

namespace {

__device__ __forceinline__ size_t globalThread() {
    return static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ size_t threadCount() { return static_cast<size_t>(gridDim.x) * blockDim.x; }

}  // namespace

__global__ void par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n) {
#if defined(PLANT_CHUNK_FLOOR_SQRT)
    const size_t chunk = msw::floor_sqrt(n);  // missing + 1 (and of n, not n - 1)
#else
    const size_t chunk = msw::chunk_size(n);
#endif
    for (size_t i = globalThread(); i < n; i += threadCount()) {
        const uintmax_t differs = p1[i] != p2[i] ? 1 : 0;
        p2[i] = differs;
        if (differs) sig_out[i / chunk] = 1;
    }
}

// A non-zero element is cleared when another non-zero element lies on the
// side that should win. The winner itself is never cleared, so a scan always
// meets it: correct for any grid, however the threads interleave.
__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    for (size_t i = globalThread(); i < n; i += threadCount()) {
        if (p[i] == 0) continue;
#if defined(PLANT_LAST_MISMATCH)
        for (size_t j = i + 1; j < n; ++j) {  // looks right instead of left
#else
        for (size_t j = i; j-- > 0;) {
#endif
            if (reinterpret_cast<volatile uintmax_t*>(p)[j] != 0) {
                p[i] = 0;
                break;
            }
        }
    }
}

__global__ void par_get_section_diff(uintmax_t* tree, uintmax_t* section, size_t n) {
    for (size_t i = globalThread(); i < n; i += threadCount()) {
        if (tree[i] != 0) atomicMin(reinterpret_cast<unsigned long long*>(section), static_cast<unsigned long long>(i));
    }
}

#if !defined(PLANT_LAST_MISMATCH) && !defined(PLANT_CHUNK_FLOOR_SQRT)
#error "define the bug to plant"
#endif
