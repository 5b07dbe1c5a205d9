#pragma once
// The course's word-graph format, its CSR form, and the host references that
// every GPU search is judged against.
//
// File format (day 38): lines starting with '#' and blank lines are skipped
// anywhere; then a header "V E"; then V labels, one per line (the first
// whitespace-delimited token, 1 to 63 characters); then E undirected edges
// "u v" with 0 <= u, v < V and u != v.
#include <cstdint>
#include <istream>
#include <string>
#include <utility>
#include <vector>

#include "harness/expected.h"

namespace grading {

constexpr int kMaxWordLen = 64;  // labels are shorter than this, as in the course

struct Graph {
    int vertexCount = 0;
    int edgeCount = 0;                // undirected edges as listed in the file
    std::vector<std::string> words;   // one label per vertex
    std::vector<int> rowOffsets;      // vertexCount + 1
    std::vector<int> colIndices;      // 2 * edgeCount, both directions
    std::vector<std::pair<int, int>> edges;  // as listed, so files round-trip
    std::vector<std::string> comments;  // the '#' lines, without the '#'

    int degree(int v) const { return rowOffsets[v + 1] - rowOffsets[v]; }
    const std::string& word(int v) const { return words[v]; }
};

// CSR by counting sort: degrees, prefix sum, then each edge scattered in
// file order in both directions.
Graph buildCsr(int vertexCount, std::vector<std::string> words,
               const std::vector<std::pair<int, int>>& edges);

// `name` prefixes every message, which also names the offending line number.
Expected<Graph> parseGraph(std::istream& in, const std::string& name);
Expected<Graph> loadGraph(const std::string& path);

// Graphs an instructor adds to the graded set, in two common public formats.
// Both are read as undirected, with self loops and repeated edges dropped;
// labels are "v<the file's own id>".
//  - SNAP edge list: '#' comments, then "u v" per line (any non-negative
//    ids, compacted in order of first appearance).
//  - Matrix Market coordinate: "%%MatrixMarket matrix coordinate ..." header,
//    '%' comments, "rows cols entries", then 1-based "i j [value]" lines;
//    vertex k is row and column k + 1.
Expected<Graph> parseSnapEdgeList(std::istream& in, const std::string& name);
Expected<Graph> parseMatrixMarket(std::istream& in, const std::string& name);
// The course format, Matrix Market (by its header) or a SNAP edge list.
Expected<Graph> loadAnyGraph(const std::string& path);

// Writes the course format; parseGraph of the output rebuilds g exactly.
void writeGraph(std::ostream& out, const Graph& g);
bool saveGraph(const std::string& path, const Graph& g);

// -1 when no vertex has that label.
int findVertex(const Graph& g, const std::string& word);

// Value of "# <key>: <value>" among the comment lines, or "" if absent.
std::string commentValue(const Graph& g, const std::string& key);

// Queue BFS. `order` comes out in level order, so levelStart slices it into
// the frontiers a level-synchronous GPU search builds (in another order).
struct HostBfs {
    std::vector<int> dist;        // -1 where unreached
    std::vector<int> order;       // reached vertices, level by level
    std::vector<int> levelStart;  // levels() + 1 entries into order
    int levels() const { return static_cast<int>(levelStart.size()) - 1; }
    int reached() const { return static_cast<int>(order.size()); }
    std::vector<int> frontier(int level) const {
        return {order.begin() + levelStart[level],
                order.begin() + levelStart[level + 1]};
    }
};
HostBfs bfsHost(const Graph& g, int source);

// The value a walk kernel must produce for one vertex: every neighbour id
// XOR the repeat counter, summed in unsigned arithmetic (wraps, so exact).
uint32_t walkChecksum(const Graph& g, int vertex, int repeats);

// Lane slots a thread-per-vertex launch issues for a frontier: each warp of
// 32 consecutive frontier entries costs 32 times its widest degree.
long long laneSlotsThreadPerVertex(const std::vector<int>& frontierDegrees);

struct DegreeStats {
    int vertices = 0;
    int edges = 0;
    long long csrEntries = 0;
    int maxDegree = 0;
    int hub = 0;  // first vertex of maxDegree
    int median = 0;
    int degreeOne = 0;
};
DegreeStats degreeStats(const Graph& g);

struct LevelStats {
    int level = 0;
    int frontier = 0;
    long long edges = 0;
    int maxDegree = 0;
    int busiest = 0;  // first frontier vertex (in host order) of maxDegree
    int warps = 0;
    long long laneSlots = 0;
};
std::vector<LevelStats> levelStats(const Graph& g, const HostBfs& bfs);

}  // namespace grading
