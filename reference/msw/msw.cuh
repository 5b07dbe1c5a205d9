#pragma once
// First mismatching word (the course's msw.cu): the first index where two
// arrays of 64-bit words differ, found on the GPU by a two-phase square-root
// decomposition.
//
//   phase 1  split the n words into chunks of c = floor(sqrt(n - 1)) + 1
//            words (c * c >= n, so there are at most c chunks); flag every
//            mismatching word and mark its chunk; keep the leftmost mark.
//   phase 2  inside that one chunk (at most c words) keep the leftmost flag.
//
// The answer is chunk * c + offset, or n when no word differs. Declared here
// with the course's names and signatures; the kernels are the exercise's
// (exercises/msw/msw_kernels.cu), and the host functions in
// reference/msw/msw.cu launch them.
//
// Errors: every CUDA call is checked. A failure throws grading::CudaError
// (harness/cuda_check.h); functions returning size_t have no error value.
// Nothing is leaked on any path, thrown or not.
//
// Not reentrant across host threads: the kernels and the launch hook use
// process-wide state, and everything runs on the legacy default stream.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "msw_host.h"

static_assert(sizeof(uintmax_t) == sizeof(unsigned long long), "words are 64-bit");

// ---- the three kernels of the two-phase method -------------------------------
// Each is launched with a 1-D grid whose size the host picks from n (often
// many blocks, often fewer threads than elements): cover all n elements and
// assume nothing about the grid's size.
//
// What a kernel may rely on, and what it may not leave behind:
//  - Every launch is on the legacy default stream, after the one before it.
//  - Any launch may bring other arrays and another n than the one before:
//    keep no answer between launches.
//  - State of a kernel's own (a __device__ variable in an anonymous
//    namespace) must be as the launch found it when the launch ends: the
//    next one may be of another search, another n, another grid.
//  - Nothing may run after the launch ends: a launch is waited for, and
//    then its outputs are read.
//  - A search that is timed is a search like any other, and its answer is
//    checked.
//  - What a kernel may use: CUB's block, warp and thread primitives,
//    cooperative groups, libcu++ (cuda::atomic_ref, cuda::std) and Thrust's
//    sequential algorithms (thrust::seq). The file defines the three
//    kernels, as __global__ functions, and nothing else with external
//    linkage (helpers static or in an anonymous namespace).

// Phase 1. For every i < n: p2[i] = (p1[i] != p2[i]) (1 or 0), and when the
// words differ, sig_out[i / c] = 1 with c = floor(sqrt(n - 1)) + 1. The
// caller zeroes sig_out (c entries) first.
__global__ void par_sig_sqrt(const uintmax_t* const p1, uintmax_t* p2, uintmax_t* sig_out, size_t n);

// Leaves only the leftmost non-zero element of p[0, n) non-zero: every other
// non-zero element becomes 0, zeros stay 0. Used on the chunk marks (phase
// 1) and on the flags of the chosen chunk (phase 2).
__global__ void naive_leftmost_prisoner(uintmax_t* p, size_t n);

// Writes the index of the non-zero element of tree[0, n) into *section; the
// caller sets *section to all ones first, so it stays all ones when tree is
// all zero.
__global__ void par_get_section_diff(uintmax_t* tree, uintmax_t* section, size_t n);

// ---- the host API ------------------------------------------------------------

// A device block of large_block_words(n) words (see msw_host.h), for the
// four-argument par_find_mismatch. nullptr for n = 0. Free it with cudaFree
// (or hand it to msw::DeviceWords).
uintmax_t* alloc_large_block_to_device(size_t n);

// d_a: n words on the device. b: n words in host memory (anything
// cudaMemcpyDefault can read works). d_large_block: at least
// large_block_words(n) device words; its contents are overwritten. Returns
// the first index where the arrays differ, or n. n = 0 returns 0 and
// touches nothing.
size_t par_find_mismatch(const uintmax_t* const d_a, const uintmax_t* const b, uintmax_t* d_large_block,
                         size_t n);

// a and b: n words each in host memory. Allocates, copies, searches, frees.
size_t par_find_mismatch(const uintmax_t* const a, const uintmax_t* const b, size_t n);

namespace msw {

struct DeviceFree {
    void operator()(uintmax_t* p) const noexcept { cudaFree(p); }
};
// Owns a device allocation of words.
using DeviceWords = std::unique_ptr<uintmax_t, DeviceFree>;

// `count` device words, uninitialized (empty for 0). Throws grading::CudaError.
DeviceWords device_words(size_t count);

// The search itself, with b already copied into d_large_block[0, n): the
// four-argument par_find_mismatch is one copy followed by this. The block's
// first n words are turned into mismatch flags.
size_t two_phase_on_block(const uintmax_t* d_a, uintmax_t* d_large_block, size_t n);

// Grading hook: when set, called before each kernel launch the search makes
// (done = false) and after it was queued and checked (done = true). The
// runner uses it to name the kernel it is in, to check guard words after
// each launch and to record what each kernel left in the scratch block (the
// grader holds every kernel to its contract above, launch by launch). An
// exception thrown by the hook propagates out of the search.
struct LaunchEvent {
    const char* kernel;  // e.g. "par_sig_sqrt"
    const char* step;    // what the launch does, e.g. "phase 1: flag words, mark chunks"
    size_t count;        // the n the kernel is given
    bool done;
};
void set_launch_hook(std::function<void(const LaunchEvent&)> hook);

}  // namespace msw
