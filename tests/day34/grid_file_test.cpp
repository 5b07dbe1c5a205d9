// Grid files (grid_file.h) off the GPU: what the shrinker writes loads back
// cell for cell, a malformed file is refused naming its line, and every file
// this build grades on (GRADING_DAY34_GRIDS) loads.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cases.h"
#include "grid_file.h"
#include "harness/day.h"

namespace {

using day34::grids::GridFile;
using day34::grids::gridFileText;
using day34::grids::loadGridFile;
using day34::grids::parseGridFile;

TEST(GridFiles, WhatIsWrittenLoadsBackCellForCell) {
    const std::vector<float> cells = {0, 1e-7f, 3.14159274f, -2, 0.5f, 1e30f, 7, 8, 0.1f};
    const std::string text = gridFileText("day 34 counterexample: a seeded 3 x 3 grid", 3, cells);
    EXPECT_EQ(text.substr(0, text.find('\n')), "# day 34 counterexample: a seeded 3 x 3 grid");
    const grading::Expected<GridFile> g = parseGridFile(text, "c.txt");
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_EQ(g->n, 3);
    EXPECT_EQ(g->cells, cells);  // %.9g: every float exactly
}

TEST(GridFiles, CommentsBlankLinesAndCarriageReturnsAreAllowed) {
    const grading::Expected<GridFile> g = parseGridFile("# a\r\n\r\n3\r\n1 2 3\r\n# mid\n4 5 6\n7 8 9\n\n", "c.txt");
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_EQ(g->cells.back(), 9.0f);
}

TEST(GridFiles, AMalformedFileIsRefusedNamingItsLine) {
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"", "g.txt: no grid: the side and its rows are missing"},
        {"# only a comment\n", "g.txt: no grid"},
        {"2\n1 2\n3 4\n", "g.txt:1: the grid's side must be a number from 3 to 8192, got \"2\""},
        {"3x\n", "g.txt:1: the grid's side must be a number"},
        {"99999\n", "g.txt:1: the grid's side must be a number"},
        {"3\n1 2 3\n4 5\n7 8 9\n", "g.txt:3: row 1 has 2 cells, want 3"},
        {"3\n1 2 3\n4 5 6 7\n", "g.txt:3: row 1 has more than 3 cells, want 3"},
        {"# c\n3\n1 2 3\n4 nan 6\n", "g.txt:4: cell 1 of row 1 is not a finite number: \"nan\""},
        {"3\n1 2 3\n4 5 6\n7 8 1e99\n", "g.txt:4: cell 2 of row 2 is not a finite number: \"1e99\""},
        {"3\n1 2 3\n4 5 6\n", "g.txt:3: the file ends after 2 of the 3 rows"},
        {"3\n1 2 3\n4 5 6\n7 8 9\n1 1 1\n", "g.txt:5: more than the 3 rows the side says"},
    };
    for (const auto& [text, why] : bad) {
        const grading::Expected<GridFile> g = parseGridFile(text, "g.txt");
        ASSERT_FALSE(g.ok()) << text;
        EXPECT_EQ(g.error().substr(0, why.size()), why) << text;
    }
}

TEST(GridFiles, AMissingFileIsNamed) {
    const grading::Expected<GridFile> g = loadGridFile("/no/such/grid.txt");
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.error(), "/no/such/grid.txt: no grid file there (or it cannot be read)");
}

TEST(GridFiles, AGridFileIsGradedAsItsOwnCase) {
    const std::string path = (std::filesystem::temp_directory_path() / "day34_grid_file_test.txt").string();
    std::ofstream(path) << gridFileText("t", 4, std::vector<float>(16, 0.5f));
    day34::cases::GridSpec g{"file0_day34_grid_file_test_txt", 4, day34::cases::GridKind::File, path};
    EXPECT_EQ(day34::cases::initialGrid(g, 1, "34.stencil/tiled"), std::vector<float>(16, 0.5f));
    EXPECT_NE(day34::cases::describe(g).find("the file day34_grid_file_test.txt's 4 x 4 grid"), std::string::npos)
        << day34::cases::describe(g);
    // Read once a process: a grid file is the same for every call.
    std::ofstream(path) << "4\n1 2\n";
    EXPECT_EQ(day34::cases::initialGrid(g, 1, "34.ring/tiled"), std::vector<float>(16, 0.5f));
    // A malformed one fails its case, naming the file and line.
    const std::string broken = (std::filesystem::temp_directory_path() / "day34_grid_file_test_broken.txt").string();
    std::ofstream(broken) << "4\n1 2\n";
    try {
        day34::cases::initialGrid({"file1_broken", 4, day34::cases::GridKind::File, broken}, 1, "34.stencil/tiled");
        ADD_FAILURE() << "a malformed grid file was graded";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), broken + ":2: row 0 has 2 cells, want 4");
    }
    std::filesystem::remove(path);
    std::filesystem::remove(broken);
}

// Each is graded: a grid of 34.stencil's and 34.ring's, after the others.
TEST(GridFiles, EveryGridNamedAtConfigureTimeLoadsAndIsGraded) {
    int files = 0;
    const std::vector<day34::cases::GridSpec>& graded = day34::cases::stepGrids();
    for (const grading::InstructorFile& file : grading::instructorFiles(DAY34_EXTRA_GRIDS_FILE)) {
        ++files;
        const grading::Expected<GridFile> g = loadGridFile(file.path);
        EXPECT_TRUE(g.ok()) << g.error();
        if (g) std::cout << file.path << ": a " << g->n << " x " << g->n << " grid\n";
        const auto it = std::find_if(graded.begin(), graded.end(), [&](const auto& s) { return s.file == file.path; });
        ASSERT_NE(it, graded.end()) << file.path << " is not among 34.stencil's grids";
        EXPECT_EQ(it->name, file.caseName);
        if (g) EXPECT_EQ(it->n, g->n);
    }
    std::cout << files << " grid file(s) (GRADING_DAY34_GRIDS)\n";
}

}  // namespace
