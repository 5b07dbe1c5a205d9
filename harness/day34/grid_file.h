#pragma once
// Grid files: a day 34 initial grid as text, which the grader grades on
// (-DGRADING_DAY34_GRIDS="a.txt;b.txt": every 34.stencil and 34.ring case
// also runs on each) and which a shrunk counterexample is written as
// (shrink.h). The format: lines starting with '#' are comments, then the
// side n (3 to cases::kLargestSide), then n rows of n finite numbers, the
// first and last rows and columns being the boundary ring the kernels keep.
#include <string>
#include <vector>

#include "harness/expected.h"

namespace day34::grids {

struct GridFile {
    int n = 0;
    std::vector<float> cells;  // n x n, row-major
};

// The grid in `text`; an error names `source` and the line.
grading::Expected<GridFile> parseGridFile(const std::string& text, const std::string& source);
// The file at `path`; an error names the path (and the line).
grading::Expected<GridFile> loadGridFile(const std::string& path);

// `cells` (n x n) in that format, under a "# <what>" line.
std::string gridFileText(const std::string& what, int n, const std::vector<float>& cells);

}  // namespace day34::grids
