#pragma once
// The one entry of the instructor-only fast search (solution/msw_fast.cu)
// that the runner calls. The reference runner links the real one; every
// other runner (the exercise stub, a submission, a hostile file) links
// fast_absent.cpp, whose version says so (InputError), so a student's
// runner builds without the solution. The gate cases that ask it are
// instructor cases (student = false): they run against the reference only.
#include <cstddef>
#include <cstdint>

// How fast_absent.cpp's version begins its message; the report reads it.
constexpr const char* kFastSearchAbsent = "the fast search is not in this runner";

// The first index where d_a and d_b (n device words each) differ, or n.
size_t fast_find_mismatch(const uintmax_t* d_a, const uintmax_t* d_b, size_t n);
