// The day 34 host reference and inputs on hand-made data: the course's
// initial condition, the double reference worked by hand on a 6 x 6 grid, the
// maximum principle in double and in float, the seeded grids, the graded
// sizes and the time limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "cases.h"
#include "gates.h"
#include "grids.h"
#include "harness/sha256.h"
#include "harness/splitmix64.h"
#include "heat_constants.h"
#include "heat_initial.h"
#include "keyed_grid.h"
#include "reference.h"

namespace {

// The course's initial condition on 6 x 6: n / 8 = 0, so the "square" is the
// single cell (3, 3); the left wall is hot.
TEST(Day34Reference, InitialGridOfSixBySix) {
    const std::vector<float> g = day34::initialGrid(6);
    ASSERT_EQ(g.size(), 36u);
    for (int row = 0; row < 6; ++row) {
        for (int col = 0; col < 6; ++col) {
            const float want = (col == 0 || (row == 3 && col == 3)) ? 1.0f : 0.0f;
            EXPECT_EQ(g[row * 6 + col], want) << "row " << row << ", col " << col;
        }
    }
}

TEST(Day34Reference, InitialGridSquareIsOddAndCentred) {
    // n = 2048: n / 8 = 256, square rows and columns 768 .. 1280, 513 wide.
    const std::vector<float> g = day34::initialGrid(day34::kN);
    const size_t n = day34::kN;
    size_t hot = 0;
    for (float v : g) hot += v == 1.0f ? 1 : 0;
    EXPECT_EQ(hot, n + 513u * 513u);  // the wall plus the square (they do not meet)
    EXPECT_EQ(g[767 * n + 768], 0.0f);
    EXPECT_EQ(g[768 * n + 768], 1.0f);
    EXPECT_EQ(g[1280 * n + 1280], 1.0f);
    EXPECT_EQ(g[1281 * n + 1280], 0.0f);
    EXPECT_EQ(g[1280 * n + 1281], 0.0f);
    EXPECT_EQ(day34::maxAbs(g), 1.0f);
}

// At r = 1/4 the centre weight is zero and every new value is the plain
// average of four old ones, so after k steps every value is a multiple of
// 4^-k and exact in double. Worked by hand from the initial grid above; e.g.
// step 1: (1, 1) = (wall 1 + 0 + 0 + 0) / 4, (3, 2) = (0 + hot 1 + 0 + 0) / 4,
// (3, 3) = 0 (its four neighbours are cold); step 2: (1, 1) = (1 + 0 + 0 +
// 1/4) / 4 = 5/16, (2, 2) = (1/4 + 1/4 + 0 + 1/4) / 4 = 3/16.
TEST(Day34Reference, FourStepsOfSixBySixAtAQuarterByHand) {
    const std::vector<float> init = day34::initialGrid(6);
    // Interior rows 1..4, columns 1..4, in units of 4^-k after step k.
    const int want[4][4][4] = {
        {{1, 0, 0, 0}, {1, 0, 1, 0}, {1, 1, 0, 1}, {1, 0, 1, 0}},
        {{5, 1, 1, 0}, {6, 3, 0, 2}, {7, 1, 4, 0}, {5, 3, 0, 2}},
        {{23, 9, 1, 3}, {31, 8, 10, 0}, {28, 17, 1, 8}, {26, 6, 9, 0}},
        {{104, 32, 22, 1}, {123, 67, 10, 21}, {138, 43, 44, 1}, {98, 52, 7, 17}},
    };
    for (int steps = 1; steps <= 4; ++steps) {
        const std::vector<double> got = day34::hostReference(init, 6, steps, 0.25);
        const double unit = std::pow(4.0, -steps);
        for (int row = 0; row < 6; ++row) {
            for (int col = 0; col < 6; ++col) {
                const bool ring = row == 0 || col == 0 || row == 5 || col == 5;
                const double expect = ring ? init[row * 6 + col] : want[steps - 1][row - 1][col - 1] * unit;
                EXPECT_EQ(got[row * 6 + col], expect) << "after " << steps << " steps, row " << row << ", col " << col;
            }
        }
    }
}

// One step at the course's r, cell by cell as weights: (1 - 4r) * centre + r * neighbours.
TEST(Day34Reference, OneStepAtPointTwoFourIsTheWeightedSum) {
    const std::vector<float> init = day34::initialGrid(6);
    const double r = 0.24;
    const std::vector<double> got = day34::hostReference(init, 6, 1, r);
    EXPECT_DOUBLE_EQ(got[1 * 6 + 1], r * 1.0);               // the wall to the west
    EXPECT_DOUBLE_EQ(got[3 * 6 + 3], (1.0 - 4.0 * r) * 1.0);  // the hot cell itself: 0.04
    EXPECT_DOUBLE_EQ(got[3 * 6 + 2], r * 1.0);               // hot cell to the east
    EXPECT_DOUBLE_EQ(got[3 * 6 + 1], r * 1.0);               // wall west; hot cell two away does not count
    EXPECT_DOUBLE_EQ(got[1 * 6 + 3], 0.0);
    EXPECT_DOUBLE_EQ(got[0], 1.0);  // ring copied
}

// The discrete maximum principle, in double, for the course's initial
// condition: at r <= 1/4 every weight is non-negative and they sum to one, so
// the values stay inside [0, 1]. Past the bound the checkerboard grows.
TEST(Day34Reference, MaximumPrincipleHoldsInDoubleAtOrUnderAQuarter) {
    const int n = 64;
    const std::vector<float> init = day34::initialGrid(n);
    for (double r : {0.24, 0.25, 0.1}) {
        std::vector<double> cur(init.begin(), init.end());
        std::vector<double> next(cur.size());
        for (int step = 1; step <= day34::kStabilitySteps; ++step) {
            day34::heatStepHost(cur.data(), next.data(), n, r);
            cur.swap(next);
            double lo = 0.0, hi = 0.0;
            for (double v : cur) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            ASSERT_LE(hi, 1.0 + 1e-12) << "r = " << r << ", step " << step;
            ASSERT_GE(lo, -1e-12) << "r = " << r << ", step " << step;
        }
    }
}

TEST(Day34Reference, PastAQuarterTheGridGrowsInDouble) {
    const int n = 64;
    const std::vector<double> got =
        day34::hostReference(day34::initialGrid(n), n, day34::kStabilitySteps, day34::kUnstableR);
    EXPECT_GT(day34::maxAbs(got), 1e3);
}

TEST(Day34Reference, MaxAbsSkipsNaNAndCountNonFiniteSeesIt) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(day34::maxAbs(std::vector<float>{0.5f, nan, -2.0f}), 2.0f);
    EXPECT_EQ(day34::countNonFinite({0.5f, nan, -inf, 1.0f}), 2);
    EXPECT_TRUE(day34::onRing(0, 4));
    EXPECT_TRUE(day34::onRing(7, 4));   // row 1, col 3
    EXPECT_FALSE(day34::onRing(5, 4));  // row 1, col 1
    EXPECT_TRUE(day34::onRing(13, 4));  // row 3, col 1
}

