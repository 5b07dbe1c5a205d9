#pragma once
// The course's initial condition, plain C++ so the runner and the host
// reference build the same grid independently: everything cold, the left
// wall (column 0, every row) hot, and a hot square of odd side 2 * (n / 8) + 1
// in the middle. Its sharp edges carry the alternating mode that decides
// stability, so no perturbation is needed past r = 1/4.
#include <cstddef>
#include <vector>

#include "heat_constants.h"

namespace day34 {

inline std::vector<float> initialGrid(int n) {
    const size_t stride = static_cast<size_t>(n);
    std::vector<float> grid(stride * stride, kCold);
    for (int row = 0; row < n; ++row) grid[static_cast<size_t>(row) * stride] = kHot;
    const int half = n / 8;
    const int first = n / 2 - half;
    const int end = first + 2 * half + 1;
    for (int row = first; row < end; ++row) {
        for (int col = first; col < end; ++col) grid[static_cast<size_t>(row) * stride + col] = kHot;
    }
    return grid;
}

}  // namespace day34
