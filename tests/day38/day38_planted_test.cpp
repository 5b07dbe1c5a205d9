// Every day 38 gate must bite. Each planted bug is its own runner (see
// harness/day38/CMakeLists.txt) and must trip the gate meant for it, with the
// message the spec names; the untouched exercise stub must fail cleanly.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "bfs_constants.h"
#include "day38_cases.h"
#include "day38_gates.h"
#include "harness/testing.h"

namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using day38::cases::BfsRun;
using day38::cases::GraphCase;
using grading::testing::runnerInDir;

class Planted : public ::testing::Test {
protected:
    // Skips without a GPU; otherwise loads the case and its host BFS.
    void load(const std::string& runner, const std::string& graph) {
        runner_ = runnerInDir(runner);
        graphCase_ = day38::cases::makeGraphCase(graph, grading::testing::gradingSeed());
        host_ = grading::bfsHost(graphCase_.graph, graphCase_.source);
    }
    BfsRun search(const std::string& mapping, double timeLimit = 30.0) {
        return day38::cases::runBfs(runner_, graphCase_, mapping, 0, timeLimit);
    }
    grading::GateResult gate(const std::string& id, const std::string& mapping) {
        return day38::cases::evaluate(id, runner_, graphCase_, host_, mapping);
    }

    std::string runner_;
    GraphCase graphCase_;
    grading::HostBfs host_;
};

TEST_F(Planted, PlainClaimFailsFrontierTotalButNotDistances) {
    GRADING_SKIP_WITHOUT_DEVICE(runnerInDir("day38_runner_planted_plain_claim"));
    // Every level-1 thread walks side B in the same order, so they race for
    // the same vertices at the same moment.
    load("day38_runner_planted_plain_claim", "bipartite");
    const BfsRun run = search("thread");
    GRADING_ASSERT_RAN(run.outcome);
    ASSERT_EQ(run.stopped, "");
    EXPECT_TRUE(day38::checkDistances(graphCase_.graph, run.dist, host_.dist).passed);
    EXPECT_TRUE(day38::checkLevels(run.levels, host_.levels()).passed);
    const grading::GateResult total = day38::checkFrontierTotal(run.levelSizes, host_.reached());
    EXPECT_FALSE(total.passed);
    EXPECT_THAT(total.message, MatchesRegex("frontiers held [0-9]+ vertices, want 513 \\(the vertices reached\\): "
                                            "a vertex was enqueued more than once"));
}

TEST_F(Planted, ShuffleInsideTheGuardFailsWalk) {
    GRADING_SKIP_WITHOUT_DEVICE(runnerInDir("day38_runner_planted_shuffle_in_guard"));
    load("day38_runner_planted_shuffle_in_guard", "word_graph");
    const grading::GateResult walk = gate("38.walk", "warp");
    EXPECT_FALSE(walk.passed);
    EXPECT_THAT(walk.message, MatchesRegex("level [0-9]+: walk wrong at slot [0-9]+, vertex [0-9]+ \\([a-z]+\\): "
                                           "got [0-9]+, want [0-9]+"));
    // The expansion is the reference's, so the search itself stays right.
    EXPECT_TRUE(gate("38.distances", "warp").passed);
}

TEST_F(Planted, OffByOneSearchFailsDistances) {
    GRADING_SKIP_WITHOUT_DEVICE(runnerInDir("day38_runner_planted_off_by_one_search"));
    // A random tree (the components graph, fixed seed): each vertex's first
    // CSR neighbour is its parent, so the edge the bug hands to the previous
    // slot claims some vertex's parent early (wrong distances), and the tree
    // ends before the isolated vertices, so the misread stays inside
    // colIndices (no fault). A grid hides the bug: every vertex has two ways in.
    runner_ = runnerInDir("day38_runner_planted_off_by_one_search");
    graphCase_ = day38::cases::makeGraphCase("components", 38);
    host_ = grading::bfsHost(graphCase_.graph, graphCase_.source);
    const grading::GateResult distances = gate("38.distances", "edge");
    EXPECT_FALSE(distances.passed);
    EXPECT_THAT(distances.message, MatchesRegex("vertex [0-9]+ \\(v[0-9]+\\): got -?[0-9]+, want -?[0-9]+"));
}

TEST_F(Planted, KernelThatNeverReturnsIsKilledAndNamed) {
    GRADING_SKIP_WITHOUT_DEVICE(runnerInDir("day38_runner_hostile_never_returns"));
    load("day38_runner_hostile_never_returns", "word_graph");
    const BfsRun run = search("edge", 10.0);
    ASSERT_FALSE(run.outcome.ok());
    EXPECT_TRUE(run.outcome.process.timedOut);
    EXPECT_EQ(run.outcome.message,
              "the runner for `bfs --mapping edge on word_graph` did not finish in 10 s "
              "(it was in expandEdgePerThread (edge mapping) at level 0)");
}

TEST_F(Planted, AppendPastTheEndIsCaughtByGuardWords) {
    GRADING_SKIP_WITHOUT_DEVICE(runnerInDir("day38_runner_planted_append_past_end"));
    load("day38_runner_planted_append_past_end", "word_graph");
    const BfsRun run = search("thread");
    ASSERT_FALSE(run.outcome.ok());
    EXPECT_EQ(run.outcome.process.exitCode, grading::runner_exit::kGuardViolation);
    EXPECT_THAT(run.outcome.message,
                MatchesRegex(".*after expandThreadPerVertex \\(thread mapping\\) at level 0: buffer nextFrontier "
                             "was written past its live end, at index [0-9]+ \\([0-9]+ entries are live\\).*"));
}

TEST_F(Planted, ExerciseStubFailsDistancesCleanly) {
    GRADING_SKIP_WITHOUT_DEVICE(runnerInDir("day38_runner_exercise"));
    load("day38_runner_exercise", "word_graph");
    const BfsRun run = search("edge");
    GRADING_ASSERT_RAN(run.outcome);  // it runs to the end: no fault, no hang
    const grading::GateResult distances = day38::checkDistances(graphCase_.graph, run.dist, host_.dist);
    EXPECT_FALSE(distances.passed);
    EXPECT_THAT(distances.message, MatchesRegex("vertex [0-9]+ \\([a-z]+\\): got -1, want [1-9][0-9]*"));
    EXPECT_FALSE(day38::checkFrontierTotal(run.levelSizes, host_.reached()).passed);
    EXPECT_FALSE(gate("38.walk", "edge").passed);
}

}  // namespace
