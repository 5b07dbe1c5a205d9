#pragma once
// A grid made from a key, the same cell by cell on the device (where the
// runner makes the clocked steps' and the timed runs' inputs) and on the
// host (the grader's tests): 24 random bits a cell, uniform in [-1, 1).
#include <cstddef>
#include <cstdint>

#include "harness/splitmix64.h"

namespace day34 {

GRADING_HOST_DEVICE constexpr float keyedCell(uint64_t key, size_t cell) {
    return static_cast<float>(grading::splitMix64At(key, cell) >> 40) * 0x1.0p-23f - 1.0f;
}

// The key of timed run `run` of the kernel timed `kernel`-th in a call whose
// key is `key`: no two runs, and no two kernels' runs, share an input.
GRADING_HOST_DEVICE constexpr uint64_t timedRunKey(uint64_t key, int kernel, int run) {
    return grading::splitMix64At(key, static_cast<uint64_t>(kernel) * 4096u + static_cast<uint64_t>(run));
}

}  // namespace day34
