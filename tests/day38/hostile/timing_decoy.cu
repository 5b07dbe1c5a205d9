// fails: 38.timing
// cases: edge_word_graph
// expect: timed search 0 \(from vertex [0-9]+\): vertex [0-9]+ \([a-z]+\): got -1, want [0-9]+
// Hostile submission: expands for real during the first searches of a call
// (the decoy and the graded one), then does nothing: the timed searches that
// follow measure an empty launcher. The grader checks what every timed
// search left, like any other search.
// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "bfs_mappings.h"
namespace day38 {
static void referenceExpandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                                         const LevelOutput& out, const EdgeScratch& scratch);
}  // namespace day38
#define expandEdgePerThread referenceExpandEdgePerThread
#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution
#undef expandEdgePerThread

namespace day38 {

void expandEdgePerThread(const DeviceCsr& g, const int* frontier, int frontierSize, int level,
                         const LevelOutput& out, const EdgeScratch& scratch) {
    static int sourceLevels = 0;  // searches seen, counted by their level 0
    if (level == 0) ++sourceLevels;
    if (sourceLevels <= 2) referenceExpandEdgePerThread(g, frontier, frontierSize, level, out, scratch);
}

}  // namespace day38