// ---- the seeded grids

TEST(Day34Grids, EachSideHoldsItsOwnBandAndVariesAlongIt) {
    const int n = 40;
    const std::vector<float> g = day34::seededGrid(n, 12345);
    ASSERT_EQ(g.size(), static_cast<size_t>(n * n));
    const auto inBand = [](float v, day34::SideBand b) { return v >= b.lo && v <= b.hi; };
    std::set<float> top, bottom, left, right;
    for (int k = 0; k < n; ++k) {
        EXPECT_TRUE(inBand(g[k], day34::kTopBand)) << "top, col " << k << ": " << g[k];
        EXPECT_TRUE(inBand(g[(n - 1) * n + k], day34::kBottomBand)) << "bottom, col " << k;
        top.insert(g[k]);
        bottom.insert(g[(n - 1) * n + k]);
    }
    for (int row = 1; row + 1 < n; ++row) {
        EXPECT_TRUE(inBand(g[row * n], day34::kLeftBand)) << "left, row " << row;
        EXPECT_TRUE(inBand(g[row * n + n - 1], day34::kRightBand)) << "right, row " << row;
        left.insert(g[row * n]);
        right.insert(g[row * n + n - 1]);
        for (int col = 1; col + 1 < n; ++col) {
            EXPECT_GE(g[row * n + col], 0.0f);
            EXPECT_LE(g[row * n + col], 1.0f);
        }
    }
    // Varying along every side: nearly every cell its own value.
    EXPECT_GT(top.size(), static_cast<size_t>(n / 2));
    EXPECT_GT(bottom.size(), static_cast<size_t>(n / 2));
    EXPECT_GT(left.size(), static_cast<size_t>(n / 2));
    EXPECT_GT(right.size(), static_cast<size_t>(n / 2));
    // No two bands overlap, and none reaches 0 (the course's cold).
    const std::vector<day34::SideBand> bands = {day34::kTopBand, day34::kBottomBand, day34::kLeftBand, day34::kRightBand};
    for (size_t i = 0; i < bands.size(); ++i) {
        EXPECT_GT(bands[i].lo, 0.0f);
        EXPECT_LE(bands[i].hi, 1.0f);
        for (size_t j = i + 1; j < bands.size(); ++j) {
            EXPECT_TRUE(bands[i].hi < bands[j].lo || bands[j].hi < bands[i].lo) << i << " and " << j << " overlap";
        }
    }
}

