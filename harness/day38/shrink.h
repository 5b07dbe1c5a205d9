#pragma once
// Day 38's failures, shrunk (harness/shrink.h): delta debugging over the
// graph's edge list, the question's vertices kept (a search's source, an
// expansion's or a walk's frontier), every candidate relabelled densely so
// that only vertices an edge or the question names remain, in their old
// order. A search first tries the balls around the source and its
// component, then drops vertices with their subtrees in its BFS tree, and
// contracts edges once small, keeping the unreached rows that end the column
// array until then (a read past a reached row lands there, not past the
// array); an expansion or a walk also drops chunks of its frontier. Each
// candidate is one runner call of the failing mapping.
#include <string>
#include <utility>
#include <vector>

#include "gates.h"
#include "graph.h"
#include "harness/shrink.h"

namespace day38::shrink {

// 30 s: a candidate that faults ends its runner, and the next call starts
// another. 160 calls: a host model of off_by_one_search, whose candidates
// fault as often as not, needs up to 81 to reach 12 vertices
// (tests/day38/off_by_one_model.h); on the H200 under the suite it took 114
// calls, 32 of them faults, and 31.8 s to reach 6.
constexpr grading::ShrinkBudget kBudget{160, 30.0};

enum class Question { Search, Expansion, Walk };

struct Input {
    Question question = Question::Search;
    int vertexCount = 0;
    std::vector<std::string> words;          // one label per vertex, the original graph's
    std::vector<std::pair<int, int>> edges;  // undirected, as listed
    std::vector<int> pinned;                 // Search: {source}; Expansion, Walk: the frontier, in order
    std::vector<int> before;                 // Expansion: the distances handed in, per vertex
    int level = 0;                           // Expansion: the frontier's level
};

Input searchInput(const grading::Graph& g, int source);
Input expansionInput(const grading::Graph& g, const Expansion& e);
Input walkInput(const grading::Graph& g, const std::vector<int>& frontier);

grading::Graph graphOf(const Input& in);
Expansion expansionOf(const Input& in);

// `in` without the edges `dropEdge` marks and the pinned vertices
// `dropPinned` marks, its vertices renumbered 0.. in their old order, those
// no edge and no pinned vertex names gone.
Input keep(const Input& in, const std::vector<bool>& dropEdge, const std::vector<bool>& dropPinned);

// Smaller inputs than `from`, the smallest first where it can tell, each
// made when called.
std::vector<grading::MakeCandidate<Input>> candidates(const Input& from);

// "5 vertices, 4 edges, source 0 (v17)"; "... frontier of 3 at level 1".
std::string describe(const Input& in);

// The edges as "0-1 1-2 ..." (up to 64 of them, then how many more).
std::string edgesText(const Input& in);

// The input in the course's graph format (graph.h's loader), the source as
// "# default source:", so -DGRADING_DAY38_GRAPHS=<file> grades on it.
std::string fileText(const Input& in);

}  // namespace day38::shrink
