// Day 38's shrinker off the GPU: relabelling, the candidates, the file, and
// whole searches against judges that stand in for buggy mappings, from the
// graded graphs down to a few vertices within the day's budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "bfs_constants.h"
#include "cases.h"
#include "graph.h"
#include "graph_generators.h"
#include "off_by_one_model.h"
#include "shrink.h"

namespace {

using day38::model::Claims;
using day38::model::faulted;
using day38::model::offByOneJudge;
using day38::model::shrinkOnHost;
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
    const auto next = day38::shrink::candidates(in);
    ASSERT_FALSE(next.empty());
    for (const auto& make : next) {
        const Input c = make();
        EXPECT_TRUE(c.edges.size() < in.edges.size() || c.vertexCount < in.vertexCount);
        ASSERT_EQ(c.pinned.size(), 1u);
        EXPECT_EQ(c.words[c.pinned.front()], in.words[in.pinned.front()]) << "the source is kept";
    }
}

// A walk whose every edge touches its frontier gets no "frontier's own
// edges" candidate: one equal to its input would succeed forever.
TEST(Day38Shrink, EveryWalkCandidateIsSmaller) {
    const grading::Graph g = grading::buildCsr(4, {"a", "b", "c", "d"}, {{0, 1}, {1, 2}, {2, 3}});
    const Input in = day38::shrink::walkInput(g, {1, 2});
    for (const auto& make : day38::shrink::candidates(in)) {
        const Input c = make();
        EXPECT_TRUE(c.edges.size() < in.edges.size() || c.pinned.size() < in.pinned.size())
            << day38::shrink::describe(c);
    }
}

// A path of 40 from the source, then an edge it does not reach: the rows
// that end the column array. No candidate drops that edge while the path
// is long; once the path is short, one does.
TEST(Day38Shrink, ASearchKeepsTheRowsAfterItsReachedOnesUntilTheRestIsSmall) {
    const auto pathThenTail = [](int length) {
        std::vector<std::pair<int, int>> edges;
        for (int v = 0; v + 1 < length; ++v) edges.emplace_back(v, v + 1);
        edges.emplace_back(length, length + 1);
        std::vector<std::string> words;
        for (int v = 0; v < length + 2; ++v) words.push_back("v" + std::to_string(v));
        return day38::shrink::searchInput(grading::buildCsr(length + 2, words, edges), 0);
    };
    const auto dropsTheTail = [](const Input& in) {
        for (const auto& make : day38::shrink::candidates(in)) {
            const Input c = make();
            if (c.vertexCount < 2 || c.words[c.vertexCount - 1] != in.words.back()) return true;
        }
        return false;
    };
    EXPECT_FALSE(dropsTheTail(pathThenTail(40)));
    EXPECT_TRUE(dropsTheTail(pathThenTail(8)));
}

