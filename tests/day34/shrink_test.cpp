// Day 34's shrinker off the GPU: the candidate sides keep the grid's kind and
// its interior's tile remainders, and reach an interior of 10 x 10 or less;
// the text marks wrong cells.
#include <gtest/gtest.h>

#include "heat_constants.h"
#include "shrink.h"

namespace {

using day34::cases::GridKind;
using day34::cases::GridSpec;

TEST(Day34Shrink, CandidatesAreSmallerGridsOfTheSameKindAndTileRemainders) {
    const GridSpec from{"seeded_517", 517, GridKind::Seeded};  // interior 515: 3 past whole tiles in x, 3 in y
    const std::vector<GridSpec> next = day34::shrink::candidates(from);
    ASSERT_FALSE(next.empty());
    EXPECT_LE(next.front().n, 12);  // the smallest first
    bool halved = false;
    for (const GridSpec& g : next) {
        EXPECT_LT(g.n, from.n);
        EXPECT_EQ(g.kind, GridKind::Seeded);
        EXPECT_EQ(g.name, "seeded_" + std::to_string(g.n));
        EXPECT_NE((g.n - 2) % day34::kTileY, 0) << g.n << ": the interior stays partial in y";
        if (g.n > 12) {
            EXPECT_EQ((g.n - 2) % day34::kTileX, (from.n - 2) % day34::kTileX) << g.n;
            halved = true;
        }
    }
    EXPECT_TRUE(halved);
    // Whole tiles in y stay whole: the course's 2048 has 2046 = 255 * 8 + 6, partial; 34 has 32, whole.
    for (const GridSpec& g : day34::shrink::candidates({"seeded_34", 34, GridKind::Seeded})) {
        EXPECT_EQ((g.n - 2) % day34::kTileY, 0) << g.n;
    }
    EXPECT_TRUE(day34::shrink::candidates({"seeded_3", 3, GridKind::Seeded}).empty());
    // A grid file's grid is the one to grade on, whole.
    EXPECT_TRUE(day34::shrink::candidates({"file0_a_txt", 131, GridKind::File, "/x/a.txt"}).empty());
}

TEST(Day34Shrink, TheGridTextMarksTheWrongCells) {
    const std::vector<float> got = {0, 0, 0, 0, 0.5f, 0, 0, 0, 0};
    const std::vector<double> want = {0, 0, 0, 0, 0.25, 0, 0, 0, 0};
    const std::vector<bool> wrong = day34::shrink::wrongCells(got, want);
    EXPECT_EQ(day34::shrink::gridText(3, got, wrong), "0 0 0 / 0 0.5* 0 / 0 0 0");
}

}  // namespace
