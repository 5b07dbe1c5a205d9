// The day 38 gates and statistics on hand-made data: each gate's exact
// message on a planted discrepancy, and the lesson's lane-slot arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "cases.h"
#include "clocked_walk.h"
#include "gates.h"
#include "report.h"
#include "graph.h"

namespace {

grading::Graph triangleWithTail() {
    // 0 - 1 - 2 - 0, and 2 - 3
    return grading::buildCsr(4, {"await", "join", "root", "the"}, {{0, 1}, {1, 2}, {2, 0}, {2, 3}});
}

TEST(Day38Gates, DistancesNameTheFirstWrongVertexAndItsWord) {
    const grading::Graph g = triangleWithTail();
    const std::vector<int> want = {0, 1, 1, 2};
    EXPECT_TRUE(day38::checkDistances(g, want, want).passed);
    const grading::GateResult r = day38::checkDistances(g, {0, 1, 1, 3}, want);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "38.distances");
    EXPECT_EQ(r.message, "vertex 3 (the): got 3, want 2");
    EXPECT_EQ(day38::checkDistances(g, {0, 1}, want).message, "got 2 distances for 4 vertices");
}

TEST(Day38Gates, LevelsNameBothCounts) {
    EXPECT_TRUE(day38::checkLevels(10, 10).passed);
    const grading::GateResult r = day38::checkLevels(9, 10);
    EXPECT_EQ(r.id, "38.levels");
    EXPECT_EQ(r.message, "levels: got 9, want 10");
}

TEST(Day38Gates, FrontierTotalCatchesADuplicateAppend) {
    EXPECT_TRUE(day38::checkFrontierTotal({1, 2, 1}, 4).passed);
    const grading::GateResult dup = day38::checkFrontierTotal({1, 3, 1}, 4);
    EXPECT_FALSE(dup.passed);
    EXPECT_EQ(dup.id, "38.frontier_total");
    EXPECT_EQ(dup.message, "frontiers held 5 vertices, want 4 (the vertices reached): a vertex was enqueued more than once");
    EXPECT_EQ(day38::checkFrontierTotal({1}, 4).message,
              "frontiers held 1 vertices, want 4 (the vertices reached): some reached vertex was never enqueued");
}

TEST(Day38Gates, WalkNamesFrontierSlotVertexWordDegreeAndBothValues) {
    const grading::Graph g = triangleWithTail();
    const std::vector<int> frontier = {1, 2};
    const uint32_t want1 = grading::walkChecksum(g, 1, 4);
    const uint32_t want2 = grading::walkChecksum(g, 2, 4);
    EXPECT_TRUE(day38::checkWalk(g, 1, frontier, {want1, want2}, 4).passed);
    const grading::GateResult r = day38::checkWalk(g, 1, frontier, {want1, want2 + 1}, 4);
    EXPECT_EQ(r.id, "38.walk");
    EXPECT_EQ(r.message, "frontier 1: walk wrong at slot 1, vertex 2 (root) of degree 3: got " +
                             std::to_string(want2 + 1) + ", want " + std::to_string(want2));
    EXPECT_EQ(day38::checkWalk(g, 0, frontier, {want1, 0xCBCBCBCBu}, 4).message,
              "frontier 0: walk wrong at slot 1, vertex 2 (root) of degree 3: got 3419130827, want " +
                  std::to_string(want2) + " (never written: still the runner's poison)");
}

// 0 - 1 - 2 - 0, 2 - 3, and 4 alone: expanding {1, 4, 2} at level 1 over
// distances where 0, 1, 2 are known reaches 3 only.
day38::Expansion levelOneWithAnIsolatedVertex() { return {{0, 1, 1, -1, 1}, {1, 4, 2}, 1}; }

grading::Graph triangleTailAndIsolated() {
    return grading::buildCsr(5, {"await", "join", "root", "the", "alone"}, {{0, 1}, {1, 2}, {2, 0}, {2, 3}});
}

