#pragma once
// Grids made from a key, the same cell by cell on the device (where the
// runner makes its inputs) and on the host (where the grader makes the same
// grid for its reference): any cell made alone, from its own random bits.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "harness/splitmix64.h"

namespace day34 {

// The range each side of a seeded grid's ring is drawn from (grids.h); no
// two overlap and none reaches 0. The top and bottom rows hold the corners.
struct SideBand {
    float lo;
    float hi;
};
constexpr SideBand kTopBand{0.80f, 1.00f};
constexpr SideBand kBottomBand{0.05f, 0.25f};
constexpr SideBand kLeftBand{0.55f, 0.75f};
constexpr SideBand kRightBand{0.30f, 0.50f};

// Cell `index` of `key`'s random unit array: 24 random bits, so exactly a
// float in [0, 1).
GRADING_HOST_DEVICE constexpr float keyedUnit(uint64_t key, size_t index) {
    return static_cast<float>(grading::splitMix64At(key, index) >> 40) * 0x1.0p-24f;
}

// Cell `index` of the seeded n x n grid of `key` (grids.h, seededGrid): a
// ring cell scales its keyedUnit into its side's band with one fused
// multiply-add, which rounds alike on the host and the device (a multiply and
// an add could be fused on one and not the other); an interior cell is the
// unit itself. The top-left corner is 1, so every grid's max is 1, as the
// course's, and output clamped to [0, 1] shows no growth.
GRADING_HOST_DEVICE inline float seededCell(uint64_t key, int n, size_t index) {
    const size_t side = static_cast<size_t>(n);
    const size_t row = index / side;
    const size_t col = index % side;
    if (index == 0) return kTopBand.hi;
    const float unit = keyedUnit(key, index);
    float lo = 0.0f, hi = 0.0f;
    if (row == 0) {
        lo = kTopBand.lo, hi = kTopBand.hi;
    } else if (row + 1 == side) {
        lo = kBottomBand.lo, hi = kBottomBand.hi;
    } else if (col == 0) {
        lo = kLeftBand.lo, hi = kLeftBand.hi;
    } else if (col + 1 == side) {
        lo = kRightBand.lo, hi = kRightBand.hi;
    } else {
        return unit;
    }
    return fmaf(unit, hi - lo, lo);
}

// A keyed grid (the clocked steps' and the timed runs' inputs): uniform in
// [-1, 1), keyedUnit scaled by 2 (exact) less 1, the same bits on the host and
// the device, fused or not.
GRADING_HOST_DEVICE constexpr float keyedCell(uint64_t key, size_t cell) { return keyedUnit(key, cell) * 2.0f - 1.0f; }

// The key of timed run `run` of the kernel timed `kernel`-th in a call whose
// key is `key`: no two runs, and no two kernels' runs, share an input.
GRADING_HOST_DEVICE constexpr uint64_t timedRunKey(uint64_t key, int kernel, int run) {
    return grading::splitMix64At(key, static_cast<uint64_t>(kernel) * 4096u + static_cast<uint64_t>(run));
}

}  // namespace day34
