#include "report.h"

#include <cstdio>

#include "harness/text.h"

namespace day38 {
namespace {

using grading::formatText;

std::string msOrDash(double ms) { return ms > 0.0 ? formatText("%.4f", ms) : "-"; }
std::string ratioOrDash(double num, double den) {
    return num > 0.0 && den > 0.0 ? formatText("%.2fx", num / den) : "-";
}

}  // namespace

std::string degreeTable(const grading::Graph& g, const std::string& graphName) {
    const grading::DegreeStats s = grading::degreeStats(g);
    return formatText("Graph: %s\n", graphName.c_str()) +
           formatText("  %d vertices, %d undirected edges, %lld csr entries\n", s.vertices, s.edges, s.csrEntries) +
           formatText("  max degree %d (%s), median %d, %d vertices of degree 1\n", s.maxDegree,
                  g.word(s.hub).c_str(), s.median, s.degreeOne);
}

std::string levelTable(const grading::Graph& g, const grading::HostBfs& bfs, int source) {
    std::string out = formatText("BFS from \"%s\" (vertex %d)\n", g.word(source).c_str(), source);
    out += formatText("%6s %9s %8s %9s %-12s %6s %11s\n", "level", "frontier", "edges", "max deg", "busiest", "warps",
                  "lane slots");
    long long edges = 0;
    long long slots = 0;
    for (const grading::LevelStats& s : grading::levelStats(g, bfs)) {
        out += formatText("%6d %9d %8lld %9d %-12s %6d %11lld\n", s.level, s.frontier, s.edges, s.maxDegree,
                      g.word(s.busiest).c_str(), s.warps, s.laneSlots);
        edges += s.edges;
        slots += s.laneSlots;
    }
    out += formatText("  reached %d of %d vertices in %d levels, so %d launches\n", bfs.reached(), g.vertexCount,
                  bfs.levels(), bfs.levels());
    out += formatText("  %lld edges to walk, %lld lane slots issued to walk them (thread mapping);"
                  " the edge mapping issues one slot per edge\n",
                  edges, slots);
    return out;
}

std::string bfsTimeTable(const std::vector<MappingTime>& times, int levels) {
    std::string out = formatText("Whole BFS, median of the timed runs, reset and %d host round trips included\n", levels);
    out += formatText("%-20s %12s %12s\n", "mapping", "ms per bfs", "IQR ms");
    for (const MappingTime& t : times) {
        if (!t.failure.empty()) {
            out += formatText("%-20s %12s   %s\n", t.mapping.c_str(), "-", t.failure.substr(0, 200).c_str());
        } else {
            out += formatText("%-20s %12.4f %12.4f\n", t.mapping.c_str(), t.ms, t.iqrMs);
        }
    }
    return out;
}

std::string isolatedTable(const std::vector<IsolatedLevel>& rows, int repeats) {
    std::string out = formatText("One level in isolation, neighbour walk repeated %d times (edge ms includes its scan)\n",
                             repeats);
    out += formatText("%6s %9s %8s %9s %11s %11s %11s %12s %12s\n", "level", "frontier", "edges", "max deg",
                  "thread ms", "warp ms", "edge ms", "thread/warp", "thread/edge");
    for (const IsolatedLevel& r : rows) {
        out += formatText("%6d %9d %8lld %9d %11s %11s %11s %12s %12s\n", r.level, r.frontier, r.edges, r.maxDegree,
                      msOrDash(r.threadMs).c_str(), msOrDash(r.warpMs).c_str(), msOrDash(r.edgeMs).c_str(),
                      ratioOrDash(r.threadMs, r.warpMs).c_str(), ratioOrDash(r.threadMs, r.edgeMs).c_str());
    }
    return out;
}

std::vector<int> isolatedLevels(const grading::Graph& g, const grading::HostBfs& bfs) {
    std::vector<int> levels;
    for (const grading::LevelStats& s : grading::levelStats(g, bfs)) {
        if (s.edges >= kWalkMinEdges) levels.push_back(s.level);
    }
    return levels;
}

}  // namespace day38
