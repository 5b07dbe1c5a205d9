// fails: msw.index
// cases: two_phase_n10
// expect: par_sig_sqrt \(phase 1: flag mismatching words and mark their chunks, given n = 10\) in par_find_mismatch\(d_a, b, d_large_block, n\), search 0 of [0-9]+, n = 10 wrote to its input d_a at index 9 \(was [0-9]+, now 7\)
// Hostile submission: the solution's phase 1, which then writes the array it
// was given as const. The runner compares d_a with its generator after
// every launch and names the first word changed (exit status 5).
// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "msw.cuh"
static __global__ void solution_par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n);
#define par_sig_sqrt solution_par_sig_sqrt
#include "../../../reference/msw/solution/msw_kernels.cu"  // instructor-only fixture: it may use the solution
#undef par_sig_sqrt

__global__ void par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n) {
    const size_t chunk = msw::chunk_size(n);
    for (size_t i = globalThread(); i < n; i += threadCount()) {
        const uintmax_t differs = p1[i] != p2[i] ? 1 : 0;
        p2[i] = differs;
        if (differs) sig_out[i / chunk] = 1;
        if (i == n - 1) const_cast<uintmax_t*>(p1)[i] = 7;
    }
}
