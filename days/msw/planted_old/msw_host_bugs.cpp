// Planted bugs (msw) in the host-side arithmetic, one per build:
//  PLANT_CHUNK_FLOOR_SQRT    the host's chunk length and mark count are
//                            floor(sqrt(n)) (paired with msw_kernels_bugs.cu
//                            built with the same define). Must fail msw.index.
//  PLANT_PRECONDITION_BLOCK  the block size from the course's stated
//                            precondition, n + floor(sqrt(n)) + 2: one word
//                            too many at every perfect square. Must fail
//                            msw.block only (a larger block is harmless).
//  PLANT_EMPTY_UNDERFLOW     n + floor(sqrt(n - 1)) + 2 with no case for
//                            n = 0, where n - 1 wraps: 2^32 + 1 words. Must
//                            fail msw.empty only (the runner reports the size
//                            and does not try to allocate it).
#include <cstddef>
#include <cstdint>

#include "msw_host.h"
#include "msw_math.h"

size_t seq_find_mismatch(const uintmax_t* const arr1, const uintmax_t* const arr2, size_t size) {
    for (size_t i = 0; i < size; ++i) {
        if (arr1[i] != arr2[i]) return i;
    }
    return size;
}

size_t sqrt_chunk_words(size_t n) {
#if defined(PLANT_CHUNK_FLOOR_SQRT)
    return static_cast<size_t>(msw::floor_sqrt(n));
#else
    return static_cast<size_t>(msw::chunk_size(n));
#endif
}

size_t large_block_words(size_t n) {
#if defined(PLANT_PRECONDITION_BLOCK)
    if (n == 0) return 0;
    return n + static_cast<size_t>(msw::floor_sqrt(n)) + 2;
#elif defined(PLANT_EMPTY_UNDERFLOW)
    return n + static_cast<size_t>(msw::floor_sqrt(n - 1)) + 2;
#else
    if (n == 0) return 0;
    return n + static_cast<size_t>(msw::chunk_size(n)) + 1;
#endif
}

#if !defined(PLANT_CHUNK_FLOOR_SQRT) && !defined(PLANT_PRECONDITION_BLOCK) && !defined(PLANT_EMPTY_UNDERFLOW)
#error "define the bug to plant"
#endif
