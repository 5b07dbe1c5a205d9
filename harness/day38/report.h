#pragma once
// The course's day 38 tables, as text: degree statistics, the per-level
// table, whole-search times per mapping, and the isolated-level walks with
// the exercise's kernel as the fourth column.
#include <string>
#include <vector>

#include "graph.h"

namespace day38 {

constexpr int kWalkMinEdges = 1000;  // smaller levels finish inside a launch's overhead

struct MappingTime {
    std::string mapping;
    double ms = 0.0;        // median of the timed runs
    double iqrMs = 0.0;     // interquartile range of the timed runs
    std::string failure;    // non-empty: no time, this says why
};

struct IsolatedLevel {
    int level = 0;
    int frontier = 0;
    long long edges = 0;
    int maxDegree = 0;
    double threadMs = 0.0, warpMs = 0.0, edgeMs = 0.0;  // <= 0: not measured
};

std::string degreeTable(const grading::Graph& g, const std::string& graphName);
std::string levelTable(const grading::Graph& g, const grading::HostBfs& bfs, int source);
std::string bfsTimeTable(const std::vector<MappingTime>& times, int levels);
std::string isolatedTable(const std::vector<IsolatedLevel>& rows, int repeats);

// The levels worth timing on their own: at least kWalkMinEdges edges.
std::vector<int> isolatedLevels(const grading::Graph& g, const grading::HostBfs& bfs);

}  // namespace day38