TEST(Day38Gates, ExpansionDistancesFollowTheHostsOneLevel) {
    const grading::Graph g = triangleTailAndIsolated();
    const day38::Expansion e = levelOneWithAnIsolatedVertex();
    EXPECT_EQ(day38::expectedAfter(g, e), (std::vector<int>{0, 1, 1, 2, 1}));
    EXPECT_TRUE(day38::checkExpansionDistances(g, e, {0, 1, 1, 2, 1}).passed);
    const grading::GateResult r = day38::checkExpansionDistances(g, e, {0, 1, 1, -1, 1});
    EXPECT_EQ(r.id, "38.distances");
    EXPECT_EQ(r.message, "one level from a frontier of 3 at level 1: vertex 3 (the): got -1, want 2");
}

TEST(Day38Gates, ExpansionFrontierHoldsEachNewVertexOnce) {
    const grading::Graph g = triangleTailAndIsolated();
    const day38::Expansion e = levelOneWithAnIsolatedVertex();
    EXPECT_TRUE(day38::checkExpansionFrontier(g, e, {3}).passed);
    EXPECT_EQ(day38::checkExpansionFrontier(g, e, {3, 3}).message,
              "one level from a frontier of 3 at level 1: vertex 3 (the) was enqueued more than once");
    EXPECT_EQ(day38::checkExpansionFrontier(g, e, {}).message,
              "one level from a frontier of 3 at level 1: vertex 3 (the) was reached but never enqueued");
    EXPECT_EQ(day38::checkExpansionFrontier(g, e, {3, 0}).message,
              "one level from a frontier of 3 at level 1: vertex 0 (await) was enqueued, but it is not a newly "
              "reached neighbour of the frontier");
    const grading::GateResult poison = day38::checkExpansionFrontier(g, e, {3, -875836469});
    EXPECT_EQ(poison.id, "38.frontier_total");
    EXPECT_EQ(poison.message,
              "one level from a frontier of 3 at level 1: slot 1 of the next frontier holds -875836469, not a "
              "vertex (never written: still the runner's poison)");
}

TEST(Day38Gates, WalkChecksumIsTheXorSumWithWraparound) {
    const grading::Graph g = triangleWithTail();
    // Vertex 2's neighbours are 1, 0, 3 (file order); repeats 0 and 1.
    EXPECT_EQ(grading::walkChecksum(g, 2, 2), (1u ^ 0u) + (0u ^ 0u) + (3u ^ 0u) + (1u ^ 1u) + (0u ^ 1u) + (3u ^ 1u));
    // Wraps instead of saturating: a hub of huge ids repeated many times.
    const grading::Graph star = grading::buildCsr(3, {"a", "b", "c"}, {{0, 1}, {0, 2}});
    uint32_t expect = 0;
    for (int r = 0; r < 100000; ++r) expect += (1u ^ static_cast<uint32_t>(r)) + (2u ^ static_cast<uint32_t>(r));
    EXPECT_EQ(grading::walkChecksum(star, 0, 100000), expect);
}

TEST(Day38Gates, TimingNamesTheFigureThatIsNotPositive) {
    EXPECT_TRUE(day38::checkTimings({{"whole bfs", 0.3}, {"walk of level 4", 0.01}}).passed);
    const grading::GateResult r = day38::checkTimings({{"whole bfs", 0.3}, {"walk of level 4", 0.0}});
    EXPECT_EQ(r.id, "38.timing");
    EXPECT_EQ(r.message, "walk of level 4 is not a positive time: 0 ms");
    EXPECT_FALSE(day38::checkTimings({{"whole bfs", std::nan("")}}).passed);
    EXPECT_EQ(day38::checkTimings({}).message, "no timings were reported");
}

// The lesson's level 4: "the" (1255) and "and" (1012) in one warp with eight
// small vertices. One warp iterates 1255 times: 32 x 1255 = 40,160 slots.
TEST(Day38Stats, LaneSlotsOfTheLessonsLevelFour) {
    EXPECT_EQ(grading::laneSlotsThreadPerVertex({3, 1255, 4, 43, 1012, 3, 40, 38, 27, 27}), 40160);
    // A second warp pays for its own widest vertex.
    std::vector<int> degrees(33, 1);
    degrees[32] = 7;
    EXPECT_EQ(grading::laneSlotsThreadPerVertex(degrees), 32 * 1 + 32 * 7);
    EXPECT_EQ(grading::laneSlotsThreadPerVertex({}), 0);
}

