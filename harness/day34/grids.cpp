#include "grids.h"

#include <cstdlib>

#include "harness/day.h"
#include "harness/splitmix64.h"

namespace day34 {

uint64_t deriveSeed(uint64_t seed, const std::string& purpose) { return grading::caseSeed(seed, "day34 grid " + purpose); }

std::vector<float> seededGrid(int n, uint64_t seed) {
    std::vector<float> grid(static_cast<size_t>(n) * static_cast<size_t>(n));
    for (size_t i = 0; i < grid.size(); ++i) grid[i] = seededCell(seed, n, i);
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
