// Day 38's picture of a shrunk graph (harness/day38/picture.h): vertices in
// columns by wanted distance, or by distance from the frontier where none
// came back; the unreached last; the wrong ones red; nothing past the size
// drawn.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "picture.h"

namespace {

using Json = nlohmann::json;

Json nodesOf(const grading::Picture& p) { return Json::parse(p.spec)["layer"][1]["data"]["values"]; }

TEST(GraphPicture, VerticesSitInColumnsByWantedDistanceAndTheWrongOnesAreMarked) {
    day38::GraphPicture g;
    g.labels = {"v0", "v1", "v2", "v3", "x"};
    g.edges = {{0, 1}, {1, 2}, {2, 3}};
    g.want = {0, 1, 2, 3, -1};
    g.got = {0, 1, 2, 1, -1};
    g.marked = {0};
    g.markedAs = "source";
    g.wrong = {3};
    const auto p = day38::draw(g);
    ASSERT_TRUE(p);
    const Json spec = Json::parse(p->spec);
    EXPECT_EQ(spec["layer"][0]["data"]["values"].size(), 3u);  // the edges
    const Json nodes = nodesOf(*p);
    ASSERT_EQ(nodes.size(), 5u);
    const std::vector<std::string> status = {"source", "right", "right", "wrong", "right"};
    for (size_t v = 0; v < 5; ++v) EXPECT_EQ(nodes[v]["status"], status[v]) << "vertex " << v;
    EXPECT_EQ(nodes[3]["x"], 3);  // its wanted distance, not the 1 it got
    EXPECT_EQ(nodes[4]["x"], 4);  // unreached: the last column
    EXPECT_EQ(nodes[3]["text"], "3 3/1");
    EXPECT_NE(p->caption.find("red: wrong (1)"), std::string::npos) << p->caption;
    EXPECT_NE(p->spec.find(grading::kWrongColour), std::string::npos);
}

TEST(GraphPicture, WithoutDistancesTheFrontierLaysItOut) {
    day38::GraphPicture g;
    g.labels = {"a", "b", "c"};
    g.edges = {{0, 1}, {1, 2}};
    g.marked = {1};
    g.markedAs = "frontier";
    g.wrong = {2};
    const auto p = day38::draw(g);
    ASSERT_TRUE(p);
    const Json nodes = nodesOf(*p);
    EXPECT_EQ(nodes[0]["x"], 1);
    EXPECT_EQ(nodes[1]["x"], 0);
    EXPECT_EQ(nodes[1]["status"], "frontier");
    EXPECT_EQ(nodes[2]["status"], "wrong");
}

TEST(GraphPicture, NothingIsDrawnOfAnEmptyOrAnOversizedGraph) {
    EXPECT_FALSE(day38::draw(day38::GraphPicture{}));
    day38::GraphPicture big;
    big.labels.assign(day38::kMostDrawnVertices + 1, "v");
    EXPECT_FALSE(day38::draw(big));
}

}  // namespace