TEST(Day34Grids, TheMaxIsOneInTheTopLeftCorner) {
    for (int n : {3, 7, 131}) {
        const std::vector<float> g = day34::seededGrid(n, 99);
        EXPECT_EQ(g[0], 1.0f) << n;
        EXPECT_EQ(day34::maxAbs(g), 1.0f) << n;
    }
}

TEST(Day34Grids, TheHandMadeGridIsACheckerboardWithAHotSquareAndAHotTopRow) {
    const int n = 97;
    const std::vector<float> g = day34::handMadeGrid(n);
    ASSERT_EQ(g.size(), static_cast<size_t>(n) * n);
    const auto at = [&](int row, int col) { return g[static_cast<size_t>(row) * n + col]; };
    EXPECT_EQ(at(0, 50), 1.0f);         // the hot top row
    EXPECT_EQ(at(n - 1, 50), 0.0f);     // the cold rest of the ring
    EXPECT_EQ(at(40, 0), 0.0f);
    EXPECT_EQ(at(48, 48), 1.0f);        // the hot square
    EXPECT_EQ(at(1, 1), 0.0f);          // the checkerboard
    EXPECT_EQ(at(1, 2), 1.0f);
    EXPECT_EQ(day34::maxAbs(g), 1.0f);  // within [0, 1]: the max principle holds at r <= 1/4
}

TEST(Day34Grids, TheSameSeedGivesTheSameGridAndAnotherSeedAnother) {
    EXPECT_EQ(day34::seededGrid(33, 7), day34::seededGrid(33, 7));
    const std::vector<float> a = day34::seededGrid(33, 7);
    const std::vector<float> b = day34::seededGrid(33, 8);
    size_t same = 0;
    for (size_t i = 1; i < a.size(); ++i) same += a[i] == b[i] ? 1 : 0;
    EXPECT_LT(same, a.size() / 100);
    // Fixed values: the generator is ours, identical on every machine.
    grading::SplitMix64 rng(0);
    EXPECT_EQ(rng.next(), 0xe220a8397b1dcdafull);
}

TEST(Day34Grids, AGridsKeyIsSha256OfItsPurposeAndTheSeed) {
    EXPECT_NE(day34::deriveSeed(1, "34.stencil/tiled"), day34::deriveSeed(1, "34.ring/tiled"));
    EXPECT_NE(day34::deriveSeed(1, "34.stencil/tiled"), day34::deriveSeed(2, "34.stencil/tiled"));
    EXPECT_EQ(day34::deriveSeed(1, "34.stencil/tiled"), day34::deriveSeed(1, "34.stencil/tiled"));
    // The first 16 hex digits of the digest, nothing invertible about it.
    const std::string digest = grading::sha256Hex("day34 grid 34.stencil/tiled/seeded_131\n1234");
    EXPECT_EQ(day34::deriveSeed(1234, "34.stencil/tiled/seeded_131"), std::stoull(digest.substr(0, 16), nullptr, 16));
    // What a case sends is the grid of that key.
    const day34::cases::GridSpec g{"seeded_131", 131, day34::cases::GridKind::Seeded};
    EXPECT_EQ(day34::cases::initialGrid(g, 1234, "34.stencil/tiled"),
              day34::seededGrid(131, day34::deriveSeed(1234, "34.stencil/tiled/seeded_131")));
}

