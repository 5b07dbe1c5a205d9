#pragma once
// The initial grids day 34 grades on, besides the course's own (course/
// heat_initial.h): seeded grids whose four sides each hold their own values,
// varying along the side, and whose interior is seeded too; and one
// hand-made grid no generator draws. The course's grid is cold on three
// sides and uniform on the fourth, so a kernel that reads the wrong side, or
// the wrong cell along a side, can still match it; here it cannot. Every
// value is in (0, 1] on a seeded ring and [0, 1] elsewhere, so at r <= 1/4
// the exact solution stays in [0, 1] (a clamp to [0, 1] is harmless there
// and only 34.unstable sees it, as on the course's grid). None is subnormal
// (a seeded value is 0 or at least 2^-24), so a timed run's input, scaled by
// 2^-8 .. 2^8 (runner.cu), scales its float output exactly alike.
#include <cstdint>
#include <string>
#include <vector>

#include "keyed_grid.h"

namespace day34 {

// The key of one seeded grid: the first 64 bits of SHA-256 of what the grid
// is for (gate, kernel, size) and the grading seed, as msw's derive. A grid
// may give its key away (splitmix64 runs backwards), never the seed, so no
// grid tells what another call's grid is; the same seed replays them all.
uint64_t deriveSeed(uint64_t seed, const std::string& purpose);

// An n x n grid (n >= 3), row-major: each ring cell drawn uniformly from its
// side's band (keyed_grid.h: SideBand), each interior cell from [0, 1); the
// top-left corner is 1, the grid's max. Cell by cell seededCell, so the
// runner makes the same grid on the device from the key alone.
std::vector<float> seededGrid(int n, uint64_t seed);

// A hand-made n x n grid no generator here draws: a checkerboard of 0 and 1
// inside (the stencil's hardest pattern), a hot 7 x 7 square in the middle,
// a hot top row and a cold rest of the ring.
std::vector<float> handMadeGrid(int n);

}  // namespace day34
