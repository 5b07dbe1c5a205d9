#pragma once
// The host-only part of the msw API: plain C++, so the sequential baseline
// and the scratch-block arithmetic build and are tested without nvcc.
#include <cstddef>
#include <cstdint>

// The first index where arr1 and arr2 differ, or size when they are equal
// over all size words. Both pointers may be null when size is 0.
size_t seq_find_mismatch(const uintmax_t* const arr1, const uintmax_t* const arr2, size_t size);

// Words in the scratch block par_find_mismatch(d_a, b, d_large_block, n)
// needs: n for the copy of b (it becomes the per-word mismatch flags), 1 for
// a kernel's answer, and sqrt_chunk_words(n) chunk marks, which is
// n + floor(sqrt(n - 1)) + 2 in all. 0 for n = 0, where nothing is needed.
// Throws std::length_error when the count does not fit in size_t.
size_t large_block_words(size_t n);

// The chunk length of the decomposition and the number of chunk marks:
// floor(sqrt(n - 1)) + 1 (0 for n = 0).
size_t sqrt_chunk_words(size_t n);