TEST(Day34Grids, EveryCallGetsItsOwnGridTheCoursesGridNeverChanges) {
    using day34::cases::GridSpec;
    const GridSpec seeded{"seeded_131", 131, day34::cases::GridKind::Seeded};
    EXPECT_NE(day34::cases::initialGrid(seeded, 5, "34.stencil/tiled"), day34::cases::initialGrid(seeded, 5, "34.stencil/global"));
    EXPECT_NE(day34::cases::initialGrid(seeded, 5, "34.stencil/tiled"), day34::cases::initialGrid(seeded, 6, "34.stencil/tiled"));
    EXPECT_EQ(day34::cases::initialGrid(seeded, 5, "34.ring/tiled"), day34::cases::initialGrid(seeded, 5, "34.ring/tiled"));
    const GridSpec course = day34::cases::courseGrid();
    EXPECT_EQ(course.n, day34::kN);
    EXPECT_EQ(day34::cases::initialGrid(course, 5, "x"), day34::initialGrid(day34::kN));
    EXPECT_EQ(day34::cases::initialGrid(course, 6, "y"), day34::initialGrid(day34::kN));
}

// The premise of 34.max_principle and 34.unstable on a seeded grid, in the
// kernels' own float arithmetic: at r <= 1/4 the max stays within the slack
// for 400 steps, past it the checkerboard grows past the initial max.
std::vector<float> floatSteps(std::vector<float> a, int n, float r, int steps) {
    std::vector<float> b = a;
    for (int s = 0; s < steps; ++s) {
        for (int row = 1; row + 1 < n; ++row) {
            for (int col = 1; col + 1 < n; ++col) {
                const size_t c = static_cast<size_t>(row) * n + col;
                const float centre = a[c];
                const float around = a[c - 1] + a[c + 1] + a[c - n] + a[c + n];
                b[c] = centre + r * (around - 4.0f * centre);
            }
        }
        a.swap(b);
    }
    return a;
}

TEST(Day34Grids, SeededGridsKeepTheMaximumPrincipleInFloatAndBlowUpPastIt) {
    const int n = 517;  // the size 34.max_principle and 34.unstable use
    const std::vector<float> init = day34::seededGrid(n, 2024);
    for (float r : {day34::kStableR, day34::kBoundaryR}) {
        const std::vector<float> out = floatSteps(init, n, r, day34::kStabilitySteps);
        EXPECT_EQ(day34::countNonFinite(out), 0) << r;
        EXPECT_LE(day34::maxAbs(out), 1.0f * (1.0f + day34::kMaxPrincipleSlack)) << r;
    }
    const std::vector<float> out = floatSteps(init, n, day34::kUnstableR, day34::kStabilitySteps);
    EXPECT_EQ(day34::countNonFinite(out), 0);
    EXPECT_GT(day34::maxAbs(out), 1e6f);
}

