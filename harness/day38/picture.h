#pragma once
// Day 38's picture of a shrunk graph (grading::Picture, drawn in the report's
// page): the vertices in columns by their wanted distance (by a search from
// the marked vertices where no distances came back), the unreached in
// columns of their own after them, edges as segments, the wrong vertices red.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/shrink.h"

namespace day38 {

struct GraphPicture {
    std::vector<std::string> labels;  // by vertex
    std::vector<std::pair<int, int>> edges;
    std::vector<int> want, got;  // distances by vertex, -1 unreached; either may be empty
    std::vector<int> marked;     // the source or the frontier
    std::string markedAs;        // "source", "frontier"
    std::vector<int> wrong;      // the vertices the gate finds wrong
};

// Nothing when there is nothing to draw (no vertex), or too much (past
// kMostDrawnVertices vertices or kMostDrawnEdges edges).
inline constexpr int kMostDrawnVertices = 256;
inline constexpr size_t kMostDrawnEdges = 4096;
std::optional<grading::Picture> draw(const GraphPicture& graph);

}  // namespace day38
