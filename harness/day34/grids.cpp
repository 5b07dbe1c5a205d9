#include "grids.h"

#include <cstdlib>

#include "harness/day.h"
#include "harness/splitmix64.h"

namespace day34 {

uint64_t deriveSeed(uint64_t seed, const std::string& purpose) { return grading::caseSeed(seed, "day34 grid " + purpose); }

std::vector<float> seededGrid(int n, uint64_t seed) {
    grading::SplitMix64 rng(seed);
    const size_t stride = static_cast<size_t>(n);
    std::vector<float> grid(stride * stride);
    const auto draw = [&rng](SideBand band) {
        return band.lo + static_cast<float>(rng.unit()) * (band.hi - band.lo);
    };
    for (size_t row = 0; row < stride; ++row) {
        for (size_t col = 0; col < stride; ++col) {
            float& cell = grid[row * stride + col];
            if (row == 0) {
                cell = draw(kTopBand);
            } else if (row + 1 == stride) {
                cell = draw(kBottomBand);
            } else if (col == 0) {
                cell = draw(kLeftBand);
            } else if (col + 1 == stride) {
                cell = draw(kRightBand);
            } else {
                cell = static_cast<float>(rng.unit());
            }
        }
    }
    // The top-left corner at the top band's ceiling, 1: every grid's max is
    // then 1, as the course's, so output clamped to [0, 1] shows no growth.
    grid[0] = kTopBand.hi;
    return grid;
}

std::vector<float> handMadeGrid(int n) {
    std::vector<float> grid(static_cast<size_t>(n) * static_cast<size_t>(n), 0.0f);
    const int middle = n / 2;
    for (int row = 0; row < n; ++row) {
        for (int col = 0; col < n; ++col) {
            float& cell = grid[static_cast<size_t>(row) * n + col];
            if (row == 0) cell = 1.0f;
            else if (row == n - 1 || col == 0 || col == n - 1) cell = 0.0f;
            else if (std::abs(row - middle) <= 3 && std::abs(col - middle) <= 3) cell = 1.0f;
            else cell = static_cast<float>((row + col) % 2);
        }
    }
    return grid;
}

}  // namespace day34
