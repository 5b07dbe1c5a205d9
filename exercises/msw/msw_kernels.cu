// msw exercise: the three kernels of the two-phase first-mismatch search.
//
// par_find_mismatch (reference/msw/msw.cu) copies b into a scratch block and
// launches your kernels in this order:
//   phase 1  par_sig_sqrt(d_a, d_flags, d_marks, n)
//            naive_leftmost_prisoner(d_marks, c)
//            par_get_section_diff(d_marks, d_section, c)
//   phase 2  naive_leftmost_prisoner(d_flags + offset, words)
//            par_get_section_diff(d_flags + offset, d_section, words)
// with c = floor(sqrt(n - 1)) + 1 words per chunk (and c chunk marks),
// offset = chunk * c for the chunk phase 1 found, words = min(c, n - offset).
// The contracts are in reference/msw/msw.cuh. Grade yourself with
//   ctest --test-dir build/default -L msw -L submission   (see README.md):
// msw.index asks for the first mismatch on sizes from 1 to more than 2^24
// words and compares with seq_find_mismatch.
//
// Define only what is asked for here. Helpers of your own go in an anonymous
// namespace or are static: the build refuses any other name the file
// defines, and msw.builds names it.
//
// Pitfalls the gate will catch:
//  - The chunk length must be floor(sqrt(n - 1)) + 1, the same value the host
//    uses. floor(sqrt(n)) makes c chunks of c words cover only c * c words:
//    for n = 10 the word at index 9 is never looked at.
//  - Compute it in integers, or check a floating-point square root: near
//    perfect squares the rounding decides the answer.
//  - The host launches several blocks: use grid-stride loops and do not assume
//    one block, or one thread per element.
//  - Keep the LEFTMOST non-zero element. Keeping any other survivor returns a
//    later mismatch when there are several.
//  - Words differ in any of their 64 bits: compare whole words.
//  - Write nothing outside [0, n) of the arrays you are given: guard words sit
//    right after the scratch block and are checked after every launch.
//  - The course's leftmost kernel compares all n-choose-2 pairs. It is correct,
//    and n here is at most about sqrt(N), but an O(n) version is not hard:
//    what does each thread know about its own elements, and what can a block
//    work out with shared memory?
#include "msw.cuh"

__global__ void par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n) {
    // TODO: flag each mismatching word in p2 and mark its chunk in sig_out.
}

__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    // TODO: clear every non-zero element of p except the leftmost one.
}

__global__ void par_get_section_diff(uintmax_t* tree, uintmax_t* section, size_t n) {
    // TODO: write the index of the non-zero element into *section.
}