TEST(Day38Stats, LevelTableOfAHandMadeGraph) {
    const grading::Graph g = triangleWithTail();
    const grading::HostBfs bfs = grading::bfsHost(g, 0);
    const std::vector<grading::LevelStats> levels = grading::levelStats(g, bfs);
    ASSERT_EQ(levels.size(), 3u);
    EXPECT_EQ(levels[1].frontier, 2);
    EXPECT_EQ(levels[1].edges, 2 + 3);
    EXPECT_EQ(levels[1].maxDegree, 3);
    EXPECT_EQ(g.word(levels[1].busiest), "root");
    EXPECT_EQ(levels[1].warps, 1);
    EXPECT_EQ(levels[1].laneSlots, 32 * 3);
    EXPECT_EQ(day38::isolatedLevels(g, bfs), std::vector<int>{});
    const std::string table = day38::levelTable(g, bfs, 0);
    EXPECT_NE(table.find("reached 4 of 4 vertices in 3 levels, so 3 launches"), std::string::npos) << table;
}

}  // namespace

namespace {

TEST(Day38Gates, EveryTimedWalkMustDoItsOwnWork) {
    EXPECT_TRUE(day38::checkTimedWalkRuns(12, {-1, -1, -1}, 3).passed);
    const grading::GateResult r = day38::checkTimedWalkRuns(12, {-1, -1, 40}, 3);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "38.timing");
    EXPECT_EQ(r.message, "the timed walk of level 12, run 2: slot 40 is not the course's walk of the run's own graph: "
                         "the run did not do its own walk");
    EXPECT_EQ(day38::checkTimedWalkRuns(3, {}, 10).message, "the runner checked 0 of level 3's 10 timed walks");
}

TEST(Day38Cases, TimedSourcesAreDistinctReachedVerticesDrawnFromTheSeed) {
    const day38::cases::GraphCase& g = day38::cases::graphCase("word_graph", 7);
    const std::vector<int32_t> a = day38::cases::timedSources(g, 7, 10);
    ASSERT_EQ(a.size(), 10u);
    EXPECT_EQ(std::set<int32_t>(a.begin(), a.end()).size(), 10u);
    for (int32_t v : a) EXPECT_GE(g.host.dist[static_cast<size_t>(v)], 0) << v;
    EXPECT_EQ(a, day38::cases::timedSources(g, 7, 10));
    EXPECT_NE(a, day38::cases::timedSources(g, 8, 10));
}

}  // namespace

