// The day 38 suite: every 38.* gate, for every mapping, on the shipped word
// graph and on seeded graphs the submission has never seen. The same binary
// runs against the reference runner and the submission's (see CMakeLists).
#include <gtest/gtest.h>

#include <iostream>

#include "bfs_constants.h"
#include "day38_cases.h"
#include "day38_gates.h"
#include "day38_report.h"
#include "harness/testing.h"
#include "harness/timing_stats.h"

namespace {

using day38::cases::BfsRun;
using day38::cases::GraphCase;
using grading::GateResult;
using grading::testing::expectGate;
using grading::testing::runnerUnderTest;

struct CaseParam {
    std::string mapping;
    std::string graph;
};

std::string paramName(const ::testing::TestParamInfo<CaseParam>& info) {
    return info.param.mapping + "_" + info.param.graph;
}

std::vector<CaseParam> allCases() {
    std::vector<CaseParam> params;
    for (const std::string& m : day38::cases::mappings()) {
        for (const std::string& g : day38::cases::graphNames()) params.push_back({m, g});
    }
    return params;
}

class Day38Case : public ::testing::TestWithParam<CaseParam> {
protected:
    void SetUp() override {
        GRADING_SKIP_WITHOUT_DEVICE(runnerUnderTest());
        const uint64_t seed = grading::testing::gradingSeed();
        graphCase_ = day38::cases::makeGraphCase(GetParam().graph, seed);
        host_ = grading::bfsHost(graphCase_.graph, graphCase_.source);
        context_ = GetParam().mapping + " mapping on " + GetParam().graph +
                   (GetParam().graph == "word_graph" ? "" : " (seed " + std::to_string(seed) + ")");
    }

    void expectGateFor(const std::string& gate) {
        expectGate(day38::cases::evaluate(gate, runnerUnderTest(), graphCase_, host_, GetParam().mapping), context_);
    }

