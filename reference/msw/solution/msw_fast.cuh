#pragma once
// The fast reference: the first mismatching word of two device arrays in one
// pass that stops early. Not part of the course's API; the benchmark
// compares it with the two-phase search and thrust::mismatch, and the reference
// runner answers msw.index and msw.empty with it too (instructor cases).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "fast_search.h"  // the three-argument overload, the one the runner calls

namespace msw {

struct FastOptions {
    int blocksPerSm = 4;  // resident blocks per SM of the persistent grid
};

}  // namespace msw

// d_a, d_b: n words each on the device. Returns the first index where they
// differ, or n (0 for n = 0). Reads both arrays at most once, 16 bytes a load
// when both are 16-byte aligned, and stops reading once a lower mismatch is
// known. Throws grading::CudaError. Not reentrant across host threads (the
// running minimum is a device global); runs on the legacy default stream.
size_t fast_find_mismatch(const uintmax_t* d_a, const uintmax_t* d_b, size_t n, const msw::FastOptions& options);