namespace {

TEST(Day38Gates, EveryTimedSearchIsCheckedFromItsOwnSource) {
    const grading::Graph g = triangleWithTail();
    // From 3: 3 -> 2 -> {0, 1}; from 0: 0 -> {1, 2} -> 3.
    const std::vector<int32_t> right = {2, 2, 1, 0, 0, 1, 1, 2};
    EXPECT_TRUE(day38::checkTimedSearches(g, {3, 0}, right).passed);
    // Run 1 handed back run 0's distances.
    const grading::GateResult replayed = day38::checkTimedSearches(g, {3, 0}, {2, 2, 1, 0, 2, 2, 1, 0});
    EXPECT_FALSE(replayed.passed);
    EXPECT_EQ(replayed.id, "38.timing");
    EXPECT_EQ(replayed.message, "timed search 1 (from vertex 0): vertex 0 (await): got 2, want 0");
    EXPECT_EQ(day38::checkTimedSearches(g, {3, 0}, {2, 2, 1, 0}).message,
              "the timed searches returned 4 distances for 2 searches of 4 vertices");
}

TEST(Day38Cases, SeedsAreDerivedWithSha256PerPurpose) {
    const uint64_t a = day38::cases::derive(7, "rmat graph");
    EXPECT_EQ(a, day38::cases::derive(7, "rmat graph"));
    EXPECT_NE(a, day38::cases::derive(8, "rmat graph"));
    EXPECT_NE(a, day38::cases::derive(7, "components graph"));
}

TEST(Day38Cases, AnExpansionFirstRunsADecoyLevelOfAnotherSize) {
    for (const char* name : {"components", "rmat"}) {
        const day38::cases::GraphCase& g = day38::cases::graphCase(name, 7);
        const day38::Expansion real = day38::cases::expansionCase(g, 7);
        const std::optional<day38::Expansion> decoy = day38::cases::expansionDecoy(g, real, 7);
        ASSERT_TRUE(decoy.has_value()) << name;
        EXPECT_EQ(std::abs(decoy->level - real.level), 1) << name;
        EXPECT_NE(decoy->frontier.size(), real.frontier.size()) << name;
        std::vector<int> sorted = decoy->frontier;
        std::sort(sorted.begin(), sorted.end());
        std::vector<int> level = g.host.frontier(decoy->level);
        std::sort(level.begin(), level.end());
        EXPECT_EQ(sorted, level) << name;
        for (size_t v = 0; v < decoy->before.size(); ++v) {
            EXPECT_EQ(decoy->before[v], g.host.dist[v] <= decoy->level ? g.host.dist[v] : -1) << name << " " << v;
        }
    }
    // A single vertex has no other level to expand.
    const day38::cases::GraphCase& one = day38::cases::graphCase("single_vertex", 7);
    day38::Expansion e;
    e.before = one.host.dist;
    e.frontier = {0};
    EXPECT_FALSE(day38::cases::expansionDecoy(one, e, 7).has_value());
}

TEST(Day38Gates, AClockedRunReadsTheGraphRelabelledItsOwnWay) {
    // Each run's relabelling is a bijection of the vertices, and no two runs'
    // walks of the same frontier prove the same.
    for (int vertices : {1, 2, 4, 12, 97, 1000}) {
        for (int run = 0; run < 20; ++run) {
            const day38::Relabel r = day38::clockedRelabel(12345, run, vertices);
            std::set<int> images;
            for (int v = 0; v < vertices; ++v) images.insert(day38::relabelled(r, v, vertices));
            EXPECT_EQ(images.size(), static_cast<size_t>(vertices)) << vertices << " vertices, run " << run;
            EXPECT_GE(*images.begin(), 0);
            EXPECT_LT(*images.rbegin(), vertices);
        }
    }
    const grading::Graph g = triangleWithTail();
    const std::vector<int32_t> frontiers = {2, 0, 3};
    std::set<uint64_t> proofs;
    for (int run = 0; run < 8; ++run) proofs.insert(day38::clockedWalkProof(g, frontiers, 64, 99, run));
    EXPECT_EQ(proofs.size(), 8u);
}

// A timed walk's later runs (protocol.h, WalkResult): each frontier's runs
// and each run's frontiers read the graph relabelled their own way.
TEST(Day38Gates, ATimedWalksRunsReadTheGraphRelabelledTheirOwnWay) {
    std::set<std::pair<uint64_t, uint64_t>> seen;
    for (int frontier = 0; frontier < 4; ++frontier) {
        for (int run = 1; run < 10; ++run) {
            const day38::Relabel r = day38::timedWalkRelabel(555, frontier, run, 10007);
            seen.insert({r.a, r.b});
            std::set<int> images;
            for (int v = 0; v < 10007; ++v) images.insert(day38::relabelled(r, v, 10007));
            EXPECT_EQ(images.size(), 10007u) << "frontier " << frontier << ", run " << run;
        }
    }
    EXPECT_EQ(seen.size(), 36u);
}

TEST(Day38Gates, AClockedWalkProvesTheRunsItIsCheckedOn) {
    const grading::Graph g = triangleWithTail();
    const std::vector<int32_t> frontiers = {2, 0, 3, 1};
    std::vector<uint64_t> proofs;
    for (int run = 0; run < 5; ++run) proofs.push_back(day38::clockedWalkProof(g, frontiers, 64, 7, run));
    EXPECT_TRUE(day38::checkClockedWalk(g, frontiers, 64, 7, proofs, 5, {0, 4, 2}).passed);
    // Run 3 answered with run 2's work: caught where run 3 is checked.
    proofs[3] = proofs[2];
    EXPECT_TRUE(day38::checkClockedWalk(g, frontiers, 64, 7, proofs, 5, {0, 4, 2}).passed);
    const grading::GateResult r = day38::checkClockedWalk(g, frontiers, 64, 7, proofs, 5, {1, 3});
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.id, "38.speed");
    EXPECT_EQ(r.message, "clocked walk run 3 of 5: proof " + std::to_string(proofs[2]) + ", want " +
                             std::to_string(day38::clockedWalkProof(g, frontiers, 64, 7, 3)) +
                             ": the timed walks were not all done");
    EXPECT_EQ(day38::checkClockedWalk(g, frontiers, 64, 7, {1, 2}, 5, {0}).message,
              "the clocked walks proved 2 of 5 runs");
}

}  // namespace
