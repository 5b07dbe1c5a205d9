// Day 34's picture of a shrunk grid (harness/day34/picture.h): a heat map of
// the cells got, a NaN cell blank, the wrong cells outlined.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include "picture.h"

namespace {

using Json = nlohmann::json;

TEST(GridPicture, AHeatMapWithTheWrongCellsOutlined) {
    const day34::GridPicture g{2, {1.0f, NAN, 3.0f, 4.0f}, {1.0, 2.0, 3.0, 4.5}, {false, true, false, true}};
    const auto p = day34::draw(g);
    ASSERT_TRUE(p);
    const Json cells = Json::parse(p->spec)["data"]["values"];
    ASSERT_EQ(cells.size(), 4u);
    EXPECT_TRUE(cells[1]["wrong"].get<bool>());
    EXPECT_FALSE(cells[2]["wrong"].get<bool>());
    EXPECT_TRUE(cells[1]["got"].is_null());  // a NaN cell: drawn blank
    EXPECT_EQ(cells[3]["row"], 1);
    EXPECT_EQ(cells[3]["column"], 1);
    EXPECT_NE(p->caption.find("the 2 cells that differ"), std::string::npos) << p->caption;
    EXPECT_NE(p->spec.find(grading::kWrongColour), std::string::npos);
}

TEST(GridPicture, NothingIsDrawnOfAGridTooLargeOrWithoutItsCells) {
    EXPECT_FALSE(day34::draw(day34::GridPicture{2, {1.0f}, {1.0}, {}}));
    const int side = day34::kMostDrawnSide + 1;
    const size_t cells = static_cast<size_t>(side) * side;
    EXPECT_FALSE(day34::draw(day34::GridPicture{side, std::vector<float>(cells), std::vector<double>(cells), {}}));
}

}  // namespace
