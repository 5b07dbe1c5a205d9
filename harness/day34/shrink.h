#pragma once
// Day 34's step failures, shrunk (harness/shrink.h): the same kernel and
// kind of grid (the course's, seeded, hand-made) on smaller sides, keeping
// what the tile rules make of the interior (a partial last tile in x, in y,
// or whole tiles, as the failing grid had), the smallest sides first. The
// course's kernels take square grids, so the side is the one number shrunk;
// the steps stay the gate's (kCheckSteps). Each candidate is one runner call.
// A grid file's grid (grid_file.h) is the instructor's or the student's own,
// and is not shrunk.
#include <string>
#include <vector>

#include "cases.h"
#include "harness/shrink.h"

namespace day34::shrink {

// 30 s: a candidate that faults ends its runner, and the next call starts
// another (about 1.5 s on the H200 under the suite); most shrink in under 1 s.
constexpr grading::ShrinkBudget kBudget{40, 30.0};

// The same grid kind on smaller sides: every side up to 12 (an interior of
// at most 10 x 10) whose interior is partial in y as the failing one's is,
// then the interior halved, quartered, ... keeping its remainders by the
// tile sides (so partial stays partial, whole stays whole).
std::vector<cases::GridSpec> candidates(const cases::GridSpec& from);

// The grid as rows of numbers, each cell of `got` that `wrong` marks with a
// '*' after it (grids up to 16 on a side; larger ones are only named).
std::string gridText(int n, const std::vector<float>& cells, const std::vector<bool>& wrong);

// The cells of `got` that 34.stencil finds wrong (gates.h's cellMatches).
std::vector<bool> wrongCells(const std::vector<float>& got, const std::vector<double>& want);

}  // namespace day34::shrink
