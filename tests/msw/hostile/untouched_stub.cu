// fails: msw.index
// cases: two_phase_n100
// expect: par_find_mismatch\(d_a, b, d_large_block, n\): n = 100, planted index 0 \(first word\): got 100, want 0
// passes: msw.empty@two_phase msw.block@large_block_words
// The exercise as handed out: the kernels do nothing. Every search runs to
// the end (no fault, no hang) and answers n, nothing found; the course's
// host code still gets n = 0 and the block size right.
#include "../../../exercises/msw/msw_kernels.cu"
