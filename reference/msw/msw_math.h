#pragma once
// Square-root arithmetic of the two-phase search, shared by host code and
// kernels. Integer-exact: a plain std::sqrt on a double rounds n - 1 up to the
// next square once n - 1 no longer fits in 53 bits, and the course's
// sqrt(n - 1) wraps around for n = 0.
#include <cmath>
#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define MSW_HD __host__ __device__
#else
#define MSW_HD
#endif

namespace msw {

// The largest r with r * r <= x. The double estimate is off by at most a few
// units; the fix-ups divide instead of squaring so nothing overflows near 2^64.
MSW_HD inline uint64_t floor_sqrt(uint64_t x) {
    if (x < 2) return x;
    uint64_t r = static_cast<uint64_t>(::sqrt(static_cast<double>(x)));
    while (r > x / r) --r;
    while (r + 1 <= x / (r + 1)) ++r;
    return r;
}

// The chunk length of the square-root decomposition, floor(sqrt(n - 1)) + 1,
// which is also how many chunk marks there are: chunk * chunk >= n, so
// ceil(n / chunk) chunks never outnumber the marks. 0 for n = 0 (no chunks).
MSW_HD inline uint64_t chunk_size(uint64_t n) { return n == 0 ? 0 : floor_sqrt(n - 1) + 1; }

}  // namespace msw
