// fails: msw.builds
// expect: error: it defines (par_sig_sqrt|naive_leftmost_prisoner|par_get_section_diff) as a host function, not a kernel
// Hostile submission: the three kernels as host functions of the same names
// and parameters, which the course's <<<>>> launches would call on the CPU
// (a search that never touches the GPU, with device pointers it cannot
// read). It leaves out msw.cuh, whose __global__ declarations would not let
// it compile. The seal finds none of the three among the kernels of the
// file's device code and stops the build.
#include <cstddef>
#include <cstdint>

void par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n) {
    for (size_t i = 0; i < n; ++i) p2[i] = p1[i] != p2[i];
    (void)sig_out;
}

void naive_leftmost_prisoner(uintmax_t* p, size_t n) {
    bool seen = false;
    for (size_t i = 0; i < n; ++i) {
        if (p[i] != 0 && seen) p[i] = 0;
        seen = seen || p[i] != 0;
    }
}

void par_get_section_diff(uintmax_t* tree, uintmax_t* section, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if (tree[i] != 0 && i < *section) *section = i;
    }
}