TEST(Day38Shrink, AnExpansionFirstTriesTheFrontiersOwnEdges) {
    // 0-1 1-2 2-3 3-4, frontier {1}: only 0-1 and 1-2 touch it.
    const grading::Graph g = grading::buildCsr(5, {"a", "b", "c", "d", "e"}, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
    day38::Expansion e;
    e.before = {1, 0, 1, -1, -1};
    e.frontier = {1};
    e.level = 0;
    const auto next = day38::shrink::candidates(day38::shrink::expansionInput(g, e));
    ASSERT_FALSE(next.empty());
    const Input first = next.front()();
    EXPECT_EQ(first.words, (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(first.edges, (std::vector<std::pair<int, int>>{{0, 1}, {1, 2}}));
    EXPECT_EQ(first.pinned, std::vector<int>{1});
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
        const auto found = shrinkOnHost(start, failure, hubJudge);
        EXPECT_TRUE(found.smaller);
        EXPECT_LE(found.input.vertexCount, 12) << day38::shrink::describe(found.input) << " after " << found.calls << " calls";
        EXPECT_FALSE(hubJudge(found.input).passed);
    }
}

// From the graded components graph, seeds and claim orders that fail the
// same way (not by the fault), to 12 vertices or fewer within the day's calls.
TEST(Day38Shrink, OffByOneSearchShrinksToAFewVertices) {
    int searched = 0;
    for (uint64_t seed = 1; seed <= 12; ++seed) {
        for (Claims claims : {Claims::InOrder, Claims::Reversed}) {
            const Input start = day38::shrink::searchInput(grading::componentsGraph(seed), 0);
            const grading::GateResult failure = offByOneJudge(start, claims);
            if (failure.passed || faulted(failure)) continue;
            ++searched;
            const auto found = shrinkOnHost(start, failure, [claims](const Input& in) { return offByOneJudge(in, claims); });
            EXPECT_LE(found.input.vertexCount, 12)
                << "seed " << seed << (claims == Claims::Reversed ? ", claims reversed: " : ": ")
                << day38::shrink::describe(found.input) << " after " << found.calls << " calls ("
                << found.otherFailures << " faulted): edges " << day38::shrink::edgesText(found.input) << "; "
                << found.failure.message;
            EXPECT_FALSE(offByOneJudge(found.input, claims).passed);
        }
    }
    EXPECT_GE(searched, 12) << "most seeds fail by a wrong distance";
}

// The same with the claim order shuffled anew on each call, as a GPU's may
// be (each claim, or whole warps' claims), within the day's seconds as
// modelled (off_by_one_model.h: a fault restarts the runner). A search that
// dropped the rows after the reached ones at once faulted on most tries from
// then on (on the H200 it stopped at 341 vertices); since it keeps them
// until the rest is small it misses 12 vertices on 1 of the 42 seeds here
// whose claims are shuffled, where it missed on 8, and on none since a
// number's sign is part of its shape ("want -1", the read reaching another
// component, is the same failure as "want 2"). lab/day38/shrink_sweep.cpp
// runs it over more seeds.
TEST(Day38Shrink, OffByOneSearchShrinksWithinTheSecondsWhateverTheClaimOrder) {
    for (Claims claims : {Claims::Shuffled, Claims::WarpsShuffled}) {
        int searched = 0, small = 0;
        std::string missed;
        for (uint64_t seed = 1; seed <= 48; ++seed) {
            const auto search = day38::model::componentsSearch(seed, claims);
            if (!search) continue;
            ++searched;
            if (search->found.input.vertexCount <= 12) ++small;
            else missed += " " + std::to_string(seed) + " (" + std::to_string(search->found.input.vertexCount) + " vertices)";
        }
        const char* order = claims == Claims::Shuffled ? "claims shuffled: " : "warps' claims shuffled: ";
        EXPECT_GE(searched, 36) << order << "most seeds fail by a wrong distance";
        EXPECT_LE(searched - small, searched / 20) << order << "seeds over 12 vertices when the seconds ran out:" << missed;
    }
}

// The planted shuffle_in_guard on the host: the warp walk's shuffle ladder
// inside the per-lane loop. A lane that left the loop still holds its sum
// (what the undefined read returned on the H200: this gives its checksums),
// and a shuffle from past lane 31 returns the reader's own value.
uint32_t shuffleInGuardWalk(const grading::Graph& g, int u, int repeats) {
    uint32_t acc[32] = {};
    const int first = g.rowOffsets[u], last = g.rowOffsets[u + 1];
    for (int r = 0; r < repeats; ++r) {
        for (int base = first; base < last; base += 32) {
            bool active[32];
            for (int lane = 0; lane < 32; ++lane) {
                active[lane] = base + lane < last;
                if (active[lane]) acc[lane] += static_cast<uint32_t>(g.colIndices[base + lane]) ^ static_cast<uint32_t>(r);
            }
            for (int offset = 16; offset > 0; offset /= 2) {
                uint32_t next[32];
                for (int lane = 0; lane < 32; ++lane) {
                    next[lane] = acc[lane];
                    if (active[lane]) next[lane] += lane + offset < 32 ? acc[lane + offset] : acc[lane];
                }
                std::copy(next, next + 32, acc);
            }
        }
    }
    return acc[0];
}

// The graded walk of the word graph (its first frontier: nearly every
// vertex) down to a few vertices within the day's calls, for a few seeds.
TEST(Day38Shrink, ShuffleInGuardWalkShrinksToAFewVertices) {
    const auto judge = [](const Input& in) {
        const grading::Graph g = day38::shrink::graphOf(in);
        std::vector<uint32_t> got;
        for (int v : in.pinned) got.push_back(shuffleInGuardWalk(g, v, day38::kWalkRepeats));
        return day38::checkWalk(g, 0, in.pinned, got, day38::kWalkRepeats);
    };
    for (uint64_t seed : {604246031u, 3953365941u, 734333397u}) {
        const day38::cases::GraphCase& g = day38::cases::graphCase("word_graph", seed);
        const Input start = day38::shrink::walkInput(g.graph, day38::cases::walkFrontiers(g, seed).frontier(0));
        const grading::GateResult failure = judge(start);
        ASSERT_FALSE(failure.passed) << "seed " << seed;
        const auto found = shrinkOnHost(start, failure, judge);
        EXPECT_LE(found.input.vertexCount, 12) << "seed " << seed << ": " << day38::shrink::describe(found.input)
                                               << " after " << found.calls << " calls";
        EXPECT_FALSE(judge(found.input).passed);
    }
}

// The planted first_of_tied_starts on the host: the edge mapping's owner
// search returns the first of several equal starts, so a zero-degree
// vertex just before a frontier vertex with edges owns them, reading its own
// row's place in the column array. A read past that array reads the runner's
// guard words as a vertex and faults, as on the GPU.
grading::GateResult firstOfTiedStartsJudge(const Input& in) {
    const grading::Graph g = day38::shrink::graphOf(in);
    const day38::Expansion e = day38::shrink::expansionOf(in);
    std::vector<int> start{0};
    for (int u : e.frontier) start.push_back(start.back() + g.degree(u));
    std::vector<int> dist = e.before;
    for (int edge = 0; edge < start.back(); ++edge) {
        const int i = static_cast<int>(std::lower_bound(start.begin(), start.end() - 1, edge) - start.begin());
        const int owner = start[i] > edge ? i - 1 : i;
        const int at = g.rowOffsets[e.frontier[owner]] + edge - start[owner];
        if (at >= static_cast<int>(g.colIndices.size())) {
            return grading::GateResult::fail("38.distances", "CUDA error in expandEdgePerThread (edge mapping) at level " +
                                                                  std::to_string(e.level) + ": cudaErrorIllegalAddress");
        }
        if (dist[g.colIndices[at]] == -1) dist[g.colIndices[at]] = e.level + 1;
    }
    return day38::checkExpansionDistances(g, e, dist);
}

// The graded expansion of the components graph down to 12 vertices or
// fewer, for 24 seeds. Where the failure is the fault, each success costs a
// runner's restart (about 1.5 s under the suite's load, 30 s the budget):
// the search must get there in few of them.
TEST(Day38Shrink, FirstOfTiedStartsShrinksInFewFaults) {
    int faulting = 0;
    for (uint64_t seed = 1; seed <= 24; ++seed) {
        const day38::cases::GraphCase& g = day38::cases::graphCase("components", seed);
        const Input start = day38::shrink::expansionInput(g.graph, day38::cases::expansionCase(g, seed));
        const grading::GateResult failure = firstOfTiedStartsJudge(start);
        if (failure.passed) continue;
        const bool faults = faulted(failure);
        faulting += faults;
        int restarts = 0;
        const auto found = shrinkOnHost(start, failure, [&restarts](const Input& in) {
            grading::GateResult r = firstOfTiedStartsJudge(in);
            restarts += faulted(r);
            return r;
        });
        const std::string where = "seed " + std::to_string(seed) + ": " + day38::shrink::describe(found.input) +
                                  " after " + std::to_string(found.calls) + " calls";
        EXPECT_LE(found.input.vertexCount, 12) << where;
        if (faults) EXPECT_LE(restarts, 10) << where << ", " << restarts << " of them faults";
        EXPECT_FALSE(firstOfTiedStartsJudge(found.input).passed) << where;
    }
    EXPECT_GE(faulting, 12) << "most of these seeds fault";
}

}  // namespace