// What a timed run's check relies on (runner.cu, timing): on a keyed grid,
// a step written another way (its own order of sums, a fused multiply-add)
// stays within kTimedRunTolerance of the course's float step on every cell,
// with ten times room; a run that did not step its own grid (its input left
// as it was, another r, another key's answer) is off on nearly every cell.
TEST(Day34Grids, ATimedRunsKeyedGridTellsAStepFromNone) {
    for (const int n : {131, 517}) {
        for (const float r : {day34::kStableR, day34::cases::kShapeR}) {
            const size_t cells = static_cast<size_t>(n) * n;
            std::vector<float> grid(cells), other(cells);
            for (size_t i = 0; i < cells; ++i) {
                grid[i] = day34::keyedCell(day34::timedRunKey(77, 2, 1), i);
                other[i] = day34::keyedCell(day34::timedRunKey(77, 2, 2), i);
            }
            const std::vector<float> want = floatSteps(grid, n, r, 1);
            std::vector<float> rewritten = grid;
            for (int row = 1; row + 1 < n; ++row) {
                for (int col = 1; col + 1 < n; ++col) {
                    const size_t c = static_cast<size_t>(row) * n + col;
                    const float vertical = grid[c - n] + grid[c + n];
                    const float horizontal = grid[c - 1] + grid[c + 1];
                    rewritten[c] = std::fma(r, vertical + horizontal, (1.0f - 4.0f * r) * grid[c]);
                }
            }
            const auto offCells = [&](const std::vector<float>& got, float tolerance) {
                size_t off = 0;
                for (size_t i = 0; i < cells; ++i) {
                    off += !(std::fabs(got[i] - want[i]) <= tolerance * std::max(1.0f, std::fabs(want[i])));
                }
                return off;
            };
            const std::string where = std::to_string(n) + " at r = " + std::to_string(r);
            EXPECT_EQ(offCells(rewritten, day34::kTimedRunTolerance / 10), 0u) << where;
            const size_t interior = static_cast<size_t>(n - 2) * (n - 2);
            EXPECT_GT(offCells(grid, day34::kTimedRunTolerance), interior * 99 / 100) << where;
            EXPECT_GT(offCells(floatSteps(grid, n, r / 2, 1), day34::kTimedRunTolerance), interior * 99 / 100) << where;
            EXPECT_GT(offCells(floatSteps(other, n, r, 1), day34::kTimedRunTolerance), cells * 99 / 100) << where;
        }
    }
    for (int run = 0; run < 100; ++run) {
        const float v = day34::keyedCell(day34::timedRunKey(5, 0, run), 0);
        EXPECT_TRUE(v >= -1.0f && v < 1.0f) << v;
    }
}

// A keyed grid's cell is its 24 random bits times 2^-23, less 1, to the
// bit: the runner makes the same cells on the device from the same
// splitmix64 output, with or without a fused multiply-add.
TEST(Day34Grids, AKeyedCellIsItsBitsScaledExactly) {
    for (const uint64_t key : {uint64_t{0}, uint64_t{5}, ~uint64_t{0}}) {
        for (size_t i = 0; i < 4096; i += 7) {
            const float bits = static_cast<float>(grading::splitMix64At(key, i) >> 40);
            EXPECT_EQ(day34::keyedCell(key, i), bits * 0x1.0p-23f - 1.0f) << key << ", " << i;
            EXPECT_EQ(day34::keyedUnit(key, i), bits * 0x1.0p-24f) << key << ", " << i;
        }
    }
}

// ---- the graded sizes and the time limits

TEST(Day34Cases, TheGradedSizesCoverPartialTilesInBothDirections) {
    std::set<int> sizes;
    bool course = false;
    for (const day34::cases::GridSpec& g : day34::cases::stepGrids()) {
        sizes.insert(g.n);
        course = course || (g.kind == day34::cases::GridKind::Course && g.n == day34::kN);
    }
    EXPECT_TRUE(course);
    EXPECT_TRUE(sizes.count(3));  // a single interior cell
    bool smaller = false, whole = false, partialX = false, partialBoth = false;
    for (int n : sizes) {
        const int m = n - 2;
        smaller = smaller || m < day34::kTileY;
        whole = whole || (m % day34::kTileX == 0);
        partialX = partialX || (m % day34::kTileX != 0 && m % day34::kTileY == 0 && m > day34::kTileX);
        partialBoth = partialBoth || (m % day34::kTileY != 0 && m > day34::kTileX);
    }
    EXPECT_TRUE(smaller && whole && partialX && partialBoth);
    // At the limits: the largest grid the runner accepts, and tiles a cell
    // short of whole both ways.
    EXPECT_TRUE(sizes.count(day34::cases::kLargestSide));
    const int m = day34::cases::kReciprocalSide - 2;
    EXPECT_TRUE(sizes.count(day34::cases::kReciprocalSide));
    EXPECT_EQ(m % day34::kTileX, day34::kTileX - 1);
    EXPECT_EQ(m % day34::kTileY, day34::kTileY - 1);
}

