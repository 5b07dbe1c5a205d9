// fails: msw.index
// cases: two_phase_n10
// expect: did not finish in [0-9.]+ s \(it was in naive_leftmost_prisoner \(phase 1: keep the leftmost chunk mark, given n = 4\) in par_find_mismatch\(d_a, b, d_large_block, n\), search 0 of [0-9]+, n = 10\)
// Hostile submission: an elimination kernel that never returns. The runner
// is killed at its time limit and the message names the kernel, the phase
// and the search it was in; every other test still runs.
// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "msw.cuh"
static __global__ void solution_leftmost_prisoner(uintmax_t* p, size_t n);
#define naive_leftmost_prisoner solution_leftmost_prisoner
#include "../../../reference/msw/solution/msw_kernels.cu"  // instructor-only fixture: it may use the solution
#undef naive_leftmost_prisoner

__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    // Waits for a value nobody writes; volatile keeps the loop in the code.
    while (n > 0 && *static_cast<volatile uintmax_t*>(p) != 0x7fffffffffffffffull) {
    }
}
