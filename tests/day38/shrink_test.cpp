// Day 38's shrinker off the GPU: relabelling, the candidates, the file, and
// whole searches against judges that stand in for buggy mappings, from the
// graded graphs down to a few vertices within the day's budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "graph.h"
#include "graph_generators.h"
#include "shrink.h"

namespace {

using day38::shrink::Input;

TEST(Day38Shrink, KeepRenumbersDenselyAndKeepsPinnedVertices) {
    // 0-1, 1-2, 2-3, 3-4; drop 1-2 and 2-3: vertex 2 goes, 3 and 4 become 2 and 3.
    const grading::Graph g = grading::buildCsr(5, {"a", "b", "c", "d", "e"}, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
    const Input in = day38::shrink::searchInput(g, 4);
    const Input out = day38::shrink::keep(in, {false, true, true, false}, {});
    EXPECT_EQ(out.vertexCount, 4);
    EXPECT_EQ(out.words, (std::vector<std::string>{"a", "b", "d", "e"}));
    EXPECT_EQ(out.edges, (std::vector<std::pair<int, int>>{{0, 1}, {2, 3}}));
    EXPECT_EQ(out.pinned, std::vector<int>{3});
    // A pinned vertex with no edge left stays (a frontier's zero-degree vertex).
    day38::Expansion e;
    e.before = {0, 1, -1, -1, -1};
    e.frontier = {2, 1};
    e.level = 1;
    const Input ex = day38::shrink::keep(day38::shrink::expansionInput(g, e), {true, true, true, true}, {});
    EXPECT_EQ(ex.vertexCount, 2);
    EXPECT_EQ(ex.pinned, (std::vector<int>{1, 0}));
    EXPECT_EQ(ex.before, (std::vector<int>{1, -1}));
}

TEST(Day38Shrink, EveryCandidateIsSmaller) {
    const grading::Graph g = grading::rmatGraph(8, 4, 3);
    const Input in = day38::shrink::searchInput(g, grading::highestDegreeVertex(g));
    const std::vector<Input> next = day38::shrink::candidates(in);
    ASSERT_FALSE(next.empty());
    for (const Input& c : next) {
        EXPECT_TRUE(c.edges.size() < in.edges.size() || c.vertexCount < in.vertexCount);
        ASSERT_EQ(c.pinned.size(), 1u);
        EXPECT_EQ(c.words[c.pinned.front()], in.words[in.pinned.front()]) << "the source is kept";
    }
}

TEST(Day38Shrink, TheFileLoadsBackWithItsSource) {
    const grading::Graph g = grading::buildCsr(3, {"v7", "v8", "v9"}, {{0, 1}, {1, 2}});
    std::istringstream file(day38::shrink::fileText(day38::shrink::searchInput(g, 2)));
    const auto back = grading::parseGraph(file, "counterexample");
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->edges, g.edges);
    EXPECT_EQ(grading::findVertex(*back, grading::commentValue(*back, "default source")), 2);
}

// A search "wrong" wherever some reached vertex has degree 3 or more: the
// shape of a mapping that fails on a vertex with several edges.
grading::GateResult hubJudge(const Input& in) {
    const grading::Graph g = day38::shrink::graphOf(in);
    const grading::HostBfs bfs = grading::bfsHost(g, in.pinned.front());
    for (int v : bfs.order) {
        if (g.degree(v) >= 3) return grading::GateResult::fail("38.distances", "vertex " + std::to_string(v) + ": got 9, want 1");
    }
    return grading::GateResult::pass("38.distances");
}

TEST(Day38Shrink, AGradedGraphShrinksToAFewVerticesWithinTheBudget) {
    for (const grading::Graph& g : {grading::rmatGraph(15, 16, 7), grading::componentsGraph(7), grading::gridGraph(256, 192)}) {
        const Input start = day38::shrink::searchInput(g, grading::highestDegreeVertex(g));
        const grading::GateResult failure = hubJudge(start);
        ASSERT_FALSE(failure.passed);
        grading::Shrinker<Input> s;
        s.candidates = day38::shrink::candidates;
        s.judge = [](const Input& in, double) { return hubJudge(in); };
        // Calls only: this machine's seconds are not the GPU's.
        const auto found = grading::shrinkFailure(start, failure, s, {day38::shrink::kBudget.calls, 1e9});
        EXPECT_TRUE(found.smaller);
        EXPECT_LE(found.input.vertexCount, 12) << day38::shrink::describe(found.input) << " after " << found.calls << " calls";
        EXPECT_FALSE(hubJudge(found.input).passed);
    }
}

}  // namespace
