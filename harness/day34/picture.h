#pragma once
// Day 34's picture of a shrunk grid (grading::Picture, drawn in the report's
// page): the cells as the kernel left them, a heat map (a NaN or inf cell
// blank), the cells that differ from the reference outlined in red.
#include <optional>
#include <vector>

#include "harness/shrink.h"

namespace day34 {

struct GridPicture {
    int side = 0;
    std::vector<float> got;    // side x side, row-major
    std::vector<double> want;  // the same cells, the reference's
    std::vector<bool> wrong;
};

// Nothing for a grid without cells or past kMostDrawnSide on a side.
inline constexpr int kMostDrawnSide = 64;
std::optional<grading::Picture> draw(const GridPicture& grid);

}  // namespace day34
