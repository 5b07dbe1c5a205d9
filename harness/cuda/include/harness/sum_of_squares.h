#pragma once
// A clocked call's proof of work over one float array (what the timed runs left):
// the sum of its squares, in double, added to *sum on `stream`. With
// `nonFinite`, values that are not finite are counted there and left out of
// the sum; without it they go into the sum, so a proof cannot hide one.
// Blocks add their partial sums in any order: the last bits vary from run to
// run, far below any tolerance a proof is compared with.
#include <cuda_runtime.h>

#include <cstddef>

namespace grading {

void enqueueSumOfSquares(const float* values, size_t n, double* sum, unsigned long long* nonFinite = nullptr,
                         cudaStream_t stream = nullptr);

}  // namespace grading