    GraphCase graphCase_;
    grading::HostBfs host_;
    std::string context_;
};

class Distances : public Day38Case {};
class Levels : public Day38Case {};
class FrontierTotal : public Day38Case {};
class Walk : public Day38Case {};

TEST_P(Distances, EqualHostBfsExactly) { expectGateFor("38.distances"); }
TEST_P(Levels, EqualHostLevels) { expectGateFor("38.levels"); }
TEST_P(FrontierTotal, EqualsVerticesReached) { expectGateFor("38.frontier_total"); }
TEST_P(Walk, MatchesHostChecksums) { expectGateFor("38.walk"); }

INSTANTIATE_TEST_SUITE_P(Day38, Distances, ::testing::ValuesIn(allCases()), paramName);
INSTANTIATE_TEST_SUITE_P(Day38, Levels, ::testing::ValuesIn(allCases()), paramName);
INSTANTIATE_TEST_SUITE_P(Day38, FrontierTotal, ::testing::ValuesIn(allCases()), paramName);
INSTANTIATE_TEST_SUITE_P(Day38, Walk, ::testing::ValuesIn(allCases()), paramName);

constexpr int kTimedRuns = 10;

class Timing : public ::testing::TestWithParam<std::string> {};

TEST_P(Timing, EveryFigureIsPositive) {
    GRADING_SKIP_WITHOUT_DEVICE(runnerUnderTest());
    const GraphCase c = day38::cases::makeGraphCase("word_graph", 0);
    const grading::HostBfs host = grading::bfsHost(c.graph, c.source);
    const std::string mapping = GetParam();
    const std::string context = mapping + " mapping on word_graph";

    std::vector<std::pair<std::string, double>> figures;
    const BfsRun bfs = day38::cases::runBfs(runnerUnderTest(), c, mapping, kTimedRuns);
    if (!bfs.outcome.ok() || !bfs.stopped.empty() || !bfs.fieldError.empty()) {
        const std::string why = !bfs.outcome.ok() ? bfs.outcome.message
                                : !bfs.stopped.empty() ? "the search stopped early: " + bfs.stopped
                                                       : bfs.fieldError;
        expectGate(GateResult::fail("38.timing", "no whole-search time: " + why), context);
        return;
    }
    for (size_t k = 0; k < bfs.bfsMs.size(); ++k) {
        figures.emplace_back("whole bfs, timed run " + std::to_string(k), bfs.bfsMs[k]);
    }
    const std::vector<int> levels = day38::isolatedLevels(c.graph, host);
    const day38::cases::WalkRun walk =
        day38::cases::runWalk(runnerUnderTest(), c, host, mapping, day38::kWalkRepeats, levels, kTimedRuns);
    if (!walk.outcome.ok() || !walk.fieldError.empty()) {
        expectGate(GateResult::fail("38.timing", "no walk times: " + (walk.outcome.ok() ? walk.fieldError : walk.outcome.message)),
                   context);
        return;
    }
    for (size_t k = 0; k < walk.walkMs.size() && k < levels.size(); ++k) {
        figures.emplace_back("walk of level " + std::to_string(levels[k]), walk.walkMs[k]);
    }
    if (walk.walkMs.size() != levels.size()) figures.emplace_back("walk times (missing)", 0.0);
    expectGate(day38::checkTimings(figures), context);
}

INSTANTIATE_TEST_SUITE_P(Day38, Timing, ::testing::ValuesIn(day38::cases::mappings()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The course's tables for the shipped graph, the exercise's kernel as the
// fourth column. Observations only: nothing here is gated, but the course's
// own mappings must run for the report to exist.
TEST(Day38Report, WordGraph) {
    GRADING_SKIP_WITHOUT_DEVICE(runnerUnderTest());
    const GraphCase c = day38::cases::makeGraphCase("word_graph", 0);
    const grading::HostBfs host = grading::bfsHost(c.graph, c.source);
    const std::vector<int> levels = day38::isolatedLevels(c.graph, host);

    std::vector<day38::MappingTime> times;
    std::vector<day38::IsolatedLevel> rows;
    for (int level : levels) {
        day38::IsolatedLevel row;
        const grading::LevelStats s = grading::levelStats(c.graph, host)[level];
        row.level = level;
        row.frontier = s.frontier;
        row.edges = s.edges;
        row.maxDegree = s.maxDegree;
        rows.push_back(row);
    }
    for (const std::string& mapping : day38::cases::mappings()) {
        day38::MappingTime t;
        t.mapping = mapping + " per " + (mapping == "edge" ? "edge" : "vertex");
        const BfsRun bfs = day38::cases::runBfs(runnerUnderTest(), c, mapping, kTimedRuns);
        const bool courseMapping = mapping != "edge";
        if (courseMapping) {
            ASSERT_TRUE(bfs.outcome.ok()) << bfs.outcome.message;
        }
        if (!bfs.outcome.ok() || bfs.bfsMs.empty()) {
            t.failure = bfs.outcome.ok() ? "no time: " + bfs.stopped + bfs.fieldError : bfs.outcome.message;
        } else {
            const grading::TimingStats stats = grading::summarize(bfs.bfsMs);
            t.ms = stats.medianMs;
            t.spreadMs = stats.maxMs - stats.minMs;
            ::testing::Test::RecordProperty("bfs_ms_" + mapping, std::to_string(t.ms));
        }
        times.push_back(t);

        const day38::cases::WalkRun walk =
            day38::cases::runWalk(runnerUnderTest(), c, host, mapping, day38::kWalkRepeats, levels, kTimedRuns);
        if (courseMapping) {
            ASSERT_TRUE(walk.outcome.ok()) << walk.outcome.message;
        }
        for (size_t k = 0; k < walk.walkMs.size() && k < rows.size(); ++k) {
            double* cell = mapping == "thread" ? &rows[k].threadMs : mapping == "warp" ? &rows[k].warpMs : &rows[k].edgeMs;
            *cell = walk.walkMs[k];
            ::testing::Test::RecordProperty("walk_ms_level" + std::to_string(rows[k].level) + "_" + mapping,
                                            std::to_string(*cell));
        }
    }
    std::cout << "\n" << day38::degreeTable(c.graph, "data/word-graph.txt") << "\n"
              << day38::levelTable(c.graph, host, c.source) << "\n"
              << day38::bfsTimeTable(times, host.levels()) << "\n"
              << day38::isolatedTable(rows, day38::kWalkRepeats) << std::endl;
}

}  // namespace