// Tiles numbered along the rows by one block index, the tile row found as
// the planted tile_row_in_float finds it: block b * (1 / tiles a row), both
// rounded to float. Returns how many blocks land in the wrong tile row.
int blocksInTheWrongRow(int n) {
    const int interior = n - 2;
    const int perRow = (interior + day34::kTileX - 1) / day34::kTileX;
    const int rows = (interior + day34::kTileY - 1) / day34::kTileY;
    volatile float tiles = static_cast<float>(perRow);  // computed as the device does, not folded
    const float reciprocal = 1.0f / tiles;
    int wrong = 0;
    for (int b = 0; b < perRow * rows; ++b) {
        volatile float product = static_cast<float>(b) * reciprocal;
        if (static_cast<int>(product) != b / perRow) ++wrong;
    }
    return wrong;
}

TEST(Day34Cases, OnlyTheReciprocalSizeSendsAFloatNumberedBlockToTheWrongTileRow) {
    for (const day34::cases::GridSpec& g : day34::cases::stepGrids()) {
        if (g.n == day34::cases::kReciprocalSide) {
            EXPECT_EQ(blocksInTheWrongRow(g.n), 55) << g.name;  // plants.cmake: 55 tiles of 256 cells lost
        } else {
            EXPECT_EQ(blocksInTheWrongRow(g.n), 0) << g.name;
        }
    }
    // 41 tiles a row is the fewest that goes wrong.
    for (int tiles = 1; tiles < 41; ++tiles) EXPECT_EQ(blocksInTheWrongRow(tiles * day34::kTileX + 2), 0) << tiles;
}

TEST(Day34Cases, TheTimedGatesChangeShapeBetweenCalls) {
    EXPECT_LT(day34::cases::shapeGrid().n, day34::cases::timingGrid().n);
    EXPECT_NE(day34::cases::kShapeR, day34::kStableR);
    EXPECT_LE(day34::cases::kShapeR, 0.25f);  // still stable: one step's output stays in range
}

TEST(Day34Cases, DescribeNamesTheTiles) {
    using day34::cases::describe;
    using day34::cases::GridKind;
    EXPECT_EQ(describe({"seeded_131", 131, GridKind::Seeded}),
              "a seeded 131 x 131 grid (interior 129 x 129 in 5 x 17 tiles of 32 x 8, the last ones partial in x and y)");
    EXPECT_EQ(describe({"seeded_202", 202, GridKind::Seeded}),
              "a seeded 202 x 202 grid (interior 200 x 200 in 7 x 25 tiles of 32 x 8, the last column of tiles "
              "partial in x)");
    EXPECT_EQ(describe({"seeded_34", 34, GridKind::Seeded}),
              "a seeded 34 x 34 grid (interior 32 x 32 in 1 x 4 tiles of 32 x 8, whole tiles only)");
    EXPECT_EQ(describe({"hand_made_97", 97, GridKind::HandMade}),
              "the hand-made 97 x 97 grid (interior 95 x 95 in 3 x 12 tiles of 32 x 8, the last ones partial in x and "
              "y)");
    EXPECT_EQ(describe(day34::cases::courseGrid()),
              "the course's 2048 x 2048 grid (interior 2046 x 2046 in 64 x 256 tiles of 32 x 8, the last ones partial "
              "in x and y)");
}

TEST(Day34Cases, TimeLimitsScaleWithCellsAndSteps) {
    using namespace day34::cases;
    EXPECT_GT(stepSeconds(3, 4), kCallSeconds);
    EXPECT_LT(stepSeconds(3, 4), kCallSeconds + 1);
    EXPECT_GT(stepSeconds(2048, 4), stepSeconds(517, 4));
    EXPECT_GT(stepSeconds(517, 8), stepSeconds(517, 4));
    EXPECT_GT(stabilitySeconds(2048, 400, 2), stabilitySeconds(2048, 400, 1));
    const std::vector<int32_t> all = {0, 100, 1};
    const std::vector<int32_t> never = {0};
    EXPECT_GT(policySeconds(2048, 1000, all), policySeconds(2048, 1000, never));
    EXPECT_GT(policySeconds(2048, 1000, all), policySeconds(517, 1000, all));
    EXPECT_GT(timingSeconds(2048, 3, 10), timingSeconds(2048, 0, 1));
    // The largest stays well inside a ctest run: the policy loops at 2048.
    EXPECT_LT(policySeconds(2048, 1000, all), 300);
}

}  // namespace
