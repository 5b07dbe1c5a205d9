// Host-only reference pieces: the sequential baseline and the block sizes.
#include "msw_host.h"

#include <limits>
#include <stdexcept>
#include <string>

#include "msw_math.h"

size_t seq_find_mismatch(const uintmax_t* const arr1, const uintmax_t* const arr2, size_t size) {
    for (size_t i = 0; i < size; ++i) {
        if (arr1[i] != arr2[i]) return i;
    }
    return size;
}

size_t sqrt_chunk_words(size_t n) { return static_cast<size_t>(msw::chunk_size(n)); }

size_t large_block_words(size_t n) {
    // The course computed sqrt(n - 1) unguarded: for n = 0 it wraps to
    // sqrt(2^64 - 1) and asks for a 32 GiB block. Nothing is needed there.
    if (n == 0) return 0;
    const size_t marks = sqrt_chunk_words(n);
    if (n > std::numeric_limits<size_t>::max() - marks - 1) {
        throw std::length_error("large_block_words: a block for n = " + std::to_string(n) +
                                " words does not fit in size_t");
    }
    return n + 1 + marks;
}
